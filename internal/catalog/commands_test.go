package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// lines collects progress lines.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, line)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}

func (l *lines) has(fragment string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.all {
		if strings.Contains(line, fragment) {
			return true
		}
	}
	return false
}

// face runs catalog commands the way a face does: a context with a log, a
// client of the stand, the environment of the call.
type face struct {
	t       *testing.T
	s       *stand.Stand
	env     map[string]string
	surface command.Surface
	log     *lines
	exit    int
	dir     string
}

func newFace(t *testing.T, s *stand.Stand) *face {
	return &face{t: t, s: s, surface: command.CLI, dir: t.TempDir(),
		env: map[string]string{"ELEMCTL_DATA_DIR": t.TempDir(), deploy.PollScaleVar: "0.02"}}
}

func (f *face) context() *command.Context {
	f.log = &lines{}
	getenv := func(name string) string { return f.env[name] }
	cc := &command.Context{Surface: f.surface, Getenv: getenv, Dir: f.dir, LogFunc: f.log.add, Version: "test"}
	cfg := &platform.Config{BaseURL: f.s.URL(), ClientID: f.s.ClientID(), ClientSecret: f.s.ClientSecret(),
		AppID: f.env["ELEMENT_APP_ID"], ProjectID: f.env["ELEMENT_PROJECT_ID"], SpaceID: f.env["ELEMENT_SPACE_ID"],
		TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: 10 * time.Second}
	cc.ConfigFunc = func(context.Context) (*platform.Config, error) { return cfg, nil }
	cc.ClientFunc = func(ctx context.Context) (*platform.Client, error) {
		return platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	}
	return cc
}

// run finds a command by CLI path ("apps apply") or, on MCP, by tool name.
func (f *face) run(name string, values map[string]any) (*jsonx.Object, error) {
	f.t.Helper()
	cat := catalog.Core()
	var cmd *command.Command
	if f.surface == command.MCP {
		cmd = cat.Tool(name)
	} else {
		cmd = cat.Path(strings.Fields(name)...)
	}
	if cmd == nil {
		f.t.Fatalf("no command %q", name)
	}
	naming, dialect := command.CLINames, command.CLIDialect
	if f.surface == command.MCP {
		naming, dialect = command.ToolNames, command.ToolDialect
	}
	in := naming.Defaults(cmd)
	for k, v := range values {
		in.Set(k, v)
	}
	cc := f.context()
	cc.Command, cc.Naming = cmd, naming
	result, err := cmd.Run(context.Background(), cc, in)
	if err != nil {
		return nil, err
	}
	answer := command.Render(result, dialect)
	f.exit = answer.ExitCode()
	o, _ := answer.Value.(*jsonx.Object)
	return o, nil
}

// appliedBuildID is the build an application's card names.
func appliedBuildID(t *testing.T, f *face, app string) string {
	t.Helper()
	card, err := f.run("apps get", map[string]any{"app-id": app})
	if err != nil {
		t.Fatal(err)
	}
	return card.Obj("source").Str("project-version-id")
}

