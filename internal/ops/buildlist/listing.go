package buildlist

import (
	"cmp"
	"container/heap"
	"context"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

// Listing gathers a project's build list as the platform's answer arrives
// (see platform.Client.ListEach): of every card what the summary line
// needs – its version, where it sorts, whether this machine uploaded it
// without a project id – and of the newest limit cards (all of them with
// limit 0) the text, decoded at the end. The other cards' text is never
// kept nor decoded: the ten newest of 50,000 builds cost ten cards.
type Listing struct {
	limit int
	index map[string]registry.Entry

	// listed grows by blocks of listedBlock records, so a long list's
	// records are never copied as it grows; total counts them.
	listed [][]listed
	total  int
	newest keptCards // the newest limit cards, the oldest of them on top
	kind   string
	// texts holds the created and version kept of every card.
	texts jsonx.Texts
}

// listedBlock is how many cards' records a block of Listing.listed holds.
const listedBlock = 4096

// listed is what a listing keeps of every card.
type listed struct {
	order
	version string
	// archiveNumbered: this machine uploaded the card without a project
	// id, so its number is the archive's own (see Summary).
	archiveNumbered bool
}

// order is where a card sorts: newest first by created (ISO text in one
// time zone, so it sorts as text), then by the version's counter, both
// descending; cards that tie keep the platform's order (at).
type order struct {
	created string
	counter int
	at      int
}

func newerFirst(a, b order) int {
	if c := cmp.Compare(b.created, a.created); c != 0 {
		return c
	}
	if c := cmp.Compare(b.counter, a.counter); c != 0 {
		return c
	}
	return cmp.Compare(a.at, b.at)
}

// NewListing starts a listing that keeps the newest limit cards (0: all);
// index is this machine's registry by build id.
func NewListing(limit int, index map[string]registry.Entry) *Listing {
	l := &Listing{limit: limit, index: index}
	l.Begin()
	return l
}

// Begin starts over: the answer is read again from its start.
func (l *Listing) Begin() {
	l.listed, l.total, l.newest, l.kind = l.listed[:0], 0, l.newest[:0], ""
	l.texts = jsonx.Texts{}
}

// Add takes one card of the answer; the list's key does not matter.
func (l *Listing) Add(_ string, card *jsonx.RawObject) error {
	// Of every card its created and version are kept, in one string.
	created, version := card.StrBytes("created"), versionBytes(card)
	both := l.texts.Keep(created, version)
	o := order{created: both[:len(created)], counter: Counter(both[len(created):]), at: l.total}
	e, remembered := lookup(card, l.index)
	if n := len(l.listed); n == 0 || len(l.listed[n-1]) == listedBlock {
		l.listed = append(l.listed, make([]listed, 0, listedBlock))
	}
	block := &l.listed[len(l.listed)-1]
	l.total++
	*block = append(*block, listed{order: o, version: both[len(created):],
		archiveNumbered: remembered && e.Route == registry.RouteNoProjectID})
	if !strings.EqualFold(l.kind, "Extension") {
		if kind := card.StrBytes("project-kind"); len(kind) > 0 && (l.kind == "" || strings.EqualFold(string(kind), "Extension")) {
			l.kind = string(kind)
		}
	}
	if l.limit > 0 && len(l.newest) == l.limit {
		if newerFirst(o, l.newest[0].order) >= 0 {
			return nil // older than every card kept
		}
		// The oldest card kept gives way, and its buffer, to the new one.
		oldest := &l.newest[0]
		oldest.order, oldest.text = o, append(oldest.text[:0], card.Text()...)
		l.newest.sink()
		return nil
	}
	heap.Push(&l.newest, keptCard{order: o, text: slices.Clone(card.Text())})
	return nil
}

// Total is how many cards the answer held.
func (l *Listing) Total() int { return l.total }

// Kind is the project kind the cards say they belong to (project-kind):
// Extension when any card says so, else the first kind a card names, ""
// when none says.
func (l *Listing) Kind() string { return l.kind }

// Newest are the cards kept, decoded, newest first.
func (l *Listing) Newest() ([]*jsonx.Object, error) {
	kept := slices.Clone(l.newest)
	slices.SortFunc(kept, func(a, b keptCard) int { return newerFirst(a.order, b.order) })
	out := make([]*jsonx.Object, len(kept))
	for i, k := range kept {
		v, err := jsonx.Decode(k.text)
		if err != nil {
			return nil, err
		}
		out[i], _ = v.(*jsonx.Object)
	}
	return out, nil
}

// Summary is the line after the listing (see Summary) over every card the
// answer held.
func (l *Listing) Summary(ctx context.Context, shown int, extension bool, projectID string, reg []registry.Entry) string {
	return summarize(i18n.LangOf(ctx), listedCards{blocks: l.listed, size: listedBlock, total: l.total}, shown, extension, projectID, reg)
}

// keptCard is a card's text and where it sorts.
type keptCard struct {
	order
	text []byte
}

// sink moves the top card down to its place: heap.Fix(h, 0) without an
// interface's calls, which a card newer than all kept costs every time.
func (h keptCards) sink() {
	for i := 0; ; {
		older := 2*i + 1
		if older >= len(h) {
			return
		}
		if right := older + 1; right < len(h) && h.Less(right, older) {
			older = right
		}
		if !h.Less(older, i) {
			return
		}
		h[i], h[older] = h[older], h[i]
		i = older
	}
}

// keptCards is a heap with the oldest card on top.
type keptCards []keptCard

func (h keptCards) Len() int           { return len(h) }
func (h keptCards) Less(i, j int) bool { return newerFirst(h[i].order, h[j].order) > 0 }
func (h keptCards) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keptCards) Push(x any)        { *h = append(*h, x.(keptCard)) }
func (h *keptCards) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
