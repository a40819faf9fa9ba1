package assembly

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

var fixedNow = func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("MSK", 3*3600)) }

func ptr(s string) *string { return &s }

// buildIn builds the project at dir into a fresh output directory, with
// fixed time, commit and branch.
func buildIn(t *testing.T, dir string, opts BuildOptions) *BuildResult {
	t.Helper()
	opts.ProjectDir = dir
	if opts.OutputDir == "" {
		opts.OutputDir = t.TempDir()
	}
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	if opts.Getenv == nil {
		opts.Getenv = noEnv
	}
	if opts.Commit == nil {
		opts.Commit = ptr("c0ffee")
	}
	if opts.Branch == nil {
		opts.Branch = ptr("main")
	}
	r, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return r
}

// readZip returns the entries of a ZIP in order with their contents; it
// fails the test on any CRC or format error.
func readZip(t *testing.T, file string) ([]string, map[string][]byte) {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	contents := map[string][]byte{}
	for _, f := range zr.File {
		if f.Method != zip.Deflate {
			t.Errorf("%s: method %d, want deflate", f.Name, f.Method)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
		contents[f.Name] = data
	}
	return names, contents
}

func TestManifestBytes(t *testing.T) {
	created := time.Date(2025, 12, 31, 23, 59, 58, 0, time.UTC)
	cases := []struct {
		m    Manifest
		want string
	}{
		{Manifest{Kind: KindApplication, Vendor: "Acme", Name: "Tasks", Version: "1.0-3", Branch: "main", Commit: "abc123", Created: created},
			"ManifestVersion: 1.0\nProjectKind: Application\nVendor: Acme\nName: Tasks\nVersion: 1.0-3\nCreated: 2025.12.31 23:59:58\nBranchName: main\nCommitId: abc123\n"},
		{Manifest{Kind: KindLibrary, Vendor: "Acme", Name: "Lib", Version: "2.0-1", Created: created},
			"ManifestVersion: 1.0\nProjectKind: Library\nVendor: Acme\nName: Lib\nVersion: 2.0-1\nCreated: 2025.12.31 23:59:58\nBranchName:\nCommitId:\nRelease:\n"},
		{Manifest{Kind: KindExtension, Vendor: "Фирма", Name: "Расширение", Version: "1.0-1", Branch: "feature/x", Commit: "ff", Created: created.In(time.FixedZone("X", -5*3600))},
			"ManifestVersion: 1.1\nProjectKind: Extension\nVendor: Фирма\nName: Расширение\nVersion: 1.0-1\nCreated: 2025.12.31 23:59:58\nBranchName: feature/x\nCommitId: ff\n"},
		{Manifest{Kind: KindApplication, Vendor: "A", Name: "B", Version: "1.0-1\nRelease: x", Branch: "#1: fix", Created: created},
			"ManifestVersion: 1.0\nProjectKind: Application\nVendor: A\nName: B\nVersion: \"1.0-1\\nRelease: x\"\nCreated: 2025.12.31 23:59:58\nBranchName: \"#1: fix\"\nCommitId:\n"},
	}
	for _, c := range cases {
		if got := string(c.m.Bytes()); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
		back := parseFlat(string(c.m.Bytes())).fields
		if back.Str("Version") != c.m.Version || back.Str("BranchName") != c.m.Branch {
			t.Errorf("manifest does not read back: %q %q", back.Str("Version"), back.Str("BranchName"))
		}
	}
}

func TestBuildFileSelection(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "Acme", "Tasks")
	writeTree(t, dir, map[string]string{
		"Проект.yaml":          demoDescriptor,
		"README.md":            "readme",
		"notes.TXT":            "upper-case extension",
		"Makefile":             "skipped",
		"data.bin":             "skipped",
		"Основное/Задача.yaml": "ВидЭлемента: Справочник\n",
		"Основное/Задача.Объект.xbsl":   "метод А() ;",
		"Основное/Запрос.xbql":          "ВЫБРАТЬ 1",
		"Основное/style.CSS":            "a{}",
		"Основное/tool.exe":             "skipped",
		"Основное/Сервис.wsdl":          "<wsdl/>",
		"Основное/Types.xsd.2":          "<xsd/>",
		"Основное/Types.xsd.part":       "skipped",
		"Ресурсы/logo.bin":              "any type in Ресурсы",
		"Ресурсы/.env":                  "excluded even in Ресурсы",
		"Основное/Ресурсы/deep/x.dat":   "any depth",
		"Ресурсыx/a.bin":                "not Ресурсы",
		".gitignore":                    "excluded",
		".env":                          "excluded",
		"Основное/.DS_Store":            "excluded",
		"old build.XASM":                "excluded",
		"lib 1.0-1.xlib":                "excluded",
		".git/config":                   "excluded dir",
		".vscode/settings.json":         "hidden dir",
		"node_modules/x/index.js":       "excluded dir",
		"Основное/__pycache__/m.yaml":   "excluded dir",
		"Основное/.cache/m.yaml":        "hidden dir",
		"Основное/.venv/lib/x.py":       "excluded dir",
		"Основное/.claude/notes.md":     "excluded dir",
		"Основное/.github/workflow.yml": "excluded dir",
	})
	r := buildIn(t, dir, BuildOptions{})
	names, contents := readZip(t, r.File)
	want := []string{
		"Assembly.yaml",
		"Acme/Tasks/README.md",
		"Acme/Tasks/notes.TXT",
		"Acme/Tasks/Основное/Types.xsd.2",
		"Acme/Tasks/Основное/style.CSS",
		"Acme/Tasks/Основное/Задача.yaml",
		"Acme/Tasks/Основное/Задача.Объект.xbsl",
		"Acme/Tasks/Основное/Запрос.xbql",
		"Acme/Tasks/Основное/Ресурсы/deep/x.dat",
		"Acme/Tasks/Основное/Сервис.wsdl",
		"Acme/Tasks/Проект.yaml",
		"Acme/Tasks/Ресурсы/logo.bin",
	}
	if !slices.Equal(names, want) {
		t.Errorf("entries\n%q\nwant\n%q", names, want)
	}
	if string(contents["Acme/Tasks/Ресурсы/logo.bin"]) != "any type in Ресурсы" {
		t.Errorf("content: %q", contents["Acme/Tasks/Ресурсы/logo.bin"])
	}
	wantSkipped := []string{"Makefile", "data.bin", "Основное/Types.xsd.part", "Основное/tool.exe", "Ресурсыx/a.bin"}
	if !slices.Equal(r.SkippedFiles, wantSkipped) {
		t.Errorf("skipped %q, want %q", r.SkippedFiles, wantSkipped)
	}
	if !slices.Equal(r.Libraries, []string{}) || !slices.Equal(r.SOAPClientsWithoutDescription, []string{}) {
		t.Errorf("libraries %v, soap %v", r.Libraries, r.SOAPClientsWithoutDescription)
	}
}

