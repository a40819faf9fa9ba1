package deploy_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// gitIn runs git in dir and returns its trimmed output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitProject is the demo project in a fresh repository with one commit;
// it returns the project directory and the commit.
func gitProject(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := demoCopy(t, nil)
	root := filepath.Dir(filepath.Dir(dir))
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "config", "user.name", "Schema Test")
	gitIn(t, root, "config", "user.email", "schema@example.com")
	return dir, commitAll(t, dir, "the demo")
}

func commitAll(t *testing.T, dir, message string) string {
	t.Helper()
	gitIn(t, dir, "add", "-A", ".")
	gitIn(t, dir, "commit", "-q", "-m", message)
	return gitIn(t, dir, "rev-parse", "HEAD")
}

// edit replaces text in a file of the project, failing when it is not there.
func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

const catalogFile = "Основное/Задача.yaml"

// The demo catalog's attribute blocks, as edits take them out.
const (
	attrDone = "    -\n        Ид: 5d902147-ae6f-4a8b-9325-6b4f8e0a2d05\n        Имя: Выполнена\n        Тип: Булево\n"
	attrTerm = "    -\n        Ид: 4c8f1036-9d5e-4f7a-8214-5a3e7d9f1c04\n        Имя: Срок\n        Тип: Дата\n"
)

func liveBuilds(s *stand.Stand) int {
	n := 0
	for _, b := range s.Snapshot().Builds {
		if !b.Deleted {
			n++
		}
	}
	return n
}

func deployDemo(ops *deploy.Ops, demo stand.DemoInfo, dir string, mod func(*deploy.DeployOptions)) (*deploy.Report, error) {
	opts := deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
		ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: dir}
	if mod != nil {
		mod(&opts)
	}
	return ops.Deploy(context.Background(), opts)
}

func schemaCheck(r *deploy.Report) string {
	if r.SchemaCheck == nil {
		return "<nil>"
	}
	return *r.SchemaCheck
}

