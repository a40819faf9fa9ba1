package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
)

// bulkStand is a stand with total applications, live of them Running.
func bulkStand(t *testing.T, total, live int) *stand.Stand {
	t.Helper()
	s, _ := newStand(t, false)
	if err := s.SeedApps(total, live); err != nil {
		t.Fatal(err)
	}
	return s
}

func totalOf(t *testing.T, answer *jsonx.Object) int64 {
	t.Helper()
	n, ok := answer.Int("total")
	if !ok {
		t.Fatalf("no total in %v", answer)
	}
	return n
}

func TestEnvFileReachesAnotherStandAndSharesOneClientPerPath(t *testing.T) {
	h := start(t, setup{})
	other := bulkStand(t, 5, 2)
	h.secrets = append(h.secrets, other.ClientSecret())
	bEnv := writeFile(t, filepath.Join(h.dir, "b.env"), envText(other))

	if n := totalOf(t, h.ok("list_apps", nil)); n != 1 {
		t.Errorf("the default stand has 1 application, got %d", n)
	}
	for _, ref := range []string{"b.env", "./b.env", bEnv, filepath.Join(h.dir, "sub", "..", "b.env")} {
		if n := totalOf(t, h.ok("list_apps", map[string]any{"env_file": ref})); n != 5 {
			t.Errorf("env_file %s: total %d, want 5", ref, n)
		}
	}
	if n := h.srv.ClientBuilds(); n != 2 {
		t.Errorf("one client per stand: built %d, want 2", n)
	}
	// The call's own stand also answers name lookups.
	if text := h.fails("get_app", map[string]any{"app_id": h.demo.AppName, "env_file": "b.env"}); !strings.Contains(text, "не найдено") {
		t.Errorf("the demo app is not on stand B: %s", text)
	}
}

func TestEnvFileChangeRebuildsTheClient(t *testing.T) {
	ctx := context.Background()
	h := start(t, setup{})
	b := bulkStand(t, 5, 2)
	c := bulkStand(t, 7, 7)
	h.secrets = append(h.secrets, b.ClientSecret(), c.ClientSecret())
	path := writeFile(t, filepath.Join(h.dir, "moving.env"), envText(b))

	if n := totalOf(t, h.ok("list_apps", map[string]any{"env_file": "moving.env"})); n != 5 {
		t.Fatalf("before the change: %d", n)
	}
	built := h.srv.ClientBuilds()
	h.ok("list_apps", map[string]any{"env_file": "moving.env"})
	if h.srv.ClientBuilds() != built {
		t.Errorf("an unchanged file must reuse its client")
	}
	_, before, _, _ := h.srv.cache.Resolve(ctx, "", "moving.env")

	// Same path, another stand; the comment changes the size even if the
	// clock is coarse.
	writeFile(t, path, envText(c, "# moved to stand C"))
	if n := totalOf(t, h.ok("list_apps", map[string]any{"env_file": "moving.env"})); n != 7 {
		t.Errorf("after the change the call must reach stand C: %d", n)
	}
	if got := h.srv.ClientBuilds(); got != built+1 {
		t.Errorf("a changed file builds one new client: %d → %d", built, got)
	}
	_, after, _, _ := h.srv.cache.Resolve(ctx, "", "moving.env")
	if after == before || after == nil {
		t.Errorf("the new client must replace the old one in the cache")
	}

	// A file deleted after it was cached is an error, not the old client.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if text := h.fails("list_apps", map[string]any{"env_file": "moving.env"}); !strings.Contains(text, "не найден") || !strings.Contains(text, path) {
		t.Errorf("deleted env_file: %s", text)
	}
}

func TestMissingEnvFileIsAClearError(t *testing.T) {
	h := start(t, setup{})
	text := h.fails("list_apps", map[string]any{"env_file": "nowhere/stand.env"})
	for _, want := range []string{"не найден", "nowhere/stand.env", filepath.Join(h.dir, "nowhere", "stand.env"), "текущего каталога"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing env_file error lacks %q: %s", want, text)
		}
	}
	if h.srv.ClientBuilds() != 0 {
		t.Errorf("no client for a missing file")
	}
}

func TestNoDefaultStandIsACallError(t *testing.T) {
	h := start(t, setup{noDotEnv: true})
	text := h.fails("list_apps", nil)
	if !strings.Contains(text, "ELEMENT_BASE_URL") {
		t.Errorf("a call without any configuration names what is missing: %s", text)
	}
	// The server keeps serving other stands.
	b := bulkStand(t, 3, 3)
	h.secrets = append(h.secrets, b.ClientSecret())
	writeFile(t, filepath.Join(h.dir, "b.env"), envText(b))
	if n := totalOf(t, h.ok("list_apps", map[string]any{"env_file": "b.env"})); n != 3 {
		t.Errorf("stand B total %d", n)
	}
}