func TestAppsApplyAndEnsureWithBuildIDs(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	f := newFace(t, s)
	f.env["ELEMENT_PROJECT_ID"] = demo.ProjectID
	running := appliedBuildID(t, f, demo.AppID)

	// A second build in the project, uploaded by the shared upload operation.
	dir := testio.DemoCopy(t, nil)
	res, err := f.run("build", map[string]any{"project-dir": dir, "output": t.TempDir(), "build-version": "1.0-9"})
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := f.context().Client(ctx)
	up, err := upload.Upload(context.Background(), cl, upload.Options{File: res.Str("file"), ProjectID: demo.ProjectID})
	if err != nil {
		t.Fatal(err)
	}

	// ensure: the application runs the requested build / another one.
	ans, err := f.run("apps ensure", map[string]any{"name": demo.AppName, "version-id": running, "verify": true})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Value("applied") != true || ans.Value("applied-version-id") != running || ans.Obj("verify") == nil || f.exit != 0 {
		t.Fatalf("ensure on the running build: %v (exit %d)", ans, f.exit)
	}
	if !f.log.has("уже работает на сборке " + running) {
		t.Errorf("log:\n%s", f.log)
	}
	ans, err = f.run("apps ensure", map[string]any{"name": demo.AppName, "version-id": up.AssemblyID})
	if err != nil || ans.Value("applied") != false || ans.Value("applied-version-id") != running || f.exit != 0 {
		t.Fatalf("ensure on another build: %v, %v (exit %d)", ans, err, f.exit)
	}

	// ensure --apply: applied and verified.
	ans, err = f.run("apps ensure", map[string]any{"name": demo.AppName, "version-id": up.AssemblyID, "apply": true})
	if err != nil || ans.Value("applied") != true || ans.Obj("verify").Value("ok") != true || f.exit != 0 {
		t.Fatalf("ensure --apply: %v, %v", ans, err)
	}

	// apps apply back to the first build, by name, positionally.
	ans, err = f.run("apps apply", map[string]any{"app-id": demo.AppName, "version-id": running})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Value("ok") != true || ans.Value("applied-version-id") != running || ans.Value("app-id") != demo.AppID {
		t.Fatalf("apps apply: %v", ans)
	}
	if !f.log.has("применение сборки " + running + " началось") {
		t.Errorf("log:\n%s", f.log)
	}

	// apply_build on MCP returns at once with the platform's answer; the
	// application id is used as given.
	f.surface = command.MCP
	ans, err = f.run("apply_build", map[string]any{"app-id": demo.AppID, "version-id": up.AssemblyID})
	if err != nil || ans.Str("id") != demo.AppID {
		t.Fatalf("apply_build: %v, %v", ans, err)
	}
	if _, err := f.run("apply_build", map[string]any{"app-id": demo.AppName, "version-id": up.AssemblyID}); err == nil {
		t.Error("apply_build resolved a name")
	}
	ans, err = f.run("verify_deploy", map[string]any{"app-id": demo.AppID, "version-id": up.AssemblyID})
	if err != nil {
		t.Fatal(err)
	}
	// Right after the call the apply may still run; verify_deploy reports
	// what the card says at that moment, and the report has every key.
	if len(ans.Keys()) != 27 {
		t.Fatalf("verify report keys %v", ans.Keys())
	}
}

