package assembly

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func TestParseDescriptor(t *testing.T) {
	cases := []struct {
		name string
		text string
		want Descriptor
	}{
		{
			name: "russian keys, defaults",
			text: "Имя: Tasks\nПоставщик: Acme\n",
			want: Descriptor{Name: "Tasks", Vendor: "Acme", Version: "1.0", Kind: KindApplication},
		},
		{
			name: "english keys",
			text: "Id: abc\nName: Crm\nVendor: Acme\nVersion: 3.1.0\nProjectKind: Library\nCompatibilityMode: 8.0\nPresentation: CRM\nDevelopmentLanguage: English\nDefaultLanguage: English\nLocalizationLanguages: [English]\n",
			want: Descriptor{ID: "abc", Name: "Crm", Vendor: "Acme", Version: "3.1.0", Kind: KindLibrary, Compatibility: "8.0",
				Presentation: "CRM", DevelopmentLanguage: "English", DefaultLanguage: "English", HasLocalizationLanguages: true, English: true},
		},
		{
			name: "russian wins over english in any order",
			text: "Name: En\nИмя: Ру\nVendor: V\nПоставщик: П\nVersion: 9\nВерсия: 2.0\n",
			want: Descriptor{Name: "Ру", Vendor: "П", Version: "2.0", Kind: KindApplication},
		},
		{
			name: "quotes, comments, indentation, CRLF, BOM",
			text: "\ufeff# comment\r\nИмя: \"Tasks\"\r\nПоставщик: 'O''Brien'\r\n  Версия: 7.7\r\nВерсия: 1.2 # bump later\r\nПредставление: \"Задачи: команды\"\r\n\r\n",
			want: Descriptor{Name: "Tasks", Vendor: "O'Brien", Version: "1.2", Kind: KindApplication, Presentation: "Задачи: команды"},
		},
		{
			name: "kinds in russian, any case",
			text: "Имя: A\nПоставщик: B\nВидПроекта: РАСШИРЕНИЕ\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindExtension},
		},
		{
			name: "unknown kind is an application",
			text: "Имя: A\nПоставщик: B\nВидПроекта: Группа\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication},
		},
		{
			name: "localization languages as a block",
			text: "Имя: A\nПоставщик: B\nЯзыкПоУмолчанию: Русский\nЯзыкиЛокализации:\n    - Русский\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication, DefaultLanguage: "Русский", HasLocalizationLanguages: true},
		},
		{
			name: "localization languages as an unindented block",
			text: "Имя: A\nПоставщик: B\nЯзыкиЛокализации:\n- Русский\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication, HasLocalizationLanguages: true},
		},
		{
			name: "empty inline localization list",
			text: "Имя: A\nПоставщик: B\nЯзыкиЛокализации: [ ]\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication},
		},
		{
			name: "localization key without a value",
			text: "Имя: A\nПоставщик: B\nЯзыкиЛокализации:\nЯзыкРазработки: Русский\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication, DevelopmentLanguage: "Русский"},
		},
		{
			name: "name in english but Имя present is not english",
			text: "Name: A\nИмя: A\nПоставщик: B\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication},
		},
		{
			name: "empty version falls back",
			text: "Имя: A\nПоставщик: B\nВерсия: \"\"\n",
			want: Descriptor{Name: "A", Vendor: "B", Version: "1.0", Kind: KindApplication},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ParseDescriptor([]byte(c.text), "p")
			got.Fields, got.Path = nil, ""
			if got.Libraries != nil {
				t.Errorf("libraries = %v", got.Libraries)
			}
			got.Libraries = nil
			if !reflect.DeepEqual(*got, c.want) {
				t.Errorf("got  %+v\nwant %+v", *got, c.want)
			}
		})
	}
}

