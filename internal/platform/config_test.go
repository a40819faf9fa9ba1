package platform

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func envMap(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigPrecedence(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, ".env", "ELEMENT_BASE_URL=https://file.example/\nELEMENT_CLIENT_ID=file-id\nELEMENT_CLIENT_SECRET=file-secret\nELEMENT_APP_ID=file-app\nELEMENT_PROJECT_ID=file-project\n")
	env := map[string]string{"ELEMENT_CLIENT_ID": "env-id", "ELEMENT_APP_ID": ""}
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(env), Overrides: Overrides{ClientSecret: "flag-secret", Timeout: 2.5}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != "https://file.example" {
		t.Errorf("base URL from the file, trailing slash stripped: %q", cfg.BaseURL)
	}
	if cfg.ClientID != "env-id" {
		t.Errorf("the environment wins over the file: %q", cfg.ClientID)
	}
	if cfg.ClientSecret != "flag-secret" {
		t.Errorf("a flag wins over everything: %q", cfg.ClientSecret)
	}
	if cfg.AppID != "file-app" {
		t.Errorf("an empty environment variable falls through to the file: %q", cfg.AppID)
	}
	if cfg.Timeout != 2500*time.Millisecond {
		t.Errorf("timeout %v", cfg.Timeout)
	}
	if cfg.EnvFile != filepath.Join(dir, ".env") {
		t.Errorf("env file %q", cfg.EnvFile)
	}
}

func TestConfigExplicitEnvFileMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	ctx = i18n.WithLang(ctx, i18n.EN)
	_, err := LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: "stands/a.env", Getenv: envMap(nil)})
	if err == nil || !IsConfig(err) {
		t.Fatalf("want a config error, got %v", err)
	}
	for _, want := range []string{".env file not found: stands/a.env", filepath.Join(dir, "stands", "a.env"), "current directory " + dir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	ctx = i18n.WithLang(ctx, i18n.RU)
	_, err = LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: "x.env", Getenv: envMap(nil)})
	if err == nil || !strings.Contains(err.Error(), "не найден") {
		t.Fatalf("ru message: %v", err)
	}
}

func TestConfigWithoutFileIsFine(t *testing.T) {
	ctx := context.Background()
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: t.TempDir(), Getenv: envMap(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Require(ctx); err == nil || !strings.Contains(err.Error(), "ELEMENT_BASE_URL, ELEMENT_CLIENT_ID, ELEMENT_CLIENT_SECRET") {
		t.Fatalf("Require names the missing variables: %v", err)
	}
}

func TestConfigStrictBooleans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, v := range []string{"1", "TRUE", "yes", "On"} {
		cfg, err := LoadConfig(ctx, LoadOptions{Dir: t.TempDir(), Getenv: envMap(map[string]string{"ELEMENT_TLS_VERIFY": v})})
		if err != nil || !cfg.TLSVerify {
			t.Errorf("%q: %v %v", v, cfg, err)
		}
	}
	for _, v := range []string{"0", "False", "no", "OFF"} {
		cfg, err := LoadConfig(ctx, LoadOptions{Dir: t.TempDir(), Getenv: envMap(map[string]string{"ELEMENT_TLS_STRICT": v})})
		if err != nil || cfg.TLSStrict {
			t.Errorf("%q: %v %v", v, cfg, err)
		}
	}
	dir := t.TempDir()
	writeFile(t, dir, ".env", "ELEMENT_TLS_VERIFY=maybe\n")
	ctx = i18n.WithLang(ctx, i18n.EN)
	_, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)})
	if err == nil || err.Error() != "invalid boolean value ELEMENT_TLS_VERIFY='maybe'; use true or false" {
		t.Fatalf("got %v", err)
	}
}

func TestConfigNoProxyIsPermissiveAndReadFromTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, ".env", "ELEMCTL_NO_PROXY=whatever\n")
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)})
	if err != nil || !cfg.NoProxy {
		t.Fatalf("no-proxy from the file: %v %v", cfg.NoProxy, err)
	}
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "No": false, "1": true, "off": true} {
		if PermissiveBool(v) != want {
			t.Errorf("PermissiveBool(%q) != %v", v, want)
		}
	}
}

func TestConfigRejectsBaseURLWithoutScheme(t *testing.T) {
	ctx := context.Background()
	_, err := LoadConfig(ctx, LoadOptions{Dir: t.TempDir(), Getenv: envMap(map[string]string{"ELEMENT_BASE_URL": "1cmycloud.com"})})
	if err == nil || !IsConfig(err) {
		t.Fatalf("got %v", err)
	}
}

func TestIsLocalHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "api.localhost": true, "stand.local": true, "box.lan": true, "x.localdomain": true,
		"svc.internal": true, "demo.test": true, "127.0.0.1": true, "10.1.2.3": true, "192.168.0.5": true,
		"[::1]": true, "169.254.1.1": true, "fe80::1": true,
		"1cmycloud.com": false, "8.8.8.8": false, "example.org": false, "testing.com": false,
	} {
		if got := IsLocalHost(host); got != want {
			t.Errorf("IsLocalHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestNormalizeList(t *testing.T) {
	decode := func(s string) any { return decodeBody([]byte(s)) }
	cases := []struct {
		body string
		keys []string
		want int
	}{
		{`[{"id":"a"},{"id":"b"},3]`, nil, 2},
		{`{"items":[{"id":"a"}]}`, nil, 1},
		{`{"applications":[{"id":"a"},{"id":"b"}]}`, []string{"applications"}, 2},
		{`{"applications":"x","items":[{"id":"a"}]}`, []string{"applications"}, 1},
		{`{"other":[{"id":"a"}]}`, []string{"applications"}, 0},
		{`null`, nil, 0},
		{`"text"`, nil, 0},
	}
	for _, c := range cases {
		if got := NormalizeList(decode(c.body), c.keys...); len(got) != c.want {
			t.Errorf("%s: %d items, want %d", c.body, len(got), c.want)
		}
	}
}

func TestConfigReadsANotepadUnicodeEnvFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), encodeUTF16(notepadEnv, binary.LittleEndian, true), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Require(ctx); err != nil {
		t.Fatalf("a UTF-16 .env must be read, not reported as parameters not set: %v", err)
	}
	if cfg.BaseURL != "https://stand.example" || cfg.ClientSecret != "s e c r e t" || cfg.AppID != "Задачи" {
		t.Errorf("config %+v", cfg)
	}
}

