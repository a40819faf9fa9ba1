package buildlist

import (
	"cmp"
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
	return summaryIn(i18n.LangOf(ctx), cards, shown, extension, projectID, reg)
}

// summaryIn is Summary in lang.
func summaryIn(lang i18n.Lang, cards []*jsonx.Object, shown int, extension bool, projectID string, reg []registry.Entry) string {
	index := registry.Entries(reg).ByAssembly()
	var names baseNames
	var kept aside
	l := make([]listed, len(cards))
	for i, c := range cards {
		// The cards sort in the order given: by place alone.
		l[i] = names.record([]byte(Version(c)), i, &kept)
		names.saw(l[i], order{at: i})
		if uploadedWithoutProjectID(c, index) {
			l[i].flags |= archiveNumbered
		}
	}
	return summarize(lang, listedCards{blocks: [][]listed{l}, size: max(1, len(l)), total: len(l), names: &names, aside: &kept, byPlace: true}, shown, extension, projectID, reg)
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
	newest order // where its newest card sorts
	// builds are its cards by number, ascending, the newest card of a
	// number first, as places in the listing (see distinct).
	builds []uint32
}

// numbering groups the numbered cards by base, bases in the order their
// newest cards sort (newest first). The cards need not be sorted: of
// tens of thousands of cards only the few bases are, and the cards are
// ordered as four bytes each.
func numbering(cards listedCards) []*base {
	bases := make([]*base, len(cards.names.names))
	for k, name := range cards.names.names {
		bases[k] = &base{name: name, newest: cards.names.newest[k]}
	}
	all := make([]uint32, 0, cards.total)
	for at := range cards.total {
		if cards.at(at).is(isNumbered) {
			all = append(all, uint32(at))
		}
	}
	// By base and number, the newest card of a number first.
	slices.SortFunc(all, func(x, y uint32) int {
		a, b := cards.at(int(x)), cards.at(int(y))
		if c := cmp.Compare(a.base, b.base); c != 0 {
			return c
		}
		if c := cmp.Compare(a.number, b.number); c != 0 {
			return c
		}
		return cards.newerFirst(int(x), int(y))
	})
	for from := 0; from < len(all); {
		k := cards.at(int(all[from])).base
		to := from + 1
		for to < len(all) && cards.at(int(all[to])).base == k {
			to++
		}
		bases[k].builds = all[from:to]
		from = to
	}
	slices.SortFunc(bases, func(x, y *base) int { return newerFirst(x.newest, y.newest) })
	return bases
}

// build is a number of a base and its newest card.
type build struct {
	number int
	card   int // the newest card with the number: it spells the version
	// keptArchiveNumber: this machine uploaded a card with this number
	// without a project id, so the number is the archive's own.
	keptArchiveNumber bool
}

// distinct calls fn with each number of b, ascending, and the build
// before it (number 0 and card -1 for the first); a number is ours when
// any of its cards is.
func (b *base) distinct(cards listedCards, fn func(below, above build)) {
	below := build{card: -1}
	for i := 0; i < len(b.builds); {
		c := cards.at(int(b.builds[i]))
		above := build{number: c.number, card: int(b.builds[i]), keptArchiveNumber: c.is(archiveNumbered)}
		for i++; i < len(b.builds) && cards.at(int(b.builds[i])).number == above.number; i++ {
			above.keptArchiveNumber = above.keptArchiveNumber || cards.at(int(b.builds[i])).is(archiveNumbered)
		}
		fn(below, above)
		below = above
	}
}

// listedCards are the records of the cards of a listing, by their place
// in it, held in blocks of size records.
type listedCards struct {
	blocks      [][]listed
	size, total int
	names       *baseNames
	aside       *aside
	// byPlace: the cards are in the order they sort (see summaryIn).
	byPlace bool
}

func (c listedCards) at(i int) *listed { return &c.blocks[i/c.size][i%c.size] }

// newerFirst compares the cards at places i and j as newerFirst does.
func (c listedCards) newerFirst(i, j int) int {
	if !c.byPlace {
		x, y := c.at(i), c.at(j)
		if d := compareCreated(y.created, x.created, c.aside); d != 0 {
			return d
		}
		if d := cmp.Compare(y.number, x.number); d != 0 {
			return d
		}
	}
	return cmp.Compare(i, j)
}

// version is the version of the card at place i.
func (c listedCards) version(i int) string {
	r := c.at(i)
	if r.is(spelledAside) {
		return c.aside.versions[i]
	}
	return c.names.names[r.base] + "-" + strconv.Itoa(r.number)
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

func findHoles(cards listedCards, bases []*base, reg registry.Entries, projectID string) holes {
	uploaded := uploadsByBase(reg, projectID)
	var h holes
	for _, b := range bases {
		b.distinct(cards, func(below, above build) {
			if above.number > below.number+1 {
				h.classify(cards, b, below, above, uploaded[b.name])
			}
		})
	}
	return h
}

// classify judges the hole below top: between it and the build before
// it, or number 0 for the first (bottom.card -1).
func (h *holes) classify(cards listedCards, b *base, bottom, top build, uploads []numbered) {
	if !top.keptArchiveNumber {
		h.deletion = true
		return
	}
	from := b.name + "-0"
	if bottom.card >= 0 {
		from = cards.version(bottom.card)
	}
	jump := from + " -> " + cards.version(top.card)
	var missing []string
	for _, u := range uploads {
		if u.number > bottom.number && u.number < top.number && !slices.Contains(missing, u.version) {
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