func TestStartupOverridesApplyOnlyToCallsWithoutEnvFile(t *testing.T) {
	ctx := context.Background()
	a := bulkStand(t, 2, 2)
	b := bulkStand(t, 5, 5)
	h := start(t, setup{
		plainStand: true, noDotEnv: true, envFile: "b.env",
		overrides: platform.Overrides{BaseURL: a.URL(), ClientID: a.ClientID(), ClientSecret: a.ClientSecret(), Timeout: 7},
	})
	h.secrets = append(h.secrets, a.ClientSecret(), b.ClientSecret())
	// The startup --env-file names stand B, the startup flags stand A.
	writeFile(t, filepath.Join(h.dir, "b.env"), envText(b))

	if n := totalOf(t, h.ok("list_apps", nil)); n != 2 {
		t.Errorf("a default call takes the startup flags (stand A): %d", n)
	}
	if n := totalOf(t, h.ok("list_apps", map[string]any{"env_file": "b.env"})); n != 5 {
		t.Errorf("a call naming the same file gets no identity flags (stand B): %d", n)
	}
	if n := h.srv.ClientBuilds(); n != 2 {
		t.Errorf("the default call with identity flags has its own entry: %d clients", n)
	}
	cfg, _, err, _ := h.srv.cache.Resolve(ctx, "", "b.env")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Timeout != 7*time.Second {
		t.Errorf("the startup timeout applies to explicit env_file calls too: %v", cfg.Timeout)
	}
	if cfg.BaseURL != b.URL() {
		t.Errorf("explicit env_file must not take the startup base URL: %s", cfg.BaseURL)
	}
}

func TestTimeoutOnlyOverrideSharesTheEntry(t *testing.T) {
	h := start(t, setup{overrides: platform.Overrides{Timeout: 3}})
	h.ok("list_apps", nil)
	h.ok("list_apps", map[string]any{"env_file": ".env"})
	if n := h.srv.ClientBuilds(); n != 1 {
		t.Errorf("without identity flags the default and the explicit call of one file share a client: %d", n)
	}
}

func TestConcurrentCallsForOneStandBuildOneClient(t *testing.T) {
	h := start(t, setup{})
	b := bulkStand(t, 4, 4)
	h.secrets = append(h.secrets, b.ClientSecret())
	writeFile(t, filepath.Join(h.dir, "b.env"), envText(b))
	tokensBefore := tokenRequests(b)

	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := h.callWith(ctx, "list_apps", map[string]any{"env_file": "b.env"}, nil)
			switch {
			case err != nil:
				errs <- err.Error()
			case res.IsError:
				errs <- textOf(res)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := h.srv.ClientBuilds(); n != 1 {
		t.Errorf("eight concurrent calls for one stand built %d clients", n)
	}
	if n := tokenRequests(b) - tokensBefore; n != 1 {
		t.Errorf("one client means one token: %d token requests", n)
	}
}

// TestOneResolutionPerCall: a command that asks for its client and its
// configuration several times gets one stand, even when the file changes
// in the middle of the call.
func TestOneResolutionPerCall(t *testing.T) {
	cat := catalog.Core()
	var path string
	cat.Add(&command.Command{
		Tool: "test_resolve_twice", Help: "resolve the client twice",
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			first, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			f.WriteString("# touched during the call\n")
			f.Close()
			cfg, err := cc.Config(ctx)
			if err != nil {
				return nil, err
			}
			second, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			return jsonx.New("same-client", first == second, "same-config", cfg == first.Config()), nil
		},
	})
	h := start(t, setup{catalog: cat})
	path = filepath.Join(h.dir, ".env")
	got := h.ok("test_resolve_twice", nil)
	if !got.Bool("same-client") || !got.Bool("same-config") {
		t.Errorf("one call, one resolution: %v", got)
	}
	if n := h.srv.ClientBuilds(); n != 1 {
		t.Errorf("built %d clients within one call", n)
	}
	h.ok("test_resolve_twice", nil)
	if n := h.srv.ClientBuilds(); n != 2 {
		t.Errorf("the next call sees the changed file: %d clients", n)
	}
}

func TestPinnedConfigServesDefaultCalls(t *testing.T) {
	ctx := context.Background()
	a := bulkStand(t, 6, 1)
	b := bulkStand(t, 2, 1)
	dir := t.TempDir()
	// A .env in the directory is ignored when a configuration is pinned.
	writeFile(t, filepath.Join(dir, ".env"), envText(b))
	writeFile(t, filepath.Join(dir, "b.env"), envText(b))
	srv := New(ctx, Options{
		Dir:    dir,
		Getenv: func(string) string { return "" },
		Config: &platform.Config{BaseURL: a.URL(), ClientID: a.ClientID(), ClientSecret: a.ClientSecret(),
			TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: 10 * time.Second},
		ClientOptions: platform.ClientOptions{TokenCacheDir: "-"},
		Stderr:        &syncBuffer{},
	})
	defer srv.Close()
	for i := 0; i < 2; i++ {
		cfg, cl, cfgErr, clErr := srv.cache.Resolve(ctx, "", "")
		if cfgErr != nil || clErr != nil || cl == nil || cfg.BaseURL != a.URL() {
			t.Fatalf("pinned: %v %v %v", cfg, cfgErr, clErr)
		}
	}
	cfg, _, err, _ := srv.cache.Resolve(ctx, "", "b.env")
	if err != nil || cfg.BaseURL != b.URL() {
		t.Errorf("env_file still reaches other stands: %v %v", cfg, err)
	}
	if n := srv.ClientBuilds(); n != 2 {
		t.Errorf("one pinned client and one for b.env: %d", n)
	}
}
