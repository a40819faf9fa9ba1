package buildlist

import (
	"bytes"
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
// needs – where it sorts, its version's base and number, whether this
// machine uploaded it without a project id – in a record of 24 bytes, and
// of the newest limit cards (all of them with limit 0) the text, decoded
// at the end. The other cards' text is never kept nor decoded: the ten
// newest of 50,000 builds cost ten cards and 1.2 MB of records.
type Listing struct {
	limit int
	index map[string]registry.Entry

	// listed grows by blocks of listedBlock records, so a long list's
	// records are never copied as it grows; total counts them.
	listed [][]listed
	total  int
	newest keptCards // the newest limit cards: a ring or a heap (see keep)
	ring   int       // where the ring's oldest card is; -1 once newest is a heap
	kind   string
	names  baseNames
	// aside holds what the records cannot: created stamps of another
	// layout than the platform's usual ones, versions not spelled
	// base-number (see listed).
	aside aside
}

// listedBlock is how many cards' records a block of Listing.listed holds.
const listedBlock = 4096

// listed is what a listing keeps of every card. Where it sorts is its
// created stamp, its version's number and its place (see newerFirst); its
// version is its base's name, a hyphen and the number, unless it is
// spelled otherwise (then the spelling is set aside, by place).
type listed struct {
	created createdKey
	number  int    // the version's counter (Counter), 0 when it has none
	base    uint32 // the base's place in baseNames, for a numbered card
	flags   uint8
}

const (
	isNumbered      = 1 << iota // the version is a base and a number
	archiveNumbered             // this machine uploaded it without a project id: its number is the archive's own (see Summary)
	spelledAside                // its version is not base-number: the spelling is in aside.versions
)

func (c *listed) is(flag uint8) bool { return c.flags&flag != 0 }

// order is where a card sorts: newest first by created (ISO text in one
// time zone, so it sorts as text), then by the version's counter, both
// descending; cards that tie keep the platform's order (at).
type order struct {
	created []byte
	key     createdKey // created's key in the listing (see createdKey), else 0
	counter int
	at      int
}

func newerFirst(a, b order) int {
	// Two keys of one layout compare as their texts do, without reading
	// them: a listing compares every card with the cards it keeps.
	if a.key != 0 && a.key&createdAside == 0 && a.key>>createdLayout == b.key>>createdLayout {
		if c := cmp.Compare(b.key, a.key); c != 0 {
			return c
		}
	} else if c := bytes.Compare(b.created, a.created); c != 0 {
		return c
	}
	if c := cmp.Compare(b.counter, a.counter); c != 0 {
		return c
	}
	return cmp.Compare(a.at, b.at)
}

// keep is o with a created the order owns, in buf's room.
func (o order) keep(buf []byte) order {
	o.created = append(buf[:0], o.created...)
	return o
}

// NewListing starts a listing that keeps the newest limit cards (0 or
// less: all, as --limit -1 shows them); index is this machine's registry
// by build id.
func NewListing(limit int, index map[string]registry.Entry) *Listing {
	l := &Listing{limit: max(limit, 0), index: index}
	l.Begin()
	return l
}

// Begin starts over: the answer is read again from its start.
func (l *Listing) Begin() {
	l.listed, l.total, l.newest, l.ring, l.kind = l.listed[:0], 0, l.newest[:0], 0, ""
	l.names, l.aside = baseNames{}, aside{}
}

// Add takes one card of the answer; the list's key does not matter.
func (l *Listing) Add(_ string, card *jsonx.RawObject) error {
	created, version := card.StrBytes("created"), versionBytes(card)
	rec := l.names.record(version, l.total, &l.aside)
	rec.created = l.aside.created(created)
	o := order{created: created, key: rec.created, counter: rec.number, at: l.total}
	l.names.saw(rec, o)
	if uploadedWithoutProjectID(card, l.index) {
		rec.flags |= archiveNumbered
	}
	if n := len(l.listed); n == 0 || len(l.listed[n-1]) == listedBlock {
		l.listed = append(l.listed, make([]listed, 0, listedBlock))
	}
	block := &l.listed[len(l.listed)-1]
	*block = append(*block, rec)
	l.total++
	if !strings.EqualFold(l.kind, "Extension") {
		if kind := card.StrBytes("project-kind"); len(kind) > 0 && (l.kind == "" || strings.EqualFold(string(kind), "Extension")) {
			l.kind = string(kind)
		}
	}
	l.keep(o, card.Text())
	return nil
}

// keep keeps a card's text when it is among the newest limit cards so far.
//
// The platform lists builds oldest first, so each card is newer than every
// card kept: while they come so, the kept cards stay sorted oldest first
// as a ring (its oldest at l.ring), and a new card takes the oldest's room
// with two comparisons and no moves. A sorted array is a heap with its
// oldest on top, so the first card out of that order turns the ring back
// into a plain array (the ring's oldest first) and the heap takes over,
// which keeps a shuffled list with a large limit at log(limit) a card.
func (l *Listing) keep(o order, text []byte) {
	if l.ring >= 0 && (len(l.newest) == 0 || newerFirst(o, l.newest[l.newestAt()].order) < 0) {
		if l.limit == 0 || len(l.newest) < l.limit {
			l.newest = append(l.newest, keptCard{order: o.keep(nil), text: slices.Clone(text)})
			return
		}
		l.newest[l.ring].replace(o, text)
		if l.ring++; l.ring == len(l.newest) {
			l.ring = 0
		}
		return
	}
	if l.ring > 0 {
		slices.Reverse(l.newest[:l.ring])
		slices.Reverse(l.newest[l.ring:])
		slices.Reverse(l.newest)
	}
	l.ring = -1
	if l.limit > 0 && len(l.newest) == l.limit {
		if newerFirst(o, l.newest[0].order) >= 0 {
			return // older than every card kept
		}
		// The oldest card kept gives way, and its room, to the new one.
		l.newest[0].replace(o, text)
		l.newest.sink()
		return
	}
	heap.Push(&l.newest, keptCard{order: o.keep(nil), text: slices.Clone(text)})
}

// newestAt is where the ring keeps its newest card.
func (l *Listing) newestAt() int {
	if l.ring == 0 {
		return len(l.newest) - 1
	}
	return l.ring - 1
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
	return summarize(i18n.LangOf(ctx), l.cards(), shown, extension, projectID, reg)
}

func (l *Listing) cards() listedCards {
	return listedCards{blocks: l.listed, size: listedBlock, total: l.total, names: &l.names, aside: &l.aside}
}

// baseNames are the base versions of a listing's numbered cards, each
// with its newest card, in the order they first came.
type baseNames struct {
	byName map[string]uint32
	names  []string
	newest []order // owned: see order.keep
	last   uint32  // the base of the numbered card before: most cards share their neighbour's
}

// record is the record of a card with version at place at: its base and
// number, its spelling set aside when it is not base-number.
func (b *baseNames) record(version []byte, at int, aside *aside) listed {
	name, n, ok := registry.SplitVersionBytes(version)
	if !ok {
		return listed{}
	}
	k, seen := b.last, len(b.names) > 0 && b.names[b.last] == string(name)
	if !seen {
		k, seen = b.byName[string(name)]
	}
	if !seen {
		if b.byName == nil {
			b.byName = map[string]uint32{}
		}
		k = uint32(len(b.names))
		b.byName[string(name)] = k
		b.names = append(b.names, string(name))
		b.newest = append(b.newest, order{at: -1})
	}
	b.last = k
	rec := listed{number: n, base: k, flags: isNumbered}
	if len(version) != len(name)+1+digitsOf(n) {
		// Leading zeros: the number alone does not spell it.
		rec.flags |= spelledAside
		aside.version(at, version)
	}
	return rec
}

// saw notes a numbered card's place among its base's cards.
func (b *baseNames) saw(rec listed, o order) {
	if !rec.is(isNumbered) {
		return
	}
	if cur := &b.newest[rec.base]; cur.at < 0 || newerFirst(o, *cur) < 0 {
		*cur = o.keep(cur.created)
	}
}

// digitsOf is how many digits n is written with.
func digitsOf(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// aside holds the few texts of a listing that its records cannot: created
// stamps of another layout, versions spelled with leading zeros.
type aside struct {
	texts    jsonx.Texts
	stamps   []string
	versions map[int]string
}

func (a *aside) version(at int, v []byte) {
	if a.versions == nil {
		a.versions = map[int]string{}
	}
	a.versions[at] = a.texts.Keep(v)
}

// created is the key of a created stamp, kept here when it has no
// compact form.
func (a *aside) created(stamp []byte) createdKey {
	if k, ok := compactCreated(stamp); ok {
		return k
	}
	a.stamps = append(a.stamps, a.texts.Keep(stamp))
	return createdAside | createdKey(len(a.stamps)-1)
}

// createdKey is a card's created stamp in eight bytes. A stamp in one of
// createdLayouts is its digits read as one number, below the layout's
// number in the top bits: two stamps of one layout compare as their keys
// do, exactly as their texts would. Any other stamp is kept aside
// (createdAside and its place).
type createdKey uint64

const (
	createdAside  createdKey = 1 << 63
	createdLayout            = 61 // the layout's number, from 1, above the digits
)

// createdLayouts are the stamps' usual forms, 0 for a digit; every number
// of digits below 2^61. Each begins with the date and the time to the
// second; compactCreated reads them in this order.
var createdLayouts = [...]string{
	"0000-00-00T00:00:00.000Z",
	"0000-00-00T00:00:00Z",
	"0000-00-00T00:00:00+00:00",
}

// compactCreated is the key of a stamp in one of createdLayouts. Every
// card of a list has one, so it is read in fixed places, a pair of digits
// at a time, not character by character against each layout.
func compactCreated(stamp []byte) (createdKey, bool) {
	if len(stamp) < 20 || stamp[4] != '-' || stamp[7] != '-' || stamp[10] != 'T' || stamp[13] != ':' || stamp[16] != ':' {
		return 0, false
	}
	century, ok1 := digitPair(stamp, 0)
	year, ok2 := digitPair(stamp, 2)
	month, ok3 := digitPair(stamp, 5)
	day, ok4 := digitPair(stamp, 8)
	hour, ok5 := digitPair(stamp, 11)
	minute, ok6 := digitPair(stamp, 14)
	second, ok7 := digitPair(stamp, 17)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) {
		return 0, false
	}
	digits := (((((century*100+year)*100+month)*100+day)*100+hour)*100+minute)*100 + second
	var layout uint64
	switch tail := stamp[19:]; {
	case len(tail) == 5 && tail[0] == '.' && tail[4] == 'Z': // .000Z
		milli, ok1 := digitPair(tail, 1)
		last := uint64(tail[3] - '0')
		if !ok1 || last > 9 {
			return 0, false
		}
		layout, digits = 1, (digits*100+milli)*10+last
	case len(tail) == 1 && tail[0] == 'Z':
		layout = 2
	case len(tail) == 6 && tail[0] == '+' && tail[3] == ':': // +00:00
		hours, ok1 := digitPair(tail, 1)
		minutes, ok2 := digitPair(tail, 4)
		if !ok1 || !ok2 {
			return 0, false
		}
		layout, digits = 3, (digits*100+hours)*100+minutes
	default:
		return 0, false
	}
	return createdKey(layout<<createdLayout | digits), true
}

// digitPair is the number the two digits at b[i:i+2] spell, and whether
// they are digits.
func digitPair(b []byte, i int) (uint64, bool) {
	hi, lo := b[i]-'0', b[i+1]-'0'
	return uint64(hi)*10 + uint64(lo), hi <= 9 && lo <= 9
}

// appendText appends the stamp k stands for.
func (k createdKey) appendText(dst []byte, a *aside) []byte {
	if k&createdAside != 0 {
		return append(dst, a.stamps[k&^createdAside]...)
	}
	layout := createdLayouts[k>>createdLayout-1]
	digits := uint64(k & (1<<createdLayout - 1))
	start := len(dst)
	dst = append(dst, layout...)
	for j := len(layout) - 1; j >= 0; j-- {
		if layout[j] == '0' {
			dst[start+j] = byte('0' + digits%10)
			digits /= 10
		}
	}
	return dst
}

// compareCreated compares two stamps as texts.
func compareCreated(x, y createdKey, a *aside) int {
	if x&createdAside == 0 && y&createdAside == 0 && x>>createdLayout == y>>createdLayout {
		return cmp.Compare(x, y)
	}
	var bx, by [32]byte
	return bytes.Compare(x.appendText(bx[:0], a), y.appendText(by[:0], a))
}

// keptCard is a card's text and where it sorts.
type keptCard struct {
	order
	text []byte
}

// replace puts a card in k's place, in k's room.
func (k *keptCard) replace(o order, text []byte) {
	k.order, k.text = o.keep(k.order.created), append(k.text[:0], text...)
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
