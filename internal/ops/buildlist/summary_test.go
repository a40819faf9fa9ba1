package buildlist

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

const project = "proj-1"

func buildID(version string) string { return "asm-" + version }

// history is the platform's listing of one base's builds, newest first.
func history(base string, numbers ...int) []*jsonx.Object {
	var cards []*jsonx.Object
	for _, n := range numbers {
		v := fmt.Sprintf("%s-%d", base, n)
		cards = append(cards, card(buildID(v), v, fmt.Sprintf("2025-03-01T10:%02d:%02d+03:00", n/60%60, n%60)))
	}
	Sort(cards)
	return cards
}

func uploadedInto(project string, route string, vs ...string) []registry.Entry {
	var out []registry.Entry
	for _, v := range vs {
		out = append(out, registry.Entry{AssemblyID: buildID(v), ProjectID: project, Version: v, Command: registry.CommandDeploy, Route: route})
	}
	return out
}

// both renders the summary in the two languages.
func both(cards []*jsonx.Object, shown int, extension bool, reg []registry.Entry) (ru, en string) {
	return summaryIn(i18n.RU, cards, shown, extension, project, reg), summaryIn(i18n.EN, cards, shown, extension, project, reg)
}

func must(t *testing.T, line string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(line, p) {
			t.Errorf("%q\n  lacks %q", line, p)
		}
	}
}

func mustNot(t *testing.T, line string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(line, p) {
			t.Errorf("%q\n  has %q", line, p)
		}
	}
}

func prefixed(t *testing.T, ru, en string, shown, total int) {
	t.Helper()
	if want := fmt.Sprintf("показано %d из %d", shown, total); !strings.HasPrefix(ru, want) {
		t.Errorf("ru %q does not begin with %q", ru, want)
	}
	if want := fmt.Sprintf("%d of %d shown", shown, total); !strings.HasPrefix(en, want) {
		t.Errorf("en %q does not begin with %q", en, want)
	}
}

func TestSummaryUnbroken(t *testing.T) {
	ru, en := both(history("1.0", 1, 2, 3, 4, 5), 3, false, nil)
	prefixed(t, ru, en, 3, 5)
	must(t, ru, "все сборки проекта")
	must(t, en, "runs unbroken", "every build the project has")
	mustNot(t, ru, "НЕ вся история", "Скачок", "расширени")
	mustNot(t, en, "NOT", "jump", "extension")
	for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
		if Summary(i18n.WithLang(context.Background(), l), history("1.0", 1), 1, false, project, nil) != summaryIn(l, history("1.0", 1), 1, false, project, nil) {
			t.Errorf("Summary does not speak the language of its context (%s)", l)
		}
	}
}

func TestSummaryHousekeepingGaps(t *testing.T) {
	for name, cards := range map[string][]*jsonx.Object{
		"a hole between":     history("1.0", 1, 3, 4),
		"a hole below":       history("1.0", 3, 4, 5),
		"holes in one base":  append(history("2.0", 1, 2), history("1.0", 1, 4)...),
		"unnumbered ignored": append(history("1.0", 2), card("p", "1.0-probe-ab12cd34", "2025-03-02T00:00:00Z")),
	} {
		t.Run(name, func(t *testing.T) {
			ru, en := both(cards, len(cards), false, nil)
			prefixed(t, ru, en, len(cards), len(cards))
			must(t, ru, "есть пропуски", "НЕ вся история")
			must(t, en, "has gaps", "This is NOT the project's whole build history")
			mustNot(t, ru, "все сборки проекта")
		})
	}
}

func TestSummaryNeverCountsHoles(t *testing.T) {
	one, _ := both(history("1.0", 1, 3, 4, 5, 6), 5, false, nil)
	many, _ := both(history("1.0", 2, 4, 6, 8, 10), 5, false, nil)
	if one != many {
		t.Fatalf("one hole and five holes read differently:\n%s\n%s", one, many)
	}
}