func TestBuildResultAndJSON(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "Acme", "Tasks")
	writeTree(t, dir, map[string]string{"Проект.yaml": demoDescriptor, "a.bin": "x"})
	t.Setenv("GIT_CEILING_DIRECTORIES", repo)
	out := filepath.Join(t.TempDir(), "new", "dir")

	r, err := Build(context.Background(), BuildOptions{
		ProjectDir: repo, OutputDir: out, LastBuild: "2.5-41", Kind: "библиотека",
		Commit: ptr(""), Getenv: envOf(map[string]string{"BUILD_NUMBER": "9"}), Now: fixedNow,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.File != filepath.Join(out, "Tasks 2.5-42.xlib") || r.Version != "2.5-42" || r.VersionSource != "last-build" ||
		r.Kind != KindLibrary || r.Commit != "" || r.Branch != "" || r.Dirty != nil || r.ProjectDir != dir || r.RepoRoot != repo {
		t.Errorf("result %+v", r)
	}
	if st, err := os.Stat(r.File); err != nil || st.Size() != r.Size || st.Mode().Perm()&0o044 == 0 && os.PathSeparator == '/' {
		t.Errorf("archive file: %v %v", st, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(out, ".*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	b, err := jsonx.Marshal(r.JSON())
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "file": ` + string(must(jsonx.Compact(r.File))) + `,
  "name": "Tasks",
  "vendor": "Acme",
  "version": "2.5-42",
  "version-source": "last-build",
  "kind": "Library",
  "branch": "",
  "commit": "",
  "dirty": null,
  "skipped-files": [
    "a.bin"
  ]
}
`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	_, contents := readZip(t, r.File)
	if !strings.HasSuffix(string(contents["Assembly.yaml"]), "Created: 2025.03.04 02:06:07\nBranchName:\nCommitId:\nRelease:\n") {
		t.Errorf("manifest\n%s", contents["Assembly.yaml"])
	}

	// CI number, git for branch and commit, dirty from git.
	root := gitRepo(t, map[string]string{"Acme/Tasks/Проект.yaml": demoDescriptor})
	dir = filepath.Join(root, "Acme", "Tasks")
	writeTree(t, dir, map[string]string{"new.xbsl": "x"})
	r, err = Build(context.Background(), BuildOptions{ProjectDir: dir, OutputDir: t.TempDir(), Branch: ptr("given"),
		Getenv: envOf(map[string]string{"GITHUB_RUN_NUMBER": "77"})})
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != "2.5-77" || r.VersionSource != "GITHUB_RUN_NUMBER" || r.Branch != "given" ||
		r.Commit != git(t, root, "rev-parse", "HEAD") || r.Dirty == nil || !*r.Dirty ||
		!slices.Equal(r.DirtyFiles, []string{"Acme/Tasks/new.xbsl"}) || filepath.Base(r.File) != "Tasks 2.5-77.xasm" {
		t.Errorf("result %+v", r)
	}
	if v := r.JSON().Value("dirty"); v != true {
		t.Errorf("dirty %v", v)
	}

	// --require-clean refuses before anything is written.
	out = t.TempDir()
	_, err = Build(context.Background(), BuildOptions{ProjectDir: dir, OutputDir: out, RequireClean: true})
	if errKey(err) != "build.require-clean-dirty" {
		t.Errorf("require clean: %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("written despite --require-clean: %v", entries)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestBuildErrors(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"Acme/Wrong/Проект.yaml": demoDescriptor,
		"Acme/Tasks/Проект.yaml": demoDescriptor,
	})
	ctx := context.Background()
	cases := []struct {
		opts BuildOptions
		key  string
	}{
		{BuildOptions{ProjectDir: filepath.Join(repo, "Acme", "Wrong")}, "build.layout"},
		{BuildOptions{ProjectDir: filepath.Join(repo, "Acme", "Tasks"), Kind: "service"}, "build.unknown-kind"},
		{BuildOptions{ProjectDir: filepath.Join(repo, "nothing")}, "build.project-not-found"},
	}
	for _, c := range cases {
		c.opts.OutputDir = t.TempDir()
		if _, err := Build(ctx, c.opts); errKey(err) != c.key {
			t.Errorf("%+v: %v, want %s", c.opts, err, c.key)
		}
	}
	blocker := filepath.Join(t.TempDir(), "file")
	writeTree(t, filepath.Dir(blocker), map[string]string{"file": "x"})
	_, err := Build(ctx, BuildOptions{ProjectDir: filepath.Join(repo, "Acme", "Tasks"), OutputDir: filepath.Join(blocker, "sub")})
	if errKey(err) != "build.output-dir" {
		t.Errorf("output under a file: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	out := t.TempDir()
	if _, err := Build(cancelled, BuildOptions{ProjectDir: filepath.Join(repo, "Acme", "Tasks"), OutputDir: out}); err == nil {
		t.Errorf("a cancelled build succeeded")
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a cancelled build left %v", entries)
	}
}

func TestBuildLibraries(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"Acme/App/Проект.yaml":      "Имя: App\nПоставщик: Acme\nБиблиотеки:\n    -\n        Имя: LibA\n        Поставщик: Acme\n    -\n        Имя: Remote\n        Поставщик: Other\n    -\n        Имя: ..\n        Поставщик: Acme\n",
		"Acme/App/a.xbsl":           "a",
		"Acme/LibA/Project.yaml":    "Name: LibA\nVendor: Acme\nProjectKind: Library\nLibraries:\n  - Name: LibB\n    Vendor: Tools\n  - Name: App\n    Vendor: Acme\n",
		"Acme/LibA/Основное/x.xbsl": "x",
		"Acme/LibA/skip.exe":        "skip",
		"Tools/LibB/Проект.yaml":    "Имя: LibB\nПоставщик: Tools\nВидПроекта: Библиотека\nБиблиотеки:\n  - Имя: LibA\n    Поставщик: Acme\n",
		"Tools/LibB/b.xbsl":         "b",
		"Tools/Unused/Проект.yaml":  "Имя: Unused\nПоставщик: Tools\n",
		"Проект.yaml":               "Имя: Acme\nПоставщик: x\n", // what "Acme/.." would reach
	})
	r := buildIn(t, filepath.Join(repo, "Acme", "App"), BuildOptions{})
	names, _ := readZip(t, r.File)
	want := []string{
		"Assembly.yaml",
		"Acme/App/a.xbsl", "Acme/App/Проект.yaml",
		"Acme/LibA/Project.yaml", "Acme/LibA/Основное/x.xbsl",
		"Tools/LibB/b.xbsl", "Tools/LibB/Проект.yaml",
	}
	if !slices.Equal(names, want) {
		t.Errorf("entries\n%q\nwant\n%q", names, want)
	}
	if !slices.Equal(r.Libraries, []string{"Acme/LibA", "Tools/LibB"}) {
		t.Errorf("libraries %v", r.Libraries)
	}
	if !slices.Equal(r.SkippedFiles, []string{"Acme/LibA/skip.exe"}) {
		t.Errorf("skipped %v", r.SkippedFiles)
	}

	ext := buildIn(t, filepath.Join(repo, "Acme", "App"), BuildOptions{Kind: "extension"})
	if names, _ := readZip(t, ext.File); len(names) != len(want) || !strings.HasSuffix(ext.File, ".xasm") {
		t.Errorf("an extension packs its libraries too: %q", names)
	}

	lib := buildIn(t, filepath.Join(repo, "Acme", "LibA"), BuildOptions{})
	names, _ = readZip(t, lib.File)
	if !slices.Equal(names, []string{"Assembly.yaml", "Acme/LibA/Project.yaml", "Acme/LibA/Основное/x.xbsl"}) ||
		len(lib.Libraries) != 0 || !strings.HasSuffix(lib.File, "LibA 1.0-1.xlib") {
		t.Errorf("a library packs no dependencies: %q %v %s", names, lib.Libraries, lib.File)
	}
}

func TestBuildSOAPClients(t *testing.T) {
	repo := t.TempDir()
	padding := strings.Repeat("# padding line\n", 40)
	writeTree(t, repo, map[string]string{
		"Acme/App/Проект.yaml":           "Имя: App\nПоставщик: Acme\nБиблиотеки:\n  - Имя: Lib\n    Поставщик: Acme\n",
		"Acme/App/Обмен/Клиент.yaml":     "ВидЭлемента: КлиентSoapСервиса\nИмя: Клиент\n",
		"Acme/App/Обмен/Описан.yaml":     "ElementKind: SoapServiceClient\n",
		"Acme/App/Обмен/описан.WSDL.1":   "<wsdl/>",
		"Acme/App/Обмен/Поздно.yaml":     padding + "ВидЭлемента: КлиентSoapСервиса\n",
		"Acme/App/Обмен/Справочник.yaml": "ВидЭлемента: Справочник\n",
		"Acme/App/Обмен/Другой.wsdl":     "<wsdl/>", // describes nobody listed above
		"Acme/Lib/Проект.yaml":           "Имя: Lib\nПоставщик: Acme\n",
		"Acme/Lib/Sub/Client.yaml":       "ElementKind: SoapServiceClient\n",
	})
	r := buildIn(t, filepath.Join(repo, "Acme", "App"), BuildOptions{})
	want := []string{"Обмен/Клиент.yaml", "Acme/Lib/Sub/Client.yaml"} // in archive order
	if !slices.Equal(r.SOAPClientsWithoutDescription, want) {
		t.Errorf("got %q, want %q", r.SOAPClientsWithoutDescription, want)
	}
	if r.JSON().Has("soap-clients-without-description") {
		t.Errorf("the SOAP list is not part of the build answer")
	}
}

func TestBuildReproducible(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "Acme", "Tasks")
	rnd := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{"Проект.yaml": demoDescriptor}
	for i := range 40 {
		var b strings.Builder
		for range rnd.IntN(2000) {
			b.WriteString([]string{"метод ", "Задача ", "; ", "\n", "если ", "знч ", "x", "42 "}[rnd.IntN(8)])
		}
		files[filepath.ToSlash(filepath.Join("Подсистема"+string(rune('A'+i%5)), "файл"+string(rune('a'+i%26))+strings.Repeat("z", i/26)+".xbsl"))] = b.String()
	}
	writeTree(t, dir, files)
	defer func(was int64) { streamThreshold = was }(streamThreshold)
	streamThreshold = 64 << 10
	bigData := make([]byte, streamThreshold+12345)
	rand.NewChaCha8([32]byte{7}).Read(bigData[:len(bigData)/2]) // half noise, half zeros
	writeTree(t, dir, map[string]string{"Ресурсы/big.bin": string(bigData)})

	first := buildIn(t, dir, BuildOptions{})
	one, err := os.ReadFile(first.File)
	if err != nil {
		t.Fatal(err)
	}
	// New modification times and another output directory change nothing.
	later := time.Now().Add(time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		os.Chtimes(p, later, later)
		return nil
	})
	second := buildIn(t, dir, BuildOptions{})
	two, err := os.ReadFile(second.File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one, two) {
		t.Fatalf("two builds with the same time differ (%d and %d bytes)", len(one), len(two))
	}
	names, contents := readZip(t, second.File)
	if len(names) != len(files)+2 || !bytes.Equal(contents["Acme/Tasks/Ресурсы/big.bin"], bigData) {
		t.Errorf("entries %d, big file intact: %v", len(names), bytes.Equal(contents["Acme/Tasks/Ресурсы/big.bin"], bigData))
	}
	zr, _ := zip.OpenReader(second.File)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Modified.Year() != 1980 || f.Modified.Month() != 1 || f.Modified.Day() != 1 {
			t.Errorf("%s: time %v", f.Name, f.Modified)
		}
	}

	third := buildIn(t, dir, BuildOptions{Now: func() time.Time { return fixedNow().Add(time.Second) }})
	three, _ := os.ReadFile(third.File)
	if bytes.Equal(one, three) {
		t.Errorf("Created must reach the archive")
	}
}

func TestArchiveFileName(t *testing.T) {
	cases := []struct{ name, version, kind, want string }{
		{"Tasks", "1.0-1", KindApplication, "Tasks 1.0-1.xasm"},
		{"Tasks", "1.0-1", KindExtension, "Tasks 1.0-1.xasm"},
		{"Lib", "2.0-3", KindLibrary, "Lib 2.0-3.xlib"},
		{"Задачи", "../../x", KindApplication, "Задачи .._.._x.xasm"},
		{`a<b>c:d"e`, `f\g|h?i*j` + "\x01\x7f", KindApplication, "a_b_c_d_e f_g_h_i_j__.xasm"},
	}
	for _, c := range cases {
		if got := ArchiveFileName(c.name, c.version, c.kind); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inLang(t, i18n.EN, func(ctx context.Context) {
		if SkippedWarning(ctx, nil) != "" || DirtyWarning(ctx, []string{}) != "" || SOAPWarning(ctx, nil) != "" {
			t.Errorf("no files, no warning")
		}
		got := DirtyWarning(ctx, []string{"a", "b", "c", "d", "e", "f", "g"})
		if want := "warning: the build includes uncommitted changes (7): a, b, c, d, e and 2 more"; got != want {
			t.Errorf("got %q", got)
		}
		if got := SkippedWarning(ctx, []string{"x.exe"}); !strings.Contains(got, "(1): x.exe") {
			t.Errorf("got %q", got)
		}
		if got := SOAPWarning(ctx, []string{"a.yaml"}); !strings.Contains(got, "a.yaml") {
			t.Errorf("got %q", got)
		}
	})
	if got := DirtyWarning(ctx, []string{"a", "b", "c", "d", "e", "f"}); !strings.HasSuffix(got, "e и ещё 1") {
		t.Errorf("ru: %q", got)
	}
}
