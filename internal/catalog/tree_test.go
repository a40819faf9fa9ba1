package catalog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// treeStand is a stand with the demo and a client for it.
func treeStand(t *testing.T) (*stand.Stand, stand.DemoInfo, *platform.Client) {
	t.Helper()

	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, Timeout: 10 * time.Second}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return s, demo, cl
}

// treeContext is a context of a face naming arguments as n does for cl,
// with its registry and current directory in dir.
func treeContext(n command.Naming, cl *platform.Client, dir string) *command.Context {
	return &command.Context{
		Naming:     n,
		Dir:        dir,
		Getenv:     func(k string) string { return map[string]string{"ELEMCTL_DATA_DIR": filepath.Join(dir, "data")}[k] },
		ClientFunc: func(context.Context) (*platform.Client, error) { return cl, nil },
		ConfigFunc: func(context.Context) (*platform.Config, error) { return cl.Config(), nil },
	}
}

func TestTaskListIsReadAgainWhenTheAnswerBreaks(t *testing.T) {
	s, _, cl := treeStand(t)
	noPause := func(context.Context) error { return nil }

	const path = "/console/api/v2/tasks/application-tasks"
	s.BreakNextResponses("GET", path, 2)
	tasks, err := cl.ListAppTasks(context.Background(), "", noPause)
	if err != nil {
		t.Fatalf("two broken answers of three: %v", err)
	}
	if len(tasks) == 0 {
		t.Fatal("no tasks after the retries")
	}
	s.BreakNextResponses("GET", path, 3)
	if _, err := cl.ListAppTasks(context.Background(), "", noPause); !platform.IsTransport(err) {
		t.Fatalf("three broken answers: want a network error, got %v", err)
	}
}

// One application's tasks are those of the whole list that name it, in
// the list's order; the others are passed over as the answer is read.
func TestOneApplicationsTasks(t *testing.T) {
	_, demo, cl := treeStand(t)
	ctx := context.Background()
	card, err := cl.GetApp(ctx, demo.AppID)
	if err != nil {
		t.Fatal(err)
	}
	build := card.Obj("source").Str("project-version-id")
	var made []string
	for _, name := range []string{"one", "other"} {
		app, err := cl.Post(ctx, "/applications", map[string]any{"display-name": name, "publication-context": name,
			"source": map[string]any{"type": "repository", "project-version-id": build}})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, app.(*jsonx.Object).Str("id"))
	}
	all, err := cl.ListAppTasks(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, task := range all {
		if task.Str("application-id") == made[0] {
			want = append(want, task.Str("id"))
		}
	}
	mine, err := cl.ListAppTasks(ctx, made[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, task := range mine {
		got = append(got, task.Str("id"))
	}
	if len(want) == 0 || len(want) == len(all) || !slices.Equal(got, want) {
		t.Fatalf("the tasks of %s: %v, want %v of the %d listed", made[0], got, want, len(all))
	}
}

// download runs an export's answer through an exportDownload as the client
// hands it over, and saves it.
func download(t *testing.T, dir, output string, answer []byte) (*savedExport, error) {
	t.Helper()
	dl, err := newExportDownload(&command.Context{Dir: dir}, output)
	if err != nil {
		t.Fatal(err)
	}
	defer dl.discard()
	if err := dl.read(bytes.NewReader(answer)); err != nil {
		t.Fatal(err)
	}
	return dl.save(context.Background(), func() string { return "app" }, func() string { return "the export of the project of the application a1" })
}

func TestSaveExportRefusesWhatIsNoArchive(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.xasm"), []byte("an earlier export"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := download(t, dir, "x.xasm", []byte("<html>\x00login</html>"))
	if err == nil || !strings.Contains(err.Error(), "(19 ") || !strings.Contains(err.Error(), "<html>.login") {
		t.Fatalf("error %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "x.xasm")); err != nil || string(data) != "an earlier export" {
		t.Fatalf("a refused export touched the file there: %q, %v", data, err)
	}
	// Into a folder not there yet: the folder goes with the refusal.
	if _, err := download(t, dir, "new/deeper/", []byte("<html></html>")); err == nil {
		t.Fatal("an answer that is no archive was saved")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("a refused export left %v", entries)
	}
}

func TestSaveExportNamesSafely(t *testing.T) {
	dir := t.TempDir()
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: "acme", Name: `a:b/c`, Version: "1.0-2"})
	saved, err := download(t, dir, "", data)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "a_b_c 1.0-2.xasm"); saved.file != want {
		t.Fatalf("file %q, want %q", saved.file, want)
	}
	if saved.manifest.Str("Version") != "1.0-2" || saved.size != int64(len(data)) {
		t.Fatalf("saved %+v", saved)
	}
	if got, err := os.ReadFile(saved.file); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the file holds %d bytes (%v), want the %d of the answer", len(got), err, len(data))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the folder holds %v, want the export alone", entries)
	}
}