func TestSummaryJumpByThisMachine(t *testing.T) {
	cards := history("1.0", 1, 2, 3, 500, 501)
	reg := append(uploadedInto(project, registry.RouteProject, "1.0-1", "1.0-2", "1.0-3", "1.0-501"),
		uploadedInto(project, registry.RouteNoProjectID, "1.0-500")...)
	ru, en := both(cards, 5, false, reg)
	prefixed(t, ru, en, 5, 5)
	must(t, ru, "все сборки проекта", "Скачок 1.0-3 -> 1.0-500 — не удаление")
	must(t, en, "every build the project has", "The jump 1.0-3 -> 1.0-500 is no deletion")
	mustNot(t, ru, "НЕ вся история")
	mustNot(t, en, "NOT")

	// Another machine's upload explains nothing here: the hole is a gap.
	ru, en = both(cards, 5, false, uploadedInto(project, registry.RouteProject, "1.0-500"))
	must(t, ru, "НЕ вся история")
	mustNot(t, en, "jump")
	ru, _ = both(cards, 5, false, nil)
	must(t, ru, "НЕ вся история")

	// A legacy "vendor-name" line is an upload without a project id.
	legacy := registry.Parse([]byte(`{"assembly-id":"asm-1.0-500","project-id":"proj-1","version":"1.0-500","command":"builds upload","route":"vendor-name"}`))
	ru, _ = both(cards, 5, false, legacy)
	must(t, ru, "Скачок 1.0-3 -> 1.0-500")
}

func TestSummaryJumpAtTheStartAndSeveralJumps(t *testing.T) {
	// The project was created by an upload without a project id of 1.0-500.
	cards := history("1.0", 500, 501)
	ru, en := both(cards, 2, false, uploadedInto(project, registry.RouteNoProjectID, "1.0-500"))
	must(t, ru, "все сборки проекта", "Скачок 1.0-0 -> 1.0-500")
	must(t, en, "The jump 1.0-0 -> 1.0-500 is no deletion")

	cards = append(history("1.0", 1, 2, 500, 501, 900), history("2.0", 1, 40)...)
	reg := uploadedInto(project, registry.RouteNoProjectID, "1.0-500", "1.0-900", "2.0-40")
	ru, en = both(cards, 4, false, reg)
	prefixed(t, ru, en, 4, 7)
	must(t, ru, "все сборки проекта", "Скачки 1.0-2 -> 1.0-500, 1.0-501 -> 1.0-900, 2.0-1 -> 2.0-40 — не удаления")
	must(t, en, "The jumps 1.0-2 -> 1.0-500, 1.0-501 -> 1.0-900, 2.0-1 -> 2.0-40 are no deletions")
}

func TestSummaryJumpAndDeletionAtOnce(t *testing.T) {
	cards := history("1.0", 1, 2, 3, 500)
	reg := append(uploadedInto(project, registry.RouteProject, "1.0-1", "1.0-2", "1.0-3", "1.0-4", "1.0-5", "1.0-6", "1.0-7", "1.0-8"),
		uploadedInto(project, registry.RouteNoProjectID, "1.0-500")...)
	ru, en := both(cards, 4, false, reg)
	prefixed(t, ru, en, 4, 4)
	must(t, ru, "НЕ вся история", "1.0-3 -> 1.0-500 — скачок и удаление сразу", "пропали 1.0-4, 1.0-5, 1.0-6 и ещё 2")
	must(t, en, "NOT the project's whole build history", "1.0-3 -> 1.0-500 is a jump and a deletion at once",
		"missing: 1.0-4, 1.0-5, 1.0-6 and 2 more")
	mustNot(t, en, "1.0-7", "is no deletion")

	// Exactly three lost builds: no "and more".
	three := append(uploadedInto(project, registry.RouteProject, "1.0-4", "1.0-5", "1.0-6"),
		uploadedInto(project, registry.RouteNoProjectID, "1.0-500")...)
	_, en = both(cards, 4, false, three)
	must(t, en, "(missing: 1.0-4, 1.0-5, 1.0-6)")

	// Uploads of another project inside the range are not this project's losses.
	other := append(uploadedInto("proj-2", registry.RouteProject, "1.0-4", "1.0-5"), uploadedInto(project, registry.RouteNoProjectID, "1.0-500")...)
	_, en = both(cards, 4, false, other)
	must(t, en, "every build the project has", "The jump 1.0-3 -> 1.0-500 is no deletion")

	// A jump, a pure jump elsewhere and a housekeeping gap together.
	cards = history("1.0", 1, 3, 500, 700)
	reg = append(uploadedInto(project, registry.RouteProject, "1.0-501"), uploadedInto(project, registry.RouteNoProjectID, "1.0-500", "1.0-700")...)
	_, en = both(cards, 4, false, reg)
	must(t, en, "has gaps", "NOT the project's whole build history", "The jump 1.0-3 -> 1.0-500 is no deletion",
		"1.0-500 -> 1.0-700 is a jump and a deletion at once", "missing: 1.0-501)")
}