func TestDescriptorFieldsKeepFileOrder(t *testing.T) {
	d := ParseDescriptor([]byte("Имя: A\nПоставщик: B\nРеквизиты:\n    - x: 1\nВерсия: 1.0\nИмя: C\n"), "p")
	if got := strings.Join(d.Fields.Keys(), ","); got != "Имя,Поставщик,Реквизиты,Версия" {
		t.Errorf("keys %s", got)
	}
	if d.Fields.Str("Имя") != "C" || d.Name != "C" {
		t.Errorf("a repeated key: the later value wins, got %q", d.Fields.Str("Имя"))
	}
	if d.Fields.Str("Реквизиты") != "" {
		t.Errorf("a key with a block has an empty value")
	}
}

func TestDescriptorLibraries(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []ProjectRef
	}{
		{"russian items with dash lines", "Имя: A\nПоставщик: B\nБиблиотеки:\n    -\n        Имя: Lib1\n        Поставщик: Acme\n        Версия: 1.0\n    -\n        Имя: Lib2\n        Поставщик: \"Other\"\nВерсия: 1.0\n",
			[]ProjectRef{{"Acme", "Lib1"}, {"Other", "Lib2"}}},
		{"english compact items", "Name: A\nVendor: B\nLibraries:\n  - Name: L\n    Vendor: V\n  - {Name: M, Vendor: W}\n",
			[]ProjectRef{{"V", "L"}, {"W", "M"}}},
		{"russian list wins", "Имя: A\nПоставщик: B\nLibraries:\n  - Name: E\n    Vendor: V\nБиблиотеки:\n  - Имя: R\n    Поставщик: V\n",
			[]ProjectRef{{"V", "R"}}},
		{"inline value means no list", "Имя: A\nПоставщик: B\nБиблиотеки: [x]\n", nil},
		{"items without a vendor are dropped", "Имя: A\nПоставщик: B\nБиблиотеки:\n  - Имя: L\n  - Имя: M\n    Поставщик: V\n", []ProjectRef{{"V", "M"}}},
		{"broken yaml gives nothing", "Имя: A\nПоставщик: B\nБиблиотеки:\n  - Имя: [\n", nil},
		{"duplicates once", "Имя: A\nПоставщик: B\nБиблиотеки:\n  - Имя: L\n    Поставщик: V\n  - Имя: L\n    Поставщик: V\n", []ProjectRef{{"V", "L"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ParseDescriptor([]byte(c.text), "p").Libraries
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestReadDescriptor(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"both/Проект.yaml":    "Имя: Ру\nПоставщик: V\n",
		"both/Project.yaml":   "Name: En\nVendor: V\n",
		"en/Project.yaml":     "Name: En\nVendor: V\n",
		"noname/Проект.yaml":  "Поставщик: V\n",
		"novend/Project.yaml": "Name: X\n",
	})
	d, err := ReadDescriptor(ctx, filepath.Join(dir, "both"))
	if err != nil || d.Name != "Ру" || filepath.Base(d.Path) != DescriptorRU || d.Dir != filepath.Join(dir, "both") {
		t.Fatalf("Проект.yaml comes first: %+v, %v", d, err)
	}
	if d, err := ReadDescriptor(ctx, filepath.Join(dir, "en")); err != nil || d.Name != "En" || !d.English {
		t.Fatalf("Project.yaml: %+v, %v", d, err)
	}
	for _, sub := range []string{"noname", "novend"} {
		if _, err := ReadDescriptor(ctx, filepath.Join(dir, sub)); errKey(err) != "build.descriptor-no-field" {
			t.Errorf("%s: %v", sub, err)
		}
	}
	if _, err := ReadDescriptor(ctx, dir); errKey(err) != "build.project-not-found" {
		t.Errorf("no descriptor: %v", err)
	}
}

func TestFindProjectDir(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".hidden/V/A/Проект.yaml":        "x",
		"node_modules/V/A/Проект.yaml":   "x",
		"__pycache__/Проект.yaml":        "x",
		"b/Vendor/Zed/Проект.yaml":       "x",
		"b/Vendor/Alpha/Project.yaml":    "x",
		"b/Vendor/Alpha/Sub/Проект.yaml": "x",
		"c/Проект.yaml":                  "x",
		"a/empty/file.txt":               "x",
	})
	got, err := FindProjectDir(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "b", "Vendor", "Alpha"); got != want {
		t.Errorf("got %s, want %s (sorted, depth first, hidden and excluded skipped)", got, want)
	}
	got, err = FindProjectDir(ctx, filepath.Join(root, "c"))
	if err != nil || got != filepath.Join(root, "c") {
		t.Errorf("base itself: %s %v", got, err)
	}

	t.Chdir(filepath.Join(root, "b", "Vendor", "Zed"))
	if got, err := FindProjectDir(ctx, ""); err != nil || filepath.Base(got) != "Zed" || !filepath.IsAbs(got) {
		t.Errorf("current directory: %s %v", got, err)
	}

	empty := t.TempDir()
	writeTree(t, empty, map[string]string{".git/Проект.yaml": "x", "src/readme.md": "x"})
	_, err = FindProjectDir(ctx, empty)
	if errKey(err) != "build.project-not-found" {
		t.Fatalf("got %v", err)
	}
	if _, err := FindProjectDir(ctx, filepath.Join(empty, "missing")); errKey(err) != "build.project-not-found" {
		t.Errorf("missing base: %v", err)
	}
}