func TestExportPlace(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "existing"), 0o755); err != nil {
		t.Fatal(err)
	}
	cc := &command.Context{Dir: dir}
	name := func() string { return "N 1.xasm" }
	for _, tc := range []struct{ output, want string }{
		{"", filepath.Join(dir, "N 1.xasm")},
		{"existing", filepath.Join(dir, "existing", "N 1.xasm")},
		{"new/", filepath.Join(dir, "new", "N 1.xasm")},
		{`win\`, filepath.Join(dir, `win\`, "N 1.xasm")},
		{"file.zip", filepath.Join(dir, "file.zip")},
	} {
		dir, file, err := exportPlace(cc, tc.output)
		if file == "" {
			file = name()
		}
		if got := filepath.Join(dir, file); err != nil || got != tc.want {
			t.Errorf("output %q: %q, %v; want %q", tc.output, got, err, tc.want)
		}
	}
}

func TestTokenAccessByUserID(t *testing.T) {
	s, demo, cl := treeStand(t)
	var userID string
	for _, u := range s.Snapshot().Users {
		if u.Login == "demo" {
			userID = u.ID
		}
	}
	cmd := Core().Tool("token_access")
	in := command.NewValues()
	in.Set("app-id", demo.AppID)
	in.Set("user", []any{userID})
	in.Set("enabled", true)
	out, err := runIn(context.Background(), treeContext(command.ToolNames, cl, t.TempDir()), cmd, in)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.(*jsonx.Object)
	if rep.Str("user-id") != userID || !rep.Bool("token-access-enabled") || !rep.Bool("changed") || rep.Str("user") != "demo" {
		t.Fatalf("report %v", rep)
	}
}

func TestMCPShapes(t *testing.T) {
	_, demo, cl := treeStand(t)
	ctx := context.Background()
	cc := treeContext(command.ToolNames, cl, t.TempDir())

	in := command.NewValues()
	in.Set("app-id", demo.AppName)
	out, err := runIn(ctx, cc, Core().Tool("list_app_users"), in)
	if err != nil {
		t.Fatal(err)
	}
	o := out.(*jsonx.Object)
	if got := strings.Join(o.Keys(), ","); got != "app-id,total,summary,users" || o.Str("app-id") != demo.AppID {
		t.Fatalf("list_app_users %v", o)
	}

	in = command.NewValues()
	in.Set("project-id", demo.ProjectID)
	in.Default("limit", 2)
	in.Default("brief", true)
	out, err = runIn(ctx, cc, Core().Tool("list_builds"), in)
	if err != nil {
		t.Fatal(err)
	}
	o = out.(*jsonx.Object)
	builds, _ := o.Value("builds").([]any)
	if got := strings.Join(o.Keys(), ","); got != "total,shown,summary,builds" || len(builds) != 2 {
		t.Fatalf("list_builds %v", o)
	}
	if n, _ := o.Int("total"); n != 3 || !strings.HasPrefix(o.Str("summary"), "показано 2 из 3") {
		t.Fatalf("list_builds counters %v", o)
	}
	if b := builds[0].(*jsonx.Object); !b.Has("branch-name-source") || b.Has("project-id") {
		t.Fatalf("list_builds brief card %v", b)
	}

	in = command.NewValues()
	in.Default("brief", true)
	out, err = runIn(ctx, cc, Core().Tool("list_projects"), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range out.([]any) {
		if got := strings.Join(p.(*jsonx.Object).Keys(), ","); got != "id,name,project-kind,space-id,application-count,deleted" {
			t.Fatalf("list_projects brief %s", got)
		}
	}

	in = command.NewValues()
	in.Set("app-id", demo.AppID)
	in.Set("output", "x.xasm")
	out, err = runIn(ctx, cc, Core().Tool("export_app"), in)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out.(*jsonx.Object).Keys(), ","); got != "file,size,manifest" {
		t.Fatalf("export_app %s", got)
	}

	in = command.NewValues()
	in.Set("app", demo.AppName)
	in.Set("self-registration", true)
	out, err = runIn(ctx, cc, Core().Tool("configure_user_list"), in)
	if err != nil {
		t.Fatal(err)
	}
	o = out.(*jsonx.Object)
	changed, _ := o.Value("changed").([]any)
	if o.Value("self-registration-enabled") != true || len(changed) != 1 || changed[0] != "self-registration" {
		t.Fatalf("configure_user_list %v", o)
	}
	in = command.NewValues()
	_, err = runIn(ctx, cc, Core().Tool("configure_user_list"), in)
	if !platform.IsConfig(err) {
		t.Fatalf("configure_user_list without a list: %v", err)
	}
}

func TestExportExtension(t *testing.T) {
	_, demo, cl := treeStand(t)
	ctx := context.Background()
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: "acme", Name: "CrmExtras", Version: "1.0-3", Kind: "Extension",
		ID: "0a1b2c3d-0000-4000-8000-0000000000e1", Presentation: "CRM extras"})
	up, err := upload.Upload(ctx, cl, upload.Options{File: "ext.xasm", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Post(ctx, "/applications/"+demo.AppID+"/project/update",
		jsonx.New("source", jsonx.New("type", "repository", "image-id", up.AssemblyID))); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		exts, err := ListAppExtensions(ctx, cl, demo.AppID)
		if err == nil && len(exts) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extension was not applied: %v %v", exts, err)
		}
		time.Sleep(5 * time.Millisecond)
	}

	dir := t.TempDir()
	in := command.NewValues()
	in.Set("app-id", demo.AppName)
	in.Set("extension", "crmextras")
	in.Set("output", "out/")
	out, err := runIn(ctx, treeContext(command.CLINames, cl, dir), Core().Path("apps", "export-extension"), in)
	if err != nil {
		t.Fatal(err)
	}
	o := out.(*jsonx.Object)
	want := "app-id,extension-id,project-id,vendor-name,project-name,assembly-version,enabled,file,size,manifest"
	if got := strings.Join(o.Keys(), ","); got != want {
		t.Fatalf("keys %s", got)
	}
	if o.Str("extension-id") != "0a1b2c3d-0000-4000-8000-0000000000e1" || o.Str("assembly-version") != "1.0-3" ||
		o.Str("file") != filepath.Join(dir, "out", "CrmExtras 1.0-3.xasm") || o.Obj("manifest").Str("ProjectKind") != "Extension" {
		t.Fatalf("answer %v", o)
	}
	if _, err := os.Stat(o.Str("file")); err != nil {
		t.Fatal(err)
	}

	// MCP: the same operation, the file first; an unknown extension names the applied ones
	in = command.NewValues()
	in.Set("app-id", demo.AppID)
	in.Set("extension", "CRM EXTRAS")
	in.Set("output", filepath.Join(dir, "mcp.xasm"))
	out, err = runIn(ctx, treeContext(command.ToolNames, cl, dir), Core().Tool("export_extension"), in)
	if err != nil {
		t.Fatal(err)
	}
	if keys := out.(*jsonx.Object).Keys(); keys[0] != "file" || slices.Contains(keys, "app-id") {
		t.Fatalf("MCP keys %v", keys)
	}
	in.Set("extension", "other")
	_, err = runIn(ctx, treeContext(command.ToolNames, cl, dir), Core().Tool("export_extension"), in)
	if err == nil || !strings.Contains(err.Error(), "acme/CrmExtras 1.0-3 (id 0a1b2c3d-0000-4000-8000-0000000000e1)") {
		t.Fatalf("unknown extension: %v", err)
	}
}

// runIn runs cmd in cc as a face of cc's naming does: fixed arguments set,
// the result rendered in that face's dialect.
func runIn(ctx context.Context, cc *command.Context, cmd *command.Command, in command.Values) (any, error) {
	args := cmd.Args
	if cc.Naming == command.ToolNames {
		args = cmd.MCPArgs()
	}
	for _, a := range args {
		if a.Fixed {
			in.Default(a.KeyName(), a.Default)
		}
	}
	cc.Command = cmd
	res, err := cmd.Run(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	d := command.ToolDialect
	if cc.Naming == command.CLINames {
		d = command.CLIDialect
	}
	return command.Render(res, d).Value, nil
}

// run calls a CLI command of the catalog with the given values.
func run(t *testing.T, cl *platform.Client, path string, vals map[string]any) (any, error) {
	t.Helper()
	cmd := Core().Path(strings.Fields(path)...)
	if cmd == nil {
		t.Fatalf("no command %q", path)
	}
	in := command.NewValues()
	for k, v := range vals {
		in.Set(k, v)
	}
	return runIn(context.Background(), treeContext(command.CLINames, cl, t.TempDir()), cmd, in)
}

func TestBranchLifecycle(t *testing.T) {
	s, demo, cl := treeStand(t)
	out, err := run(t, cl, "branches create", map[string]any{"name": "feature", "project-id": demo.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	id := out.(*jsonx.Object).Str("id")
	card, err := run(t, cl, "branches get", map[string]any{"branch-id": id})
	if err != nil {
		t.Fatal(err)
	}
	stamp := card.(*jsonx.Object).Str("version-stamp")

	// update binds the branch to an application given by name; the stamp moves
	out, err = run(t, cl, "branches update", map[string]any{"branch-id": id, "app-id": demo.AppName})
	if err != nil {
		t.Fatal(err)
	}
	card, _ = run(t, cl, "branches get", map[string]any{"branch-id": id})
	c := card.(*jsonx.Object)
	if c.Obj("application").Str("id") != demo.AppID || c.Str("version-stamp") == stamp {
		t.Fatalf("after update: %v (answer %v)", c, out)
	}
	var put string
	for _, call := range s.Calls() {
		if call.Method == "PUT" {
			put = call.Path
		}
	}
	if put != "/console/api/v2/branches/"+id {
		t.Fatalf("update sent %q", put)
	}

	// merge: the same write with the merge flag; no body means the fallback
	out, err = run(t, cl, "branches merge", map[string]any{"branch-id": id})
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := out.(*jsonx.Object); !ok || (o.Str("id") != id && !o.Bool("merged")) {
		t.Fatalf("merge answer %v", out)
	}
	out, err = run(t, cl, "branches delete", map[string]any{"branch-id": id})
	if err != nil {
		t.Fatal(err)
	}
	if o := out.(*jsonx.Object); !o.Bool("deleted") && o.Str("id") != id {
		t.Fatalf("delete answer %v", o)
	}
	if _, err := run(t, cl, "branches get", map[string]any{"branch-id": id}); !platform.IsAPIStatus(err, 404) {
		t.Fatalf("a deleted branch: %v", err)
	}
}

func TestDumpAndGroupTask(t *testing.T) {
	_, demo, cl := treeStand(t)
	out, err := run(t, cl, "dumps create", map[string]any{"app-id": demo.AppName, "description": "d"})
	if err != nil {
		t.Fatal(err)
	}
	dump := out.(*jsonx.Object).Str("id")
	out, err = run(t, cl, "dumps get", map[string]any{"app-id": demo.AppName, "dump-id": dump})
	if err != nil || out.(*jsonx.Object).Str("id") != dump {
		t.Fatalf("dump %v, %v", out, err)
	}
	out, err = run(t, cl, "tech set", map[string]any{"app-id": demo.AppID, "version": "8.1"})
	if err != nil {
		t.Fatal(err)
	}
	task := out.(*jsonx.Object).Str("id")
	out, err = run(t, cl, "tasks get-group", map[string]any{"task-id": task})
	if err != nil || out.(*jsonx.Object).Str("id") != task {
		t.Fatalf("group task %v, %v", out, err)
	}
}

func TestAmbiguousReferences(t *testing.T) {
	s, demo, cl := treeStand(t)
	ctx := context.Background()
	var build string
	for _, b := range s.Snapshot().Builds {
		if b.ProjectID == demo.ProjectID && b.Version == "1.0-2" {
			build = b.ID
		}
	}
	// Another live application shown under the demo's name.
	other, err := cl.Post(ctx, "/applications", jsonx.New("display-name", demo.AppName, "publication-context", "tasks-copy",
		"source", jsonx.New("type", "repository", "project-version-id", build)))
	if err != nil {
		t.Fatal(err)
	}
	otherID := other.(*jsonx.Object).Str("id")
	for _, path := range []string{"apps start", "apps stop", "apps delete", "apps users", "apps token-access", "apps export", "dumps create", "tech get"} {
		_, err := run(t, cl, path, map[string]any{"app-id": demo.AppName})
		if !platform.IsConfig(err) || !strings.Contains(err.Error(), demo.AppID) || !strings.Contains(err.Error(), otherID) {
			t.Errorf("%s: want the ambiguity naming both ids, got %v", path, err)
		}
	}
	if _, err := run(t, cl, "user-lists get", map[string]any{"app": demo.AppName}); !platform.IsConfig(err) {
		t.Errorf("user-lists get --app: %v", err)
	}

	// Two user lists under one presentation.
	for range 2 {
		if _, err := cl.Post(ctx, "/user-lists", jsonx.New("presentation", "Партнёры", "password-policy-enabled", false,
			"self-registration", jsonx.New("enabled", false, "phone-required", false, "email-required", false))); err != nil {
			t.Fatal(err)
		}
	}
	_, err = run(t, cl, "user-lists get", map[string]any{"list": "партнёры"})
	if !platform.IsConfig(err) || !strings.Contains(err.Error(), "неоднозначно") {
		t.Errorf("user list by an ambiguous presentation: %v", err)
	}

	// Two applied extensions with one project name (different vendors).
	for i, vendor := range []string{"acme", "globex"} {
		data := stand.MakeArchive(stand.ArchiveSpec{Vendor: vendor, Name: "Extras", Version: "1.0-1", Kind: "Extension",
			ID: fmt.Sprintf("0a1b2c3d-0000-4000-8000-00000000000%d", i)})
		up, err := upload.Upload(ctx, cl, upload.Options{File: vendor + ".xasm", Data: data})
		if err != nil {
			t.Fatal(err)
		}
		waitIdle(t, cl, demo.AppID)
		if _, err := cl.Post(ctx, "/applications/"+demo.AppID+"/project/update",
			jsonx.New("source", jsonx.New("type", "repository", "image-id", up.AssemblyID))); err != nil {
			t.Fatal(err)
		}
	}
	waitIdle(t, cl, demo.AppID)
	_, err = FindAppExtension(ctx, cl, demo.AppID, "extras")
	if !platform.IsConfig(err) || !strings.Contains(err.Error(), "acme/Extras") || !strings.Contains(err.Error(), "globex/Extras") {
		t.Errorf("ambiguous extension: %v", err)
	}
}

// waitIdle waits until an application is Running again.
func waitIdle(t *testing.T, cl *platform.Client, appID string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		card, err := cl.GetApp(context.Background(), appID)
		if err == nil && card.Str("status") == platform.StatusRunning {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("application %s did not settle: %v %v", appID, card, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// MCP refusals name the tool's parameters, not the CLI's flags.
func TestMCPRefusalsNameToolParameters(t *testing.T) {
	t.Parallel()
	_, _, cl := treeStand(t)
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	cc := treeContext(command.ToolNames, cl, t.TempDir())
	_, err := runIn(ctx, cc, Core().Tool("configure_user_list"), command.NewValues())
	if err == nil || !strings.Contains(err.Error(), "list_id") || strings.Contains(err.Error(), "--app") {
		t.Errorf("configure_user_list without a list: %v", err)
	}
	in := command.NewValues()
	in.Set("name", "nowhere")
	_, err = runIn(ctx, cc, Core().Tool("create_app"), in)
	if err == nil || !strings.Contains(err.Error(), "version_id") || strings.Contains(err.Error(), "--latest-build") {
		t.Errorf("create_app without a source: %v", err)
	}
}

// builds list asks for the build list and the project card, the card to
// tell an extension project (spec cli.md §2.16): two requests, no more.
func TestBuildsListReadsTheListAndTheCard(t *testing.T) {
	t.Parallel()
	s, demo, cl := treeStand(t)
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	count := func(run func()) []string {
		before := len(s.Calls())
		run()
		var paths []string
		for _, c := range s.Calls()[before:] {
			if strings.HasPrefix(c.Path, "/") && !strings.Contains(c.Path, "token") {
				paths = append(paths, c.Method+" "+c.Path)
			}
		}
		sort.Strings(paths)
		return paths
	}
	cc := treeContext(command.CLINames, cl, t.TempDir())
	var answer command.Answer
	n := count(func() {
		in := command.CLINames.Defaults(Core().Path("builds", "list"))
		in.Set("project-id", demo.ProjectID)
		cc.Command = Core().Path("builds", "list")
		res, err := cc.Command.Run(ctx, cc, in)
		if err != nil {
			t.Fatal(err)
		}
		answer = command.Render(res, command.CLIDialect)
	})
	want := []string{"GET /console/api/v2/projects/" + demo.ProjectID, "GET /console/api/v2/projects/" + demo.ProjectID + "/assemblies"}
	if strings.Join(n, "\n") != strings.Join(want, "\n") {
		t.Fatalf("builds list made the requests %q, want %q", n, want)
	}
	if len(answer.Notes) == 0 || strings.Contains(answer.Notes[len(answer.Notes)-1], "extension project") {
		t.Fatalf("an application project: %q", answer.Notes)
	}
}