func TestSummaryEmptyAndUnnumbered(t *testing.T) {
	ru, en := both(nil, 0, false, nil)
	if ru != "показано 0 из 0 — у проекта нет сборок на платформе." || en != "0 of 0 shown – the project has no builds on the platform." {
		t.Errorf("empty:\n%s\n%s", ru, en)
	}
	_, en = both(nil, 0, true, nil)
	mustNot(t, en, "extension")

	cards := []*jsonx.Object{card("p1", "1.0-probe-ab12cd34", "2025-03-01T10:00:00Z"), card("p2", "1.0", "2025-03-01T11:00:00Z"), jsonx.New("id", "x")}
	ru, en = both(cards, 2, false, nil)
	prefixed(t, ru, en, 2, 3)
	must(t, ru, "ни у одной сборки нет номера")
	must(t, en, "no build carries a number")
}

func TestSummaryExtensionProject(t *testing.T) {
	// An extension project is never cleaned up by the platform: a gap is a
	// deletion by hand.
	ru, en := both(history("1.0", 1, 2, 4), 3, true, nil)
	prefixed(t, ru, en, 3, 3)
	must(t, ru, "удалены вручную", "НЕ вся история")
	must(t, en, "deleted by hand", "This is NOT the project's whole build history")
	if strings.Count(en, "no housekeeping") != 1 {
		t.Errorf("the extension tail is said once: %q", en)
	}

	ru, en = both(history("1.0", 1, 2, 3), 2, true, nil)
	prefixed(t, ru, en, 2, 3)
	must(t, ru, "все сборки проекта", "нет автоматической очистки", "elemctl builds delete")
	must(t, en, "every build the project has", "An extension project has no housekeeping", "elemctl builds delete")
}

// A jump names its ends as their cards spell them – leading zeros too –
// whether the summary is taken as the answer arrives or over the sorted
// cards; of two cards with one number the newer spells it.
func TestSummarySpellsVersionsAsTheCardsDo(t *testing.T) {
	cards := []*jsonx.Object{
		card(buildID("1.0-1"), "1.0-1", "2025-03-01T10:00:01.000Z"),
		card(buildID("1.0-003"), "1.0-003", "2025-03-01T10:00:02.000Z"),
		card(buildID("1.0-3"), "1.0-3", "2025-03-01T10:00:03.000Z"),
		card(buildID("1.0-2"), "1.0-2", "2025-03-01T10:00:01.500Z"),
		card(buildID("1.0-0500"), "1.0-0500", "2025-03-01T10:00:05.000Z"),
		card(buildID("1.0-500"), "1.0-500", "2025-03-01T10:00:04.000Z"),
	}
	reg := uploadedInto(project, registry.RouteNoProjectID, "1.0-0500")
	text, err := jsonx.Compact(cards)
	if err != nil {
		t.Fatal(err)
	}
	l := NewListing(10, registry.Entries(reg).ByAssembly())
	if err := jsonx.EachElement(bytes.NewReader(text), nil, l.Add); err != nil {
		t.Fatal(err)
	}
	sorted := append([]*jsonx.Object(nil), cards...)
	Sort(sorted)
	for _, line := range []string{l.Summary(i18n.WithLang(context.Background(), i18n.EN), 6, false, project, reg), summaryIn(i18n.EN, sorted, 6, false, project, reg)} {
		must(t, line, "The jump 1.0-3 -> 1.0-0500 is no deletion")
	}
}