func TestFindProjectDirRefusalInEnglish(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	writeTree(t, empty, map[string]string{".git/Проект.yaml": "x", "src/readme.md": "x"})
	inLang(t, i18n.EN, func(ctx context.Context) {
		_, err := FindProjectDir(ctx, empty)
		if want := "project directory not found: no Проект.yaml/Project.yaml in " + empty; err == nil || err.Error() != want {
			t.Errorf("got %v", err)
		}
	})
}

func TestCheckLayout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	cases := []struct {
		dir, text string
		ok        bool
	}{
		{"Acme/Tasks", "Имя: Tasks\nПоставщик: Acme\n", true},
		{"Acme/Tasks2", "Имя: Tasks\nПоставщик: Acme\n", false},
		{"acme/Tasks", "Имя: Tasks\nПоставщик: Acme\n", false},
		{"Тест/Задачи", "Имя: Задачи\nПоставщик: Тест\n", true},
		// a decomposed й as macOS may hand it out
		{"Acme/Мои\u0306", "Имя: Мой\nПоставщик: Acme\n", true},
	}
	for _, c := range cases {
		dir := filepath.Join(root, filepath.FromSlash(c.dir))
		writeTree(t, dir, map[string]string{DescriptorRU: c.text})
		d, err := ReadDescriptor(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		repo, err := CheckLayout(ctx, d)
		if c.ok != (err == nil) {
			t.Errorf("%s: err %v", c.dir, err)
		}
		if c.ok && repo != root {
			t.Errorf("%s: repo %s, want %s", c.dir, repo, root)
		}
		if !c.ok && errKey(err) != "build.layout" {
			t.Errorf("%s: key %q", c.dir, errKey(err))
		}
	}
	d, _ := ReadDescriptor(ctx, filepath.Join(root, "Acme", "Tasks2"))
	inLang(t, i18n.EN, func(ctx context.Context) {
		_, err := CheckLayout(ctx, d)
		want := "the project directory must follow the {repo}/{vendor}/{name}/Проект.yaml layout: expected .../Acme/Tasks, actual – Acme/Tasks2"
		if err == nil || err.Error() != want {
			t.Errorf("got %q", err)
		}
	})
}

func TestParseKind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for in, want := range map[string]string{
		"application": KindApplication, "Application": KindApplication, "приложение": KindApplication,
		"library": KindLibrary, "БИБЛИОТЕКА": KindLibrary, " extension ": KindExtension, "Расширение": KindExtension,
	} {
		if got, err := ParseKind(ctx, in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	_, err := ParseKind(ctx, "plugin")
	if errKey(err) != "build.unknown-kind" {
		t.Fatal(err)
	}
	inLang(t, i18n.EN, func(ctx context.Context) {
		_, err := ParseKind(ctx, "plugin")
		if want := "unknown project kind: plugin (expected application, library or extension)"; err.Error() != want {
			t.Errorf("got %q", err)
		}
	})
	if !strings.Contains(err.Error(), "неизвестный вид проекта: plugin") {
		t.Errorf("ru by default: %q", err)
	}
}