func TestCreateFindsTheBuildsRealProject(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	f := newFace(t, s)
	// A build of another project.
	other := testio.WriteProject(t, "Globex", "Other", "Ид: 3d9f7a10-8e21-4c4b-9a55-1b2c3d4e5f99\nИмя: Other\nПоставщик: Globex\nПредставление: Другой\nЯзыкРазработки: Русский\n", "метод М()\n;\n")
	res, err := f.run("build", map[string]any{"project-dir": other, "output": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := f.context().Client(ctx)
	up, err := upload.Upload(context.Background(), cl, upload.Options{File: res.Str("file")})
	if err != nil {
		t.Fatal(err)
	}

	// The project from a flag is refused with the owner named.
	_, err = f.run("apps create", map[string]any{"name": "x1", "project-id": demo.ProjectID, "version-id": up.AssemblyID})
	if err == nil || !strings.Contains(err.Error(), "--project-id "+up.ProjectID) {
		t.Fatalf("flag project: %v", err)
	}
	// The project from the environment yields to the build's own.
	f.env["ELEMENT_PROJECT_ID"] = demo.ProjectID
	ans, err := f.run("apps create", map[string]any{"name": "x2", "version-id": up.AssemblyID, "wait": true})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Obj("verify").Value("ok") != true || f.exit != 0 {
		t.Fatalf("create: %v", ans)
	}
	if !f.log.has("принадлежит проекту «Другой» (" + up.ProjectID + "), сверяю с ним") {
		t.Errorf("log:\n%s", f.log)
	}

	// MCP create_app without version_id takes the project's newest build and
	// verifies with verify.
	f.surface = command.MCP
	ans, err = f.run("create_app", map[string]any{"name": "x3", "project-id": demo.ProjectID, "verify": true, "development-mode": false})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Value("development-mode") != false || ans.Obj("verify").Value("applied-version") != "1.0-3" {
		t.Fatalf("create_app: %v", ans)
	}
}

func TestExtensionDeployVerifiedThroughItsRow(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	f := newFace(t, s)
	f.env["ELEMENT_APP_ID"] = demo.AppID
	ext := testio.WriteProject(t, "Acme", "Extras", testio.ExtensionDescriptor, "метод Доп()\n;\n")
	// The first upload (without a project id) creates the extension project.
	res, err := f.run("build", map[string]any{"project-dir": ext, "output": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := f.context().Client(ctx)
	first, err := upload.Upload(context.Background(), cl, upload.Options{File: res.Str("file")})
	if err != nil {
		t.Fatal(err)
	}
	extProject := first.ProjectID

	ans, err := f.run("deploy", map[string]any{"project-dir": ext, "project-id": extProject})
	if err != nil {
		t.Fatalf("%v\n%s", err, f.log)
	}
	if ans.Value("ok") != true || ans.Value("applied") != true || ans.Value("extension-project-id") != extProject ||
		ans.Obj("extension").Value("assembly-version") != ans.Value("assembly-version") {
		t.Fatalf("extension deploy: %v\n%s", ans, f.log)
	}
	if !f.log.has("расширение приложения работает на версии " + ans.Str("assembly-version")) {
		t.Errorf("no evidence line:\n%s", f.log)
	}
	// The card still names the application's own build.
	if ans.Value("applied-version-id") != ans.Value("assembly-id") || appliedBuildID(t, f, demo.AppID) == ans.Str("assembly-id") {
		t.Errorf("report %v", ans)
	}
	good := ans.Str("assembly-id")

	// verify-deploy learns by itself that the build is an extension's.
	ans, err = f.run("verify-deploy", map[string]any{"version-id": good})
	if err != nil || ans.Value("applied") != true || ans.Value("extension-project-id") != extProject {
		t.Fatalf("verify-deploy of the extension build: %v, %v", ans, err)
	}
	// ensure with the extension's build: applied, with the row.
	ans, err = f.run("apps ensure", map[string]any{"name": demo.AppName, "version-id": good})
	if err != nil || ans.Value("applied") != true || ans.Obj("extension") == nil {
		t.Fatalf("ensure: %v, %v", ans, err)
	}

	// A broken extension build: the row keeps the previous version.
	os.WriteFile(filepath.Join(ext, "Основное", "Модуль.xbsl"), []byte("#error сломано\n"), 0o644)
	ans, err = f.run("deploy", map[string]any{"project-dir": ext, "project-id": extProject})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Value("ok") != false || ans.Value("applied") != false || ans.Value("applied-version-id") != good ||
		!strings.Contains(strings.Join(toStrings(ans.Value("problems")), "\n"), "расширение Acme/Extras работает на сборке") {
		t.Fatalf("broken extension deploy: %v", ans)
	}
	if f.exit != 1 {
		t.Errorf("exit %d", f.exit)
	}

	// An older server without Console API 2.1 cannot tell: applied null, not ok.
	os.WriteFile(filepath.Join(ext, "Основное", "Модуль.xbsl"), []byte("метод Доп()\n;\n"), 0o644)
	s.SetAPI21(false)
	ans, err = f.run("deploy", map[string]any{"project-dir": ext, "project-id": extProject})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Value("applied") != nil || ans.Value("ok") != false ||
		!strings.Contains(strings.Join(toStrings(ans.Value("problems")), "\n"), "нельзя проверить") {
		t.Fatalf("no 2.1: %v", ans)
	}
}

func TestDeployEndingInStatusErrorFailsWithTheServerLogHint(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	s.SetApplyLeavesError(true)
	f := newFace(t, s)
	f.env["ELEMENT_APP_ID"], f.env["ELEMENT_PROJECT_ID"] = demo.AppID, demo.ProjectID
	// A refusal without a located error (no development language).
	dir := testio.WriteProject(t, "Acme", "Tasks", "Ид: 7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10\nИмя: Tasks\nПоставщик: Acme\nПредставление: Задачи команды\n", "метод М()\n;\n")
	_, err = f.run("deploy", map[string]any{"project-dir": dir})
	var ae *platform.APIError
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "в статусе Error") || !strings.Contains(ae.Hint, "server.log") ||
		!strings.Contains(ae.Message, "server.log") {
		t.Fatalf("want the Error status with the server-log hint, got %#v", err)
	}
	// With a located compile error the text is enough: no hint.
	_, err = f.run("deploy", map[string]any{"project-dir": testio.DemoCopy(t, testio.BreakDemoSource)})
	if !errors.As(err, &ae) || ae.Hint != "" || !strings.Contains(ae.Message, "Задачи.xbsl [") {
		t.Fatalf("want the located error without a hint, got %#v", err)
	}
}

func toStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
