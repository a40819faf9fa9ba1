package buildlist

import (
	"cmp"
	"context"
	"slices"
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
	return summaryIn(i18n.LangOf(ctx), cards, shown, extension, projectID, reg)
}

// summaryIn is Summary in lang.
func summaryIn(lang i18n.Lang, cards []*jsonx.Object, shown int, extension bool, projectID string, reg []registry.Entry) string {
	index := registry.Entries(reg).ByAssembly()
	l := make([]listed, len(cards))
	for i, c := range cards {
		e, remembered := lookup(c, index)
		// The cards sort in the order given.
		l[i] = listed{order: order{at: i}, version: Version(c), archiveNumbered: remembered && e.Route == registry.RouteNoProjectID}
	}
	return summarize(lang, listedCards{blocks: [][]listed{l}, size: max(1, len(l)), total: len(l)}, shown, extension, projectID, reg)
}

// summarize is the summary over the cards in any order: where each sorts
// is in its record, whose order.at is its place.
func summarize(lang i18n.Lang, cards listedCards, shown int, extension bool, projectID string, reg []registry.Entry) string {
	counts := []any{"shown", shown, "total", cards.total}
	if cards.total == 0 {
		return i18n.TL(lang, "client.builds-summary-empty", counts...)
	}
	entries := registry.Entries(reg)
	bases := numbering(cards)
	if len(bases) == 0 {
		return i18n.TL(lang, "client.builds-summary-unnumbered", counts...)
	}
	f := findHoles(cards, bases, entries, projectID)

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
	name   string
	newest order          // where its newest card sorts
	builds []numberedCard // ascending by number, one a number
}

// build is a number of a base and its newest card.
type build struct {
	number int
	card   int // the newest card with the number: it spells the version
	// keptArchiveNumber: this machine uploaded a card with this number
	// without a project id, so the number is the archive's own.
	keptArchiveNumber bool
}

// numbering groups the numbered cards by base, bases in the order their
// newest cards sort (newest first). The cards need not be sorted: of
// tens of thousands of cards only the few bases are.
func numbering(cards listedCards) []*base {
	var bases []*base
	byName := map[string]int{}
	// Every base's builds share one slice, sized once: a list of 50,000
	// cards is not copied as it is gathered.
	all := make([]numberedCard, 0, cards.total)
	for at := range cards.total {
		c := cards.at(at)
		name, n, ok := registry.SplitVersion(c.version)
		if !ok {
			continue
		}
		k, seen := byName[name]
		if !seen {
			k = len(bases)
			byName[name] = k
			bases = append(bases, &base{name: name, newest: c.order})
		} else if newerFirst(c.order, bases[k].newest) < 0 {
			bases[k].newest = c.order
		}
		all = append(all, numberedCard{base: k, build: build{number: n, card: at, keptArchiveNumber: c.archiveNumbered}})
	}
	// By base and number, the newest card of a number first; a number is
	// ours when any of its cards is.
	slices.SortFunc(all, func(x, y numberedCard) int {
		if c := cmp.Compare(x.base, y.base); c != 0 {
			return c
		}
		if c := cmp.Compare(x.number, y.number); c != 0 {
			return c
		}
		return newerFirst(cards.at(x.card).order, cards.at(y.card).order)
	})
	distinct := all[:0]
	for _, d := range all {
		if last := len(distinct) - 1; last >= 0 && distinct[last].base == d.base && distinct[last].number == d.number {
			distinct[last].keptArchiveNumber = distinct[last].keptArchiveNumber || d.keptArchiveNumber
			continue
		}
		distinct = append(distinct, d)
	}
	for from := 0; from < len(distinct); {
		to := from + 1
		for to < len(distinct) && distinct[to].base == distinct[from].base {
			to++
		}
		bases[distinct[from].base].builds = distinct[from:to]
		from = to
	}
	slices.SortFunc(bases, func(x, y *base) int { return newerFirst(x.newest, y.newest) })
	return bases
}

// numberedCard is a build of the base numbered k in numbering.
type numberedCard struct {
	base int
	build
}

// listedCards are the records of the cards of a listing, by their place
// in it, held in blocks of size records.
type listedCards struct {
	blocks      [][]listed
	size, total int
}

func (c listedCards) at(i int) *listed { return &c.blocks[i/c.size][i%c.size] }

type loss struct {
	jump    string
	missing []string
}

type holes struct {
	deletion bool     // a hole that is no jump
	jumps    []string // "1.0-3 -> 1.0-500": holes that are only jumps
	losses   []loss   // holes that are a jump and a deletion at once
}

func findHoles(cards listedCards, bases []*base, reg registry.Entries, projectID string) holes {
	uploaded := uploadsByBase(reg, projectID)
	var h holes
	for _, b := range bases {
		for i, above := range b.builds {
			below := 0
			if i > 0 {
				below = b.builds[i-1].number
			}
			if above.number > below+1 {
				h.classify(cards, b, i, uploaded[b.name])
			}
		}
	}
	return h
}

// classify judges the hole below b's build i: between it and the build
// before it, or number 0 for the first.
func (h *holes) classify(cards listedCards, b *base, i int, uploads []numbered) {
	top := b.builds[i]
	if !top.keptArchiveNumber {
		h.deletion = true
		return
	}
	bottom, from := 0, b.name+"-0"
	if i > 0 {
		bottom, from = b.builds[i-1].number, cards.at(b.builds[i-1].card).version
	}
	jump := from + " -> " + cards.at(top.card).version
	var missing []string
	for _, u := range uploads {
		if u.number > bottom && u.number < top.number && !slices.Contains(missing, u.version) {
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