func strOf(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// demoStand is a stand with the demo seeded, and deploy operations against it.
func demoStand(t *testing.T) (*stand.Stand, stand.DemoInfo, *deploy.Ops, *lines) {
	t.Helper()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	return s, demo, ops, log
}

// TestSchemaGuardAcrossDeploys deploys a project under git again and
// again: the first deploy has no commit to compare with, then an added
// attribute is clean, a removed one warns, a shorter length is refused
// with nothing built or uploaded, and --allow-data-loss lets it through.
func TestSchemaGuardAcrossDeploys(t *testing.T) {
	s, demo, ops, log := demoStand(t)
	dir, c0 := gitProject(t)

	// The demo's builds were uploaded without a commit.
	r, err := deployDemo(ops, demo, dir, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != "skipped:no-commit-id" || r.SchemaCommit != nil || r.SchemaCommitSource != nil || !r.OK() {
		t.Fatalf("first deploy: %v\n%s", r.JSON(), log)
	}
	if !log.has("схеме данных пока не с чем сравнить (no-commit-id): коммит применённой сборки") {
		t.Errorf("no line about the skip:\n%s", log)
	}
	// The first deploy's skip is no alarm: not said again after the verdict.
	if log.has("не проверялась") || log.has("внимание") {
		t.Errorf("the first deploy's skip alarms:\n%s", log)
	}

	// An added attribute: clean, compared with the commit on the build card.
	edit(t, dir, catalogFile, attrDone, attrDone+"    -\n        Имя: Автор\n        Тип: Строка\n        Длина: 50\n")
	c1 := commitAll(t, dir, "an attribute added")
	log.all = nil
	if r, err = deployDemo(ops, demo, dir, nil); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != deploy.SchemaClean || strOf(r.SchemaCommit) != c0 || strOf(r.SchemaCommitSource) != "platform" ||
		len(r.SchemaWarnings) != 0 || !r.OK() {
		t.Fatalf("clean deploy: %v\n%s", r.JSON(), log)
	}
	if log.has("проверка схемы данных пропущена") || log.has("внимание") {
		t.Errorf("a clean check says nothing:\n%s", log)
	}

	// A removed attribute: a warning line, "warned", and the count after the verification.
	edit(t, dir, catalogFile, attrDone, "")
	c2 := commitAll(t, dir, "an attribute removed")
	log.all = nil
	if r, err = deployDemo(ops, demo, dir, nil); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	wantWarn := "Основное/Задача.yaml: реквизит Выполнена удалён"
	if schemaCheck(r) != deploy.SchemaWarned || strOf(r.SchemaCommit) != c1 || !slices.Equal(r.SchemaWarnings, []string{wantWarn}) || !r.OK() {
		t.Fatalf("warned deploy: %v\n%s", r.JSON(), log)
	}
	for _, want := range []string{"внимание: " + wantWarn + "; сервер применит это без вопросов",
		"применение удалило элементы с данными: 1"} {
		if !log.has(want) {
			t.Errorf("no line %q:\n%s", want, log)
		}
	}

	// A shorter length (and a removed attribute): refused, nothing built or uploaded.
	edit(t, dir, catalogFile, "Длина: 200", "Длина: 50")
	edit(t, dir, catalogFile, attrTerm, "")
	commitAll(t, dir, "a shorter description")
	builds, uploads := liveBuilds(s), len(ops.Registry.Read())
	log.all = nil
	_, err = deployDemo(ops, demo, dir, nil)
	if err == nil {
		t.Fatalf("a destructive change was not refused:\n%s", log)
	}
	wantRefusal := "ОТКАЗ: применение уничтожит данные – находок: 1: Основное/Задача.yaml: реквизит Описание – длина уменьшается с 200 до 50; ничего не собрано и не загружено"
	if !strings.HasPrefix(err.Error(), wantRefusal) || !strings.Contains(err.Error(), "--allow-data-loss") {
		t.Errorf("refusal %q", err)
	}
	if obj := platform.ErrorObject(err); obj.Str("error") != err.Error() {
		t.Errorf("error object %v", obj)
	}
	if liveBuilds(s) != builds || len(ops.Registry.Read()) != uploads || log.has("собран архив") {
		t.Errorf("a refused deploy built or uploaded:\n%s", log)
	}
	if !log.has("внимание: Основное/Задача.yaml: реквизит Срок удалён; сервер применит это без вопросов") {
		t.Errorf("the removal is told beside the refusal:\n%s", log)
	}

	// --allow-data-loss: a warning line and "allowed"; the findings are in schema-warnings.
	log.all = nil
	r, err = deployDemo(ops, demo, dir, func(o *deploy.DeployOptions) { o.AllowDataLoss = true })
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != deploy.SchemaAllowed || strOf(r.SchemaCommit) != c2 || len(r.SchemaWarnings) != 2 || !r.OK() ||
		!strings.Contains(r.SchemaWarnings[0], "длина уменьшается с 200 до 50") || !strings.Contains(r.SchemaWarnings[1], "Срок удалён") {
		t.Fatalf("allowed deploy: %v\n%s", r.JSON(), log)
	}
	if !log.has("внимание: --allow-data-loss – применение уничтожит данные, находок: 1: Основное/Задача.yaml: реквизит Описание") ||
		!log.has("применение удалило элементы с данными: 1") {
		t.Errorf("no allowed lines:\n%s", log)
	}
	js := r.JSON()
	if js.Value("schema-check") != "allowed" || js.Value("schema-commit-source") != "platform" {
		t.Errorf("report %v", js)
	}
}

// TestSchemaGuardCommitFromTheRegistry: a build card without a commit
// falls back to the registry line of the build, dirty included.
func TestSchemaGuardCommitFromTheRegistry(t *testing.T) {
	ctx := context.Background()
	_, demo, ops, log := demoStand(t)
	dir, c0 := gitProject(t)
	empty := ""
	r, err := deployDemo(ops, demo, dir, func(o *deploy.DeployOptions) { o.Commit = &empty })
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	// An older tool recorded the commit locally only.
	ops.Registry.Append(ctx, registry.Entry{AssemblyID: r.AssemblyID, ProjectID: demo.ProjectID, Version: *r.AssemblyVersion,
		Commit: c0, Dirty: registry.Bool(true), Command: registry.CommandDeploy, Route: registry.RouteProject})
	edit(t, dir, catalogFile, attrDone, "")
	commitAll(t, dir, "an attribute removed")
	log.all = nil
	if r, err = deployDemo(ops, demo, dir, nil); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != deploy.SchemaWarned || strOf(r.SchemaCommit) != c0 || strOf(r.SchemaCommitSource) != "registry" {
		t.Fatalf("report %v\n%s", r.JSON(), log)
	}
	for _, want := range []string{"– " + c0 + " – взят из локального реестра загрузок",
		"была собрана с незакоммиченными изменениями – их проверка схемы не видит"} {
		if !log.has(want) {
			t.Errorf("no line %q:\n%s", want, log)
		}
	}
}

// TestSchemaGuardSkips reaches each skip reason: the deploy goes on (or
// fails for its own reasons) and the report names the reason.
func TestSchemaGuardSkips(t *testing.T) {
	t.Run("no-project-dir", func(t *testing.T) {
		_, demo, ops, log := demoStand(t)
		_, err := deployDemo(ops, demo, t.TempDir(), nil)
		if err == nil || !strings.Contains(err.Error(), "каталог проекта не найден") {
			t.Fatalf("err %v", err)
		}
		if !log.has("проверка схемы данных пропущена (no-project-dir): каталог проекта не найден") {
			t.Errorf("no skip line:\n%s", log)
		}
	})

	t.Run("commit-unavailable", func(t *testing.T) {
		_, demo, ops, log := demoStand(t)
		dir, _ := gitProject(t)
		unknown := "0123456789abcdef0123456789abcdef01234567"
		if _, err := deployDemo(ops, demo, dir, func(o *deploy.DeployOptions) { o.Commit = &unknown }); err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		r, err := deployDemo(ops, demo, dir, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if schemaCheck(r) != "skipped:commit-unavailable" || strOf(r.SchemaCommit) != unknown || strOf(r.SchemaCommitSource) != "platform" {
			t.Fatalf("report %v\n%s", r.JSON(), log)
		}
		if !log.has("проверка схемы данных пропущена (commit-unavailable): коммит "+unknown+" здесь не прочитать") ||
			!log.has("схема данных в этот раз не проверялась (commit-unavailable)") {
			t.Errorf("lines:\n%s", log)
		}

		// Without git on PATH a commit that exists is unavailable too.
		t.Setenv("PATH", t.TempDir())
		r, err = deployDemo(ops, demo, dir, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if schemaCheck(r) != "skipped:commit-unavailable" {
			t.Fatalf("without git: %v", r.JSON())
		}
	})

	t.Run("applied-build-not-listed", func(t *testing.T) {
		s := standtest.Start(t, stand.Options{})
		demo, _ := s.SeedDemo()
		if err := s.SeedApps(1, 1); err != nil {
			t.Fatal(err)
		}
		bulk := ""
		for _, a := range s.Snapshot().Apps {
			if strings.HasPrefix(a.PublicationContext, "bulk-") {
				bulk = a.ID
			}
		}
		ops, log := opsFor(t, s, nil)
		// The bulk application runs a build of another project.
		r, err := deployDemo(ops, stand.DemoInfo{AppID: bulk, ProjectID: demo.ProjectID}, demoCopy(t, nil), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if schemaCheck(r) != "skipped:applied-build-not-listed" || r.SchemaCommit != nil {
			t.Fatalf("report %v\n%s", r.JSON(), log)
		}
		if !log.has("нет в списке сборок проекта " + demo.ProjectID) {
			t.Errorf("lines:\n%s", log)
		}
	})

	t.Run("read-failed", func(t *testing.T) {
		s, demo, ops, log := demoStand(t)
		// The guard's card read is the deploy's first request; it breaks.
		s.BreakNextResponses("GET", "/console/api/v2/applications/"+demo.AppID, 1)
		r, err := deployDemo(ops, demo, demoCopy(t, nil), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if schemaCheck(r) != "skipped:read-failed" || !r.OK() {
			t.Fatalf("report %v\n%s", r.JSON(), log)
		}
		if !log.has("проверка схемы данных пропущена (read-failed): ") {
			t.Errorf("lines:\n%s", log)
		}
	})

	t.Run("no-applied-build", func(t *testing.T) {
		s := standtest.Start(t, stand.Options{})
		ops, log := opsFor(t, s, nil)
		ctx := context.Background()
		// A project whose only build is gone, and an application made from
		// the project: an empty skeleton that runs no build.
		archive := stand.MakeArchive(stand.ArchiveSpec{Vendor: "Acme", Name: "Tasks", Version: "1.0-1",
			ID: "7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10", Presentation: "Задачи команды", Created: time.Now()})
		up, err := upload.Upload(ctx, ops.Client, upload.Options{File: "Tasks 1.0-1.xasm", Data: archive})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ops.Client.Delete(ctx, "/projects/"+up.ProjectID+"/assemblies/"+up.Version); err != nil {
			t.Fatal(err)
		}
		card, err := ops.Client.Post(ctx, "/applications", map[string]any{"display-name": "skeleton", "publication-context": "skeleton",
			"source": map[string]any{"type": "repository", "image-id": up.ProjectID}})
		if err != nil {
			t.Fatal(err)
		}
		app := card.(*jsonx.Object).Str("id")
		_, _ = deployDemo(ops, stand.DemoInfo{AppID: app, ProjectID: up.ProjectID}, demoCopy(t, nil), nil)
		if !log.has("схеме данных пока не с чем сравнить (no-applied-build): приложение " + app + " ещё не работает ни на одной сборке") {
			t.Errorf("lines:\n%s", log)
		}
	})

	t.Run("server starting", func(t *testing.T) {
		s, demo, ops, log := demoStand(t)
		// The guard's read waits out a starting server like any deploy request.
		ops.ServerStart = 10 * time.Second
		s.SetStarting(300 * time.Millisecond)
		r, err := deployDemo(ops, demo, demoCopy(t, nil), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if schemaCheck(r) != "skipped:no-commit-id" || !log.has("сервер 1С:Элемент запускается") || !log.has("консоль сервера поднялась") {
			t.Fatalf("report %v\n%s", r.JSON(), log)
		}
		// Without the wait the starting server ends the deploy: nothing is built.
		ops.ServerStart = 0
		builds := liveBuilds(s)
		s.SetStarting(time.Minute)
		_, err = deployDemo(ops, demo, demoCopy(t, nil), nil)
		s.SetStarting(0)
		if !platform.IsServerStarting(err) || liveBuilds(s) != builds {
			t.Fatalf("err %v", err)
		}
	})
}

// TestSchemaGuardExtension: an extension project is compared with the
// commit of the build its row names: none before the first apply, then
// the build found by version in the extension project's list.
func TestSchemaGuardExtension(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ext := testio.WriteProject(t, "Acme", "Extras", testio.ExtensionDescriptor, "метод Доп()\n;\n")
	os.WriteFile(filepath.Join(ext, "Основное", "Настройка.yaml"), []byte("ВидЭлемента: Справочник\nИд: e7e7e7e7-0000-4000-8000-0000000000e2\n"+
		"Имя: Настройка\nРеквизиты:\n    -\n        Имя: Значение\n        Тип: Строка\n        Длина: 100\n"), 0o644)
	root := filepath.Dir(filepath.Dir(ext))
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "config", "user.name", "Schema Test")
	gitIn(t, root, "config", "user.email", "schema@example.com")
	c0 := commitAll(t, ext, "extension")

	ops, log := opsFor(t, s, nil)
	// The first upload (without a project id) creates the extension project.
	built, err := assembly.Build(context.Background(), assembly.BuildOptions{ProjectDir: ext, OutputDir: t.TempDir(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	first, err := upload.Upload(context.Background(), ops.Client, upload.Options{File: built.File})
	if err != nil {
		t.Fatal(err)
	}
	opts := func(o *deploy.DeployOptions) { o.ProjectID = first.ProjectID; o.ProjectIDSource = deploy.SourceFlag }
	r, err := deployDemo(ops, demo, ext, opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != "skipped:no-applied-extension" || !log.has("у приложения ещё нет расширения Acme/Extras") {
		t.Fatalf("first extension deploy: %v\n%s", r.JSON(), log)
	}

	edit(t, ext, "Основное/Настройка.yaml", "Длина: 100", "Длина: 10")
	commitAll(t, ext, "shorter")
	if _, err = deployDemo(ops, demo, ext, opts); err == nil || !strings.Contains(err.Error(), "длина уменьшается с 100 до 10") {
		t.Fatalf("the extension's shrink was not refused: %v\n%s", err, log)
	}
	r, err = deployDemo(ops, demo, ext, func(o *deploy.DeployOptions) { opts(o); o.AllowDataLoss = true })
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != deploy.SchemaAllowed || strOf(r.SchemaCommit) != c0 || strOf(r.SchemaCommitSource) != "platform" {
		t.Fatalf("allowed extension deploy: %v\n%s", r.JSON(), log)
	}

	// An older server without Console API 2.1: the row cannot be read.
	s.SetAPI21(false)
	r, err = deployDemo(ops, demo, ext, opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if schemaCheck(r) != "skipped:read-failed" {
		t.Fatalf("no 2.1: %v\n%s", r.JSON(), log)
	}
}
