package clientcache

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// logLines collects what a cache logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

func (l *logLines) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

const secret = "s3cr3t-of-the-stand"

func writeEnv(t *testing.T, path, baseURL string) {
	t.Helper()
	text := "ELEMENT_BASE_URL=" + baseURL + "\nELEMENT_CLIENT_ID=id\nELEMENT_CLIENT_SECRET=" + secret + "\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newCache(t *testing.T, logs *logLines) (*Cache, string) {
	dir := t.TempDir()
	c := New(Options{Dir: dir, Getenv: func(string) string { return "" }, Log: logs.log,
		ClientOptions: platform.ClientOptions{TokenCacheDir: "-"}})
	t.Cleanup(c.Close)
	return c, dir
}

// A client whose close panics: one without a transport (the zero client),
// the way a broken client would fail.
var panickingClient = &platform.Client{}

func TestClosePanicIsLoggedAndTheCallGoesOn(t *testing.T) {
	ctx := context.Background()
	logs := &logLines{}
	c, dir := newCache(t, logs)
	env := filepath.Join(dir, "stand.env")
	writeEnv(t, env, "https://one.example")
	if _, cl, _, err := c.Resolve(ctx, "", env); err != nil || cl == nil {
		t.Fatalf("first resolve: %v", err)
	}
	// The stand's client breaks; then its .env changes, so the cache
	// replaces the client and closes the broken one.
	c.mu.Lock()
	for _, e := range c.entries {
		e.client = panickingClient
	}
	c.mu.Unlock()
	writeEnv(t, env, "https://two.example")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(env, later, later); err != nil {
		t.Fatal(err)
	}
	cfg, cl, cfgErr, clientErr := c.Resolve(ctx, "", env)
	if cfgErr != nil || clientErr != nil || cl == nil || cfg.BaseURL != "https://two.example" {
		t.Fatalf("the call after the panic: %v %v %v", cfg, cfgErr, clientErr)
	}
	got := logs.all()
	want := i18n.T(ctx, "clientcache.close-panicked", "stand", "?", "panic", "runtime error: invalid memory address or nil pointer dereference")
	if !strings.Contains(got, want) || !strings.Contains(got, "closeQuietly") {
		t.Fatalf("the log lacks the panic and where it happened:\n%s", got)
	}
}

func TestClosingAllGoesOnPastAPanic(t *testing.T) {
	ctx := context.Background()
	logs := &logLines{}
	c, dir := newCache(t, logs)
	for i, name := range []string{"a.env", "b.env", "c.env"} {
		path := filepath.Join(dir, name)
		writeEnv(t, path, "https://"+name+".example")
		if _, _, _, err := c.Resolve(ctx, "", path); err != nil {
			t.Fatalf("resolve %s: %v", name, err)
		}
		if i == 1 {
			c.mu.Lock()
			c.entries[key{path: path}].client = panickingClient
			c.mu.Unlock()
		}
	}
	c.Close()
	if n := strings.Count(logs.all(), i18n.T(ctx, "clientcache.close-panicked", "stand", "?", "panic", "runtime error: invalid memory address or nil pointer dereference")); n != 1 {
		t.Fatalf("%d panics logged, want 1:\n%s", n, logs.all())
	}
	c.mu.Lock()
	left, closed := len(c.entries), c.closed
	c.mu.Unlock()
	if left != 0 || !closed {
		t.Fatalf("after Close: %d entries, closed %v", left, closed)
	}
}

// The log names the stand and masks its client secret, whatever the panic
// carries.
func TestClosePanicLogMasksTheSecret(t *testing.T) {
	logs := &logLines{}
	c, _ := newCache(t, logs)
	func() {
		defer c.recoverClose(&platform.Config{BaseURL: "https://one.example", ClientSecret: secret})
		panic("a panic that quotes " + secret)
	}()
	got := logs.all()
	if !strings.Contains(got, "https://one.example") || !strings.Contains(got, "a panic that quotes ***") || strings.Contains(got, secret) {
		t.Fatalf("log:\n%s", got)
	}
}

// Without a Log of its own the cache tells the client's Warn.
func TestLogDefaultsToTheClientsWarn(t *testing.T) {
	logs := &logLines{}
	c := New(Options{Dir: t.TempDir(), ClientOptions: platform.ClientOptions{Warn: logs.log}})
	c.closeQuietly(panickingClient)
	if !strings.Contains(logs.all(), "closeQuietly") {
		t.Fatalf("Warn got %q", logs.all())
	}
}
