package assembly

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

type zipFile struct{ name, data string }

// makeZip writes files into a ZIP in memory, names as given (hostile ones too).
func makeZip(t testing.TB, files ...zipFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f.data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "build.xasm")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const testManifest = "ManifestVersion: 1.0\nProjectKind: Application\nVendor: Acme\nName: Tasks\nVersion: 1.0-3\nCreated: 2025.01.01 00:00:00\nBranchName: main\nCommitId: abc\n"

func TestInspectDemoProject(t *testing.T) {
	ctx := context.Background()
	r := buildIn(t, filepath.Join("..", "..", "..", "examples", "demo"), BuildOptions{})
	got, err := Inspect(ctx, r.File, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := jsonx.Marshal(got)
	want := `{
  "file": ` + string(must(jsonx.Compact(r.File))) + `,
  "manifest": {
    "ManifestVersion": "1.0",
    "ProjectKind": "Application",
    "Vendor": "Acme",
    "Name": "Tasks",
    "Version": "1.0-1",
    "Created": "2025.03.04 02:06:07",
    "BranchName": "main",
    "CommitId": "c0ffee"
  },
  "kind": "Application",
  "vendor": "Acme",
  "name": "Tasks",
  "version": "1.0-1",
  "compatibility": "8.0",
  "representation": "Задачи команды",
  "project": {
    "Ид": "7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10",
    "Имя": "Tasks",
    "Поставщик": "Acme",
    "Версия": "1.0",
    "Представление": "Задачи команды",
    "ВидПроекта": "Приложение",
    "ЯзыкРазработки": "Русский",
    "ЯзыкПоУмолчанию": "Русский",
    "ЯзыкиЛокализации": "",
    "РежимСовместимости": "8.0"
  },
  "subsystems": [
    {
      "name": "Основное",
      "qualified": "Acme::Tasks::Основное",
      "packages": [],
      "global_types": 1
    }
  ],
  "global_types": [
    {
      "name": "Задача",
      "kind": "Справочник",
      "scope": "Глобально",
      "subsystem": "Основное",
      "namespace": "Acme::Tasks::Основное",
      "qualified": "Acme::Tasks::Основное::Задача",
      "entry": "Acme/Tasks/Основное/Задача.yaml"
    }
  ]
}
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestInspectElements(t *testing.T) {
	ctx := context.Background()
	data := makeZip(t,
		zipFile{"Assembly.yaml", testManifest},
		zipFile{"Acme/", ""},
		zipFile{"Acme/Tasks/", ""},
		zipFile{"Acme/Tasks/Project.yaml", "Name: Tasks\nVendor: Acme\nPresentation: \"Tasks\"\nCompatibilityMode: 8.1\n"},
		zipFile{"Acme/Tasks/Root.yaml", "ElementKind: Catalog\nVisibilityScope: Global\n"}, // root level: not an element
		zipFile{"Acme/Tasks/Sales/Subsystem.yaml", "ElementKind: Subsystem\nName: Sales\n"},
		zipFile{"Acme/Tasks/Sales/Order.yaml", "ElementKind: Document\nName: Order\nVisibilityScope: Global\n"},
		zipFile{"Acme/Tasks/Sales/Api/V1/Client.yaml", "ElementKind: HttpService\nVisibilityScope: Global\n"},
		zipFile{"Acme/Tasks/Sales/Api/Form.yaml", "ElementKind: Form\n"},
		zipFile{"Acme/Tasks/Sales/Notes.yaml", "Title: not an element\n"},
		zipFile{"Acme/Tasks/Sales/Order.xbsl", "method A() ;"},
		zipFile{"Acme/Tasks/Склад/Подсистема.yaml", "ВидЭлемента: Подсистема\n"},
		zipFile{"Acme/Tasks/Склад/Товар.yaml", "ВидЭлемента: Справочник\nИмя: Товар\nОбластьВидимости: Глобально\n"},
		zipFile{"Acme/Tasks/Empty/Подсистема.yaml", "ВидЭлемента: Подсистема\n"},
		zipFile{"Acme/Tasks/Склад/Остатки.yaml", "ВидЭлемента: РегистрНакопления\n"},
		zipFile{"Other/Lib/Shared/Type.yaml", "ElementKind: Structure\nVisibilityScope: Global\n"}, // a library's, not the project's
	)
	a, err := OpenArchive(ctx, "mem.xasm", data)
	if err != nil {
		t.Fatal(err)
	}
	elements, subs, err := a.Elements(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range elements {
		got = append(got, strings.Join([]string{e.Name, e.Kind, e.Scope, e.Subsystem, e.Qualified, e.Entry}, "|"))
	}
	want := []string{
		"Client|HttpService|Global|Sales|Acme::Tasks::Sales::Api::V1::Client|Acme/Tasks/Sales/Api/V1/Client.yaml",
		"Form|Form|InSubsystem|Sales|Acme::Tasks::Sales::Api::Form|Acme/Tasks/Sales/Api/Form.yaml",
		"Order|Document|Global|Sales|Acme::Tasks::Sales::Order|Acme/Tasks/Sales/Order.yaml",
		"Остатки|РегистрНакопления|ВПодсистеме|Склад|Acme::Tasks::Склад::Остатки|Acme/Tasks/Склад/Остатки.yaml",
		"Товар|Справочник|Глобально|Склад|Acme::Tasks::Склад::Товар|Acme/Tasks/Склад/Товар.yaml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("elements\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var gotSubs []string
	for _, s := range subs {
		gotSubs = append(gotSubs, s.Name+"|"+s.Qualified+"|"+strings.Join(s.Packages, ",")+"|"+string(rune('0'+s.Global)))
	}
	wantSubs := []string{"Empty|Acme::Tasks::Empty||0", "Sales|Acme::Tasks::Sales|Api,Api::V1|2", "Склад|Acme::Tasks::Склад||1"}
	if !slices.Equal(gotSubs, wantSubs) {
		t.Errorf("subsystems %q, want %q", gotSubs, wantSubs)
	}

	out, err := Inspect(ctx, writeFile(t, data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if keys := strings.Join(out.Keys(), ","); keys != "file,manifest,kind,vendor,name,version,compatibility,representation,project,subsystems,global_types" {
		t.Errorf("keys %s", keys)
	}
	if out.Str("compatibility") != "8.1" || out.Str("representation") != "Tasks" || len(out.Value("global_types").([]any)) != 3 {
		t.Errorf("inspect %v", out)
	}
	if g := out.Value("global_types").([]any)[0].(*jsonx.Object); strings.Join(g.Keys(), ",") != "name,kind,scope,subsystem,namespace,qualified,entry" {
		t.Errorf("global type keys %v", g.Keys())
	}
}

func TestArchiveAccessors(t *testing.T) {
	ctx := context.Background()
	a, err := OpenArchive(ctx, "x", makeZip(t,
		zipFile{"Assembly.yaml", testManifest},
		zipFile{"acme/tasks/project.yaml", "Id: abc\nName: Tasks\nVendor: Acme\n"}, // lower-cased by a repack
	))
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != KindApplication || a.Vendor() != "Acme" || a.ProjectName() != "Tasks" || a.Version() != "1.0-3" || a.Manifest().Str("CommitId") != "abc" {
		t.Errorf("manifest %v", a.Manifest())
	}
	if e, ok := a.DescriptorEntry(); !ok || e != "acme/tasks/project.yaml" {
		t.Errorf("descriptor entry %q %v", e, ok)
	}
	if a.ID(ctx) != "abc" || a.Presentation(ctx) != "Tasks" {
		t.Errorf("id %q, presentation %q (falls back to the manifest name)", a.ID(ctx), a.Presentation(ctx))
	}
	d, err := a.Descriptor(ctx)
	if err != nil || !d.English || d.Dir != "acme/tasks" {
		t.Errorf("descriptor %+v %v", d, err)
	}

	b, err := OpenArchive(ctx, "y", makeZip(t,
		zipFile{"Assembly.yaml", testManifest},
		zipFile{"Acme/Tasks/Проект.yaml", "Ид: рус\nИмя: Tasks\nПоставщик: Acme\nПредставление: Задачи\n"},
		zipFile{"Acme/Tasks/Project.yaml", "Id: en\nName: Tasks\nVendor: Acme\nPresentation: Tasks EN\n"},
	))
	if err != nil {
		t.Fatal(err)
	}
	if b.ID(ctx) != "рус" || b.Presentation(ctx) != "Задачи" {
		t.Errorf("Проект.yaml first: %q %q", b.ID(ctx), b.Presentation(ctx))
	}
}

func TestInspectErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	cases := []struct {
		name string
		path string
		key  string
		en   string
	}{
		{"missing", filepath.Join(dir, "nope.xasm"), "inspect.not-found", "not found: {file}"},
		{"directory", dir, "inspect.not-archive", "the file is not a build archive: {file}"},
		{"text", writeFile(t, []byte("just text, not a zip")), "inspect.not-archive", "the file is not a build archive: {file}"},
		{"empty", writeFile(t, nil), "inspect.not-archive", "the file is not a build archive: {file}"},
		{"no manifest", writeFile(t, makeZip(t, zipFile{"Acme/Tasks/Проект.yaml", "Имя: Tasks\n"}, zipFile{"sub/Assembly.yaml", testManifest})),
			"inspect.no-manifest", "archive {file} has no manifest Assembly.yaml"},
		{"no project file", writeFile(t, makeZip(t, zipFile{"Assembly.yaml", testManifest}, zipFile{"Acme/Other/Проект.yaml", "Имя: Other\n"})),
			"inspect.no-project-file", "archive {file} has no project file Acme/Tasks/Проект.yaml or Project.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Inspect(ctx, c.path, nil)
			if errKey(err) != c.key {
				t.Fatalf("got %v, want %s", err, c.key)
			}
			inLang(t, i18n.EN, func(ctx context.Context) {
				_, err := Inspect(ctx, c.path, nil)
				if want := strings.ReplaceAll(c.en, "{file}", c.path); err.Error() != want {
					t.Errorf("got %q, want %q", err, want)
				}
			})
		})
	}
	_, err := Inspect(ctx, filepath.Join(dir, "nope.xasm"), nil)
	if !strings.HasPrefix(err.Error(), "не найден: ") {
		t.Errorf("ru by default: %q", err)
	}
}

func TestArchiveHostileNames(t *testing.T) {
	ctx := context.Background()
	for _, insecure := range []string{"", "zipinsecurepath=0"} {
		t.Run("GODEBUG="+insecure, func(t *testing.T) {
			t.Setenv("GODEBUG", insecure)
			data := makeZip(t,
				zipFile{"Assembly.yaml", testManifest},
				zipFile{"Acme/Tasks/Проект.yaml", "Имя: Tasks\nПоставщик: Acme\n"},
				zipFile{"../Acme/Tasks/X/evil.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"Acme/Tasks/../../evil.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"Acme/Tasks/X/../../../evil.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"/Acme/Tasks/X/abs.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{`Acme\Tasks\X\back.yaml`, "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{`Acme/Tasks/X\..\..\back.yaml`, "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"C:/Acme/Tasks/X/drive.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"Acme/Tasks/./X/dot.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"Acme/Tasks//X/empty.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"Acme/Tasks/X/ok.yaml", "ВидЭлемента: Справочник\nОбластьВидимости: Глобально\n"},
				zipFile{"", "nameless"},
			)
			out, err := Inspect(ctx, writeFile(t, data), nil)
			if err != nil {
				t.Fatal(err)
			}
			globals := out.Value("global_types").([]any)
			if len(globals) != 1 || globals[0].(*jsonx.Object).Str("entry") != "Acme/Tasks/X/ok.yaml" {
				t.Errorf("only the safe entry counts: %v", globals)
			}
			a, _ := OpenArchive(ctx, "x", data)
			if got := a.Entries(); !slices.Equal(got, []string{"Assembly.yaml", "Acme/Tasks/Проект.yaml", "Acme/Tasks/X/ok.yaml"}) {
				t.Errorf("entries %q", got)
			}
			if _, err := a.ReadEntry(ctx, "../Acme/Tasks/X/evil.yaml"); errKey(err) != "inspect.no-entry" {
				t.Errorf("a hostile name cannot be read: %v", err)
			}
		})
	}
}

// rawZip writes one entry whose header says what the test wants, whatever
// the data: declared sizes may lie.
func rawZip(t *testing.T, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		for range e.repeat {
			fw.Write(e.chunk)
		}
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: e.crc,
			CompressedSize64: uint64(comp.Len()), UncompressedSize64: e.declared})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(comp.Bytes())
	}
	zw.Close()
	return buf.Bytes()
}

type rawEntry struct {
	name     string
	chunk    []byte
	repeat   int
	declared uint64
	crc      uint32
}

func honest(name string, chunk []byte, repeat int) rawEntry {
	h := crc32.NewIEEE()
	for range repeat {
		h.Write(chunk)
	}
	return rawEntry{name: name, chunk: chunk, repeat: repeat, declared: uint64(len(chunk) * repeat), crc: h.Sum32()}
}

// Not parallel: it lowers the package's read limits, which the parallel
// tests read while they open archives.
func TestArchiveBombs(t *testing.T) {
	ctx := context.Background()
	zeros := make([]byte, 64<<10)
	manifest := honest("Assembly.yaml", []byte(testManifest), 1)
	descriptor := honest("Acme/Tasks/Проект.yaml", []byte("Имя: Tasks\nПоставщик: Acme\n"), 1)

	t.Run("absurd declared size", func(t *testing.T) {
		absurd := honest("Acme/Tasks/X/a.yaml", []byte("x"), 1)
		absurd.declared = 1 << 40
		_, err := Inspect(ctx, writeFile(t, rawZip(t, manifest, descriptor, absurd)), nil)
		if errKey(err) != "inspect.entry-too-large" {
			t.Fatalf("got %v", err)
		}
		inLang(t, i18n.EN, func(ctx context.Context) {
			_, err := Inspect(ctx, writeFile(t, rawZip(t, manifest, descriptor, absurd)), nil)
			if !strings.Contains(err.Error(), "the entry Acme/Tasks/X/a.yaml is too large to read (1099511627776 bytes") {
				t.Errorf("got %q", err)
			}
		})
	})
	defer func(was int64) { entryReadLimit = was }(entryReadLimit)
	entryReadLimit = 1 << 20 // the real limit is 16 MB; the same code with smaller bombs

	t.Run("manifest bomb", func(t *testing.T) {
		bomb := honest("Assembly.yaml", zeros, 20) // 1.3 MB of zeros in a few KB
		if _, err := OpenArchive(ctx, "x", rawZip(t, bomb, descriptor)); errKey(err) != "inspect.entry-too-large" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("size that lies", func(t *testing.T) {
		liar := honest("Acme/Tasks/X/a.yaml", zeros, 20)
		liar.declared = 100
		_, err := Inspect(ctx, writeFile(t, rawZip(t, manifest, descriptor, liar)), nil)
		if k := errKey(err); k != "inspect.bad-entry" && k != "inspect.size-mismatch" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("many entries together", func(t *testing.T) {
		defer func(was int64) { totalReadLimit = was }(totalReadLimit)
		totalReadLimit = 1 << 20
		entries := []rawEntry{manifest, descriptor}
		for i := range 20 {
			entries = append(entries, honest("Acme/Tasks/X/e"+string(rune('a'+i))+".yaml", zeros, 1))
		}
		_, err := Inspect(ctx, writeFile(t, rawZip(t, entries...)), nil)
		if errKey(err) != "inspect.too-much-data" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("too many entries", func(t *testing.T) {
		defer func(was int) { entryCountLimit = was }(entryCountLimit)
		entryCountLimit = 10
		files := []zipFile{{"Assembly.yaml", testManifest}}
		for i := range 11 {
			files = append(files, zipFile{"f" + string(rune('a'+i)), ""})
		}
		if _, err := OpenArchive(ctx, "x", makeZip(t, files...)); errKey(err) != "inspect.too-many-entries" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("bad checksum", func(t *testing.T) {
		bad := honest("Acme/Tasks/X/a.yaml", []byte("ВидЭлемента: Справочник\n"), 1)
		bad.crc++
		if _, err := Inspect(ctx, writeFile(t, rawZip(t, manifest, descriptor, bad)), nil); errKey(err) != "inspect.bad-entry" {
			t.Fatalf("got %v", err)
		}
	})
}

func TestBuildThenOpenArchive(t *testing.T) {
	ctx := context.Background()
	r := buildIn(t, filepath.Join("..", "..", "..", "examples", "demo", "Acme", "Tasks"), BuildOptions{Kind: "library"})
	data, err := os.ReadFile(r.File)
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenArchive(ctx, r.File, data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != KindLibrary || !a.Manifest().Has("Release") || a.ID(ctx) != "7c1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f10" || a.Presentation(ctx) != "Задачи команды" {
		t.Errorf("manifest %v", a.Manifest())
	}
}

// The platform's refusals come from the directory of entries: the names
// that point outside the archive's folder. A clean archive has none.
func TestRefusals(t *testing.T) {
	ctx := context.Background()
	manifest := honest("Assembly.yaml", []byte(testManifest), 1)
	descriptor := honest("Acme/Tasks/Проект.yaml", []byte("Имя: Tasks\nПоставщик: Acme\n"), 1)
	declared := func(name string, size uint64) rawEntry {
		e := honest(name, []byte("x"), 1)
		e.declared = size
		return e
	}
	keys := func(t *testing.T, entries ...rawEntry) []string {
		t.Helper()
		a, err := OpenArchive(ctx, "x.xasm", rawZip(t, append([]rawEntry{manifest, descriptor}, entries...)...))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range a.Refusals(ctx) {
			out = append(out, errKey(r))
		}
		return out
	}
	for _, c := range []struct {
		name    string
		entries []rawEntry
		want    []string
	}{
		{"clean", []rawEntry{honest("Acme/Tasks/X/a.yaml", []byte("Имя: a\n"), 1)}, nil},
		{"parent", []rawEntry{honest("../a.xbsl", []byte("x"), 1)}, []string{"archive.outside-entries"}},
		{"parent inside", []rawEntry{honest("Acme/../../a.xbsl", []byte("x"), 1)}, []string{"archive.outside-entries"}},
		{"absolute", []rawEntry{honest("/etc/a.yaml", []byte("x"), 1)}, []string{"archive.outside-entries"}},
		{"drive", []rawEntry{honest("C:/a.yaml", []byte("x"), 1)}, []string{"archive.outside-entries"}},
		{"backslash", []rawEntry{honest(`Acme\..\..\a.yaml`, []byte("x"), 1)}, []string{"archive.outside-entries"}},
		// How much the platform unpacks is not recorded: sizes are its to
		// judge, an archive is never refused for them here.
		{"entries of any size", []rawEntry{
			declared("Acme/Tasks/Ресурсы/a.bin", 1<<40), declared("Acme/Tasks/Ресурсы/b.bin", 1<<40),
		}, nil},
		{"outside and large", []rawEntry{honest("../a", []byte("x"), 1), declared("../b", 1<<40)},
			[]string{"archive.outside-entries"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := keys(t, c.entries...); !slices.Equal(got, c.want) {
				t.Errorf("refusals %v, want %v", got, c.want)
			}
		})
	}
	t.Run("the names are listed, five at most", func(t *testing.T) {
		var entries []rawEntry
		for i := range 7 {
			entries = append(entries, honest(fmt.Sprintf("../%d.xbsl", i), []byte("x"), 1))
		}
		inLang(t, i18n.EN, func(ctx context.Context) {
			a, err := OpenArchive(ctx, "x.xasm", rawZip(t, append([]rawEntry{manifest}, entries...)...))
			if err != nil {
				t.Fatal(err)
			}
			r := a.Refusals(ctx)
			if len(r) != 1 || !strings.Contains(r[0].Error(), "(7): ../0.xbsl, ../1.xbsl, ../2.xbsl, ../3.xbsl, ../4.xbsl and 2 more – the platform") {
				t.Errorf("got %v", r)
			}
		})
	})
}
