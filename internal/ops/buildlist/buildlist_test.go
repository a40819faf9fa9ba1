package buildlist

import (
	"context"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

func card(id, version, created string, extra ...any) *jsonx.Object {
	c := jsonx.New("id", id, "assembly-version", version, "project-version", version, "created", created)
	for i := 0; i+1 < len(extra); i += 2 {
		c.Set(extra[i].(string), extra[i+1])
	}
	return c
}

func TestIDVersionCounter(t *testing.T) {
	if got := ID(jsonx.New("id", "", "image-id", "img-1", "assembly-id", "asm-1")); got != "img-1" {
		t.Errorf("ID = %q", got)
	}
	if got := ID(jsonx.New("assembly-id", "asm-1")); got != "asm-1" {
		t.Errorf("ID = %q", got)
	}
	if got := ID(jsonx.New("id", 5)); got != "" {
		t.Errorf("ID of a number = %q", got)
	}
	if got := Version(jsonx.New("project-version", "1.0-2")); got != "1.0-2" {
		t.Errorf("Version = %q", got)
	}
	for v, want := range map[string]int{"1.0-10": 10, "1.0.0-3": 3, "1.0-probe-ab12cd34": 0, "1.0": 0, "": 0, "1.0-x7": 0} {
		if got := Counter(v); got != want {
			t.Errorf("Counter(%q) = %d, want %d", v, got, want)
		}
	}
}

func TestSortNewestFirst(t *testing.T) {
	cards := []*jsonx.Object{
		card("a", "1.0-9", "2025-03-01T10:00:00Z"),
		card("b", "1.0-10", "2025-03-01T10:00:00Z"),
		card("c", "1.0-2", "2025-03-02T08:00:00Z"),
		card("d", "1.0-probe-ab12cd34", "2025-03-01T10:00:00Z"),
		jsonx.New("id", "e", "assembly-version", "1.0-1"), // no created
		card("f", "1.0-11", "2025-02-28T23:59:59Z"),
		card("g", "2.0-1", "2025-03-01T10:00:00Z"),
		card("h", "1.0-probe-ffff0000", "2025-03-01T10:00:00Z"),
	}
	Sort(cards)
	var ids []string
	for _, c := range cards {
		ids = append(ids, ID(c))
	}
	if got := strings.Join(ids, " "); got != "c b a g d h f e" {
		t.Fatalf("order %s", got)
	}
}

func TestBrief(t *testing.T) {
	reg := registry.Entries{
		{AssemblyID: "asm-2", Branch: "feature/x", Commit: "c0ffee", Dirty: registry.Bool(true), ProjectDir: registry.String("/home/u/Проекты/crm")},
		{AssemblyID: "asm-3", Branch: "", Commit: "", Dirty: registry.Bool(false)},
		{AssemblyID: "img-4", Branch: "main", Commit: "beef"},
	}.ByAssembly()
	cases := []struct {
		name string
		card *jsonx.Object
		want string
	}{
		{"card knows branch and commit", card("asm-1", "1.0-1", "2025-03-01T10:00:00Z", "branch-name", "dev", "commit-id", "abc", "project-id", "p1"),
			`{"id":"asm-1","assembly-version":"1.0-1","project-version":"1.0-1","created":"2025-03-01T10:00:00Z","branch-name":"dev","branch-name-source":"platform","commit-id":"abc","commit-id-source":"platform","dirty":null,"project-dir":null}`},
		{"registry fills the empty ones", card("asm-2", "1.0-2", "2025-03-01T11:00:00Z", "commit-id", nil, "branch-name", ""),
			`{"id":"asm-2","assembly-version":"1.0-2","project-version":"1.0-2","created":"2025-03-01T11:00:00Z","branch-name":"feature/x","branch-name-source":"registry","commit-id":"c0ffee","commit-id-source":"registry","dirty":true,"project-dir":"/home/u/Проекты/crm"}`},
		{"card commit, registry branch", card("asm-2", "1.0-2", "2025-03-01T11:00:00Z", "commit-id", "abc"),
			`{"id":"asm-2","assembly-version":"1.0-2","project-version":"1.0-2","created":"2025-03-01T11:00:00Z","branch-name":"feature/x","branch-name-source":"registry","commit-id":"abc","commit-id-source":"platform","dirty":true,"project-dir":"/home/u/Проекты/crm"}`},
		{"registry line without branch", card("asm-3", "1.0-3", "2025-03-01T12:00:00Z"),
			`{"id":"asm-3","assembly-version":"1.0-3","project-version":"1.0-3","created":"2025-03-01T12:00:00Z","branch-name":null,"branch-name-source":null,"commit-id":null,"commit-id-source":null,"dirty":false,"project-dir":null}`},
		{"id in image-id", jsonx.New("image-id", "img-4", "assembly-version", "1.0-4"),
			`{"id":"img-4","assembly-version":"1.0-4","project-version":null,"created":null,"branch-name":"main","branch-name-source":"registry","commit-id":"beef","commit-id-source":"registry","dirty":null,"project-dir":null}`},
		{"unknown everywhere", jsonx.New("assembly-version", "1.0-5"),
			`{"id":null,"assembly-version":"1.0-5","project-version":null,"created":null,"branch-name":null,"branch-name-source":null,"commit-id":null,"commit-id-source":null,"dirty":null,"project-dir":null}`},
	}
	for _, c := range cases {
		got, err := jsonx.Compact(Brief(c.card, reg))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	if got, _ := jsonx.Compact(Brief(card("asm-2", "1.0-2", ""), nil)); !strings.Contains(string(got), `"branch-name":null,"branch-name-source":null`) {
		t.Errorf("no registry: %s", got)
	}
}

func TestRegistryBrief(t *testing.T) {
	reg := registry.Entries{{AssemblyID: "asm-9", Version: "1.0-9", Commit: "abc", Dirty: registry.Bool(false)}}.ByAssembly()
	got, _ := jsonx.Compact(RegistryBrief("asm-9", reg))
	want := `{"id":"asm-9","assembly-version":"1.0-9","project-version":"1.0-9","created":null,"branch-name":null,"branch-name-source":null,"commit-id":"abc","commit-id-source":"registry","dirty":false,"project-dir":null}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if RegistryBrief("asm-unknown", reg) != nil || RegistryBrief("", reg) != nil {
		t.Error("an unknown build has no brief card")
	}
}

func TestCutNote(t *testing.T) {
	ctx := context.Background()
	if got := i18n.TL(i18n.EN, "client.builds-cut"); got != "the listing is cut by --limit (newest first); --limit 0 shows them all" {
		t.Errorf("en %q", got)
	}
	if got := CutNote(ctx); !strings.Contains(got, "--limit 0") || !strings.HasPrefix(got, "список обрезан") {
		t.Errorf("ru %q", got)
	}
}

func TestFind(t *testing.T) {
	imageOnly := jsonx.New("image-id", "b-3", "project-version", "1.0-3")
	cards := []*jsonx.Object{card("b-1", "1.0-1", ""), card("b-2", "1.0-2", ""), imageOnly}
	for _, c := range []struct {
		id, version string
		want        *jsonx.Object
	}{
		{"b-2", "", cards[1]},
		{"b-3", "", imageOnly},   // an id in image-id
		{"b-9", "1.0-1", nil},    // an id given is the only key
		{"", "1.0-1", cards[0]},  // by version when no id
		{"", "1.0-3", imageOnly}, // project-version when there is no assembly-version
		{"", "", nil},
	} {
		if got := Find(cards, c.id, c.version); got != c.want {
			t.Errorf("Find(%q, %q) = %v, want %v", c.id, c.version, got, c.want)
		}
	}
}
