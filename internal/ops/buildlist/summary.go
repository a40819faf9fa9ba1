package buildlist

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

// namedLosses is how many missing builds a jump-and-deletion names before
// "and N more".
const namedLosses = 3

// Summary is the line that follows a build listing. It is computed over
// all cards the platform returned (shown is how many the listing kept) and
// tells whether they are the project's whole build history.
//
// The platform numbers builds per base version ("1.0-7": base 1.0, number
// 7), so a number missing between present ones, or below the lowest, is a
// hole. A hole is a deletion (housekeeping, or by hand in an extension
// project), or a jump: an upload without a project id keeps its archive
// number and the platform counts on from it, so numbers below it may never
// have existed. Only this machine's registry tells the two apart: a hole
// directly under a build it uploaded without a project id, with none of
// its uploads of the project inside, is a jump; with some of them inside
// it is a jump and a deletion at once. The line says whether holes exist,
// never how many.
func Summary(ctx context.Context, cards []*jsonx.Object, shown int, extension bool, projectID string, reg []registry.Entry) string {
	return summary(i18n.LangOf(ctx), cards, shown, extension, projectID, reg)
}

func summary(lang i18n.Lang, cards []*jsonx.Object, shown int, extension bool, projectID string, reg []registry.Entry) string {
	counts := []any{"shown", shown, "total", len(cards)}
	if len(cards) == 0 {
		return i18n.TL(lang, "client.builds-summary-empty", counts...)
	}
	entries := registry.Entries(reg)
	bases := numbering(cards, entries.ByAssembly())
	if len(bases) == 0 {
		return i18n.TL(lang, "client.builds-summary-unnumbered", counts...)
	}
	f := findHoles(bases, entries, projectID)

	key := "client.builds-summary-full"
	switch {
	case f.deletion || len(f.losses) > 0:
		key = "client.builds-summary-trimmed"
		if extension {
			key = "client.builds-summary-trimmed-extension"
		}
	case len(f.jumps) > 0:
		key = "client.builds-summary-jumped"
	}
	var b strings.Builder
	b.WriteString(i18n.TL(lang, key, counts...))
	switch len(f.jumps) {
	case 0:
	case 1:
		b.WriteString(i18n.TL(lang, "client.builds-summary-jump", "jumps", f.jumps[0]))
	default:
		b.WriteString(i18n.TL(lang, "client.builds-summary-jumps", "jumps", strings.Join(f.jumps, ", ")))
	}
	for _, l := range f.losses {
		missing := i18n.TL(lang, "client.builds-summary-gap-first", "versions", strings.Join(l.missing[:min(namedLosses, len(l.missing))], ", "))
		if more := len(l.missing) - namedLosses; more > 0 {
			missing += i18n.TL(lang, "client.builds-summary-and-more", "count", more)
		}
		b.WriteString(i18n.TL(lang, "client.builds-summary-jump-and-loss", "jump", l.jump, "missing", missing))
	}
	if extension && key != "client.builds-summary-trimmed-extension" {
		b.WriteString(i18n.TL(lang, "client.builds-summary-extension"))
	}
	return b.String()
}

// base is the numbered builds of one base version.
type base struct {
	name    string
	numbers []int         // ascending, distinct
	builds  map[int]build // by number
}

type build struct {
	version string // as the first card with the number writes it
	// keptArchiveNumber: this machine uploaded a card with this number
	// without a project id, so the number is the archive's own.
	keptArchiveNumber bool
}

// numbering groups the numbered cards by base, bases in the order their
// first card comes (newest first for a sorted listing).
func numbering(cards []*jsonx.Object, index map[string]registry.Entry) []*base {
	var order []*base
	byName := map[string]*base{}
	for _, c := range cards {
		v := Version(c)
		name, n, ok := registry.SplitVersion(v)
		if !ok {
			continue
		}
		b := byName[name]
		if b == nil {
			b = &base{name: name, builds: map[int]build{}}
			byName[name] = b
			order = append(order, b)
		}
		e, remembered := lookup(c, index)
		ours := remembered && e.Route == registry.RouteNoProjectID
		if prev, seen := b.builds[n]; seen {
			if ours && !prev.keptArchiveNumber {
				prev.keptArchiveNumber = true
				b.builds[n] = prev
			}
			continue
		}
		b.numbers = append(b.numbers, n)
		b.builds[n] = build{version: v, keptArchiveNumber: ours}
	}
	for _, b := range order {
		slices.Sort(b.numbers)
	}
	return order
}

type loss struct {
	jump    string
	missing []string
}

type holes struct {
	deletion bool     // a hole that is no jump
	jumps    []string // "1.0-3 -> 1.0-500": holes that are only jumps
	losses   []loss   // holes that are a jump and a deletion at once
}

func findHoles(bases []*base, reg registry.Entries, projectID string) holes {
	uploaded := uploadsByBase(reg, projectID)
	var h holes
	for _, b := range bases {
		below := 0
		for _, n := range b.numbers {
			if n > below+1 {
				h.classify(b, below, n, uploaded[b.name])
			}
			below = n
		}
	}
	return h
}

// classify judges the hole between number below (0 when the hole starts
// at 1) and the present number above.
func (h *holes) classify(b *base, below, above int, uploads []numbered) {
	if !b.builds[above].keptArchiveNumber {
		h.deletion = true
		return
	}
	from := b.builds[below].version
	if from == "" {
		from = b.name + "-" + strconv.Itoa(below)
	}
	jump := from + " -> " + b.builds[above].version
	var missing []string
	for _, u := range uploads {
		if u.number > below && u.number < above && !slices.Contains(missing, u.version) {
			missing = append(missing, u.version)
		}
	}
	if len(missing) == 0 {
		h.jumps = append(h.jumps, jump)
		return
	}
	h.losses = append(h.losses, loss{jump: jump, missing: missing})
}

type numbered struct {
	number  int
	version string
}

// uploadsByBase is this machine's numbered uploads of the project by base,
// ascending by number.
func uploadsByBase(reg registry.Entries, projectID string) map[string][]numbered {
	out := map[string][]numbered{}
	for i := range reg {
		e := &reg[i]
		if projectID == "" || e.ProjectID != projectID {
			continue
		}
		if name, n, ok := registry.SplitVersion(e.Version); ok {
			out[name] = append(out[name], numbered{n, e.Version})
		}
	}
	for _, us := range out {
		slices.SortStableFunc(us, func(a, b numbered) int { return a.number - b.number })
	}
	return out
}