func TestConfigRefusesAUTF32EnvFileNamingTheEncoding(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	p := filepath.Join(dir, "utf32.env")
	if err := os.WriteFile(p, []byte{0xFF, 0xFE, 0, 0, 'A', 0, 0, 0}, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: p, Getenv: envMap(nil)})
	if err == nil || !IsConfig(err) {
		t.Fatalf("want a config error, got %v", err)
	}
	for _, want := range []string{p, "UTF-32 LE", "save it as UTF-8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "not set") {
		t.Errorf("an encoding problem reported as missing parameters: %v", err)
	}
}

// The README's own example once carried a comment after a value: the .env
// grammar has none, so the comment became part of the application's name.
// Such a line, and a key set twice, are said – for elemctl's variables
// only, and without their values (a secret may be among them).
func TestConfigWarnsOfInlineCommentsAndDuplicates(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	p := writeFile(t, dir, ".env", "ELEMENT_BASE_URL=https://stand.example\n"+
		"ELEMENT_CLIENT_SECRET=top-secret #1\n"+
		"ELEMENT_APP_ID=crm-test          # optional defaults\n"+
		"ELEMENT_PROJECT_ID=\"p # quoted\"\n"+
		"COMPOSE_PROJECT=web # another tool's grammar\n"+
		"ELEMENT_APP_ID=crm\n"+
		"OTHER=1\nOTHER=2\n")
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"warning: " + p + ", line 2: the value of ELEMENT_CLIENT_SECRET holds \" #\"",
		"warning: " + p + ", line 3: the value of ELEMENT_APP_ID holds \" #\" – .env has no comments after a value, everything after = is the value; move the comment to a line of its own",
		"warning: " + p + ", line 6: ELEMENT_APP_ID is set on line 3 already; the last value wins (line 6)",
	}
	if len(cfg.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", cfg.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(cfg.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to start with %q", i, cfg.Warnings[i], w)
		}
		if strings.Contains(cfg.Warnings[i], "top-secret") {
			t.Errorf("a warning shows a value: %q", cfg.Warnings[i])
		}
	}
	if cfg.AppID != "crm" || cfg.ProjectID != "p # quoted" {
		t.Errorf("the last value wins and a quoted # is the value's: %q, %q", cfg.AppID, cfg.ProjectID)
	}
	// The client says them, once, where the transport's warnings go.
	var said []string
	cfg.ClientID = "id"
	cl, err := NewClient(ctx, cfg, ClientOptions{Warn: func(s string) { said = append(said, s) }, TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	cl.Close()
	if strings.Join(said, "\n") != strings.Join(cfg.Warnings, "\n") {
		t.Errorf("the client said %q", said)
	}
}

func TestConfigNamesWhereTheEnvFileWasLookedFor(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	cfg, err := LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)})
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.Require(ctx)
	if err == nil || !strings.Contains(err.Error(), "there is no .env in the current directory "+dir+": elemctl reads the .env of the directory it runs in, not the project's") {
		t.Errorf("Require: %v", err)
	}
	p := writeFile(t, dir, ".env", "ELEMENT_BASE_URL=https://stand.example\n")
	if cfg, err = LoadConfig(ctx, LoadOptions{Dir: dir, Getenv: envMap(nil)}); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Require(ctx); err == nil || !strings.Contains(err.Error(), "ELEMENT_CLIENT_ID, ELEMENT_CLIENT_SECRET (environment variables, the .env file or CLI flags; the file read was "+p+")") {
		t.Errorf("Require: %v", err)
	}
}

func TestConfigEnvFileThatIsADirectory(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "stand"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: "stand", Getenv: envMap(nil)})
	if err == nil || !IsConfig(err) || err.Error() != "--env-file stand is a directory ("+filepath.Join(dir, "stand")+"), not a file: name the .env file itself" {
		t.Errorf("got %v", err)
	}
	inside := writeFile(t, filepath.Join(dir, "stand"), ".env", "A=1\n")
	_, err = LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: "stand", Getenv: envMap(nil)})
	if err == nil || !strings.HasSuffix(err.Error(), "name the file itself, e.g. --env-file "+inside) {
		t.Errorf("got %v", err)
	}
}

func TestConfigNamesTheCodePageOfAnEnvFile(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	// ELEMENT_APP_ID=Задачи as Notepad's "ANSI" writes it on a Russian Windows
	p := writeFile(t, dir, "ansi.env", "ELEMENT_APP_ID=\xc7\xe0\xe4\xe0\xf7\xe8\r\n")
	_, err := LoadConfig(ctx, LoadOptions{Dir: dir, EnvFile: p, Getenv: envMap(nil)})
	if err == nil || !strings.Contains(err.Error(), p+" is saved in Windows-1251 (ANSI), and elemctl reads UTF-8 and UTF-16: save it as UTF-8") {
		t.Errorf("got %v", err)
	}
}
