package buildlist

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

// A listing read as the answer arrives shows the same newest cards, in the
// same order, and the same summary as the whole list decoded and sorted –
// with ties in created and in the counters, holes, builds uploaded without
// a project id, an extension's kind, more cards than a block of the
// listing holds – whatever the limit.
func TestListingAsItArrivesIsTheSortedList(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cards []*jsonx.Object
	for n := 1; len(cards) < 9000; n++ {
		if n%17 == 0 {
			continue // housekeeping took it
		}
		base := []string{"1.0", "2.0"}[rng.IntN(2)]
		v := fmt.Sprintf("%s-%d", base, n)
		if n%13 == 0 {
			v = fmt.Sprintf("%s-%04d", base, n-rng.IntN(3)) // leading zeros, often a number given before
		}
		created := randomStamp(rng)
		c := card(buildID(v), v, created, "project-kind", "Extension", "note", "ё\"\n")
		if n%50 == 0 {
			c = card(buildID(v), "probe-"+v, created)
		}
		cards = append(cards, c)
	}
	var reg []registry.Entry
	for i, c := range cards {
		if i%7 == 0 {
			route := registry.RouteProject
			if i%21 == 0 {
				route = registry.RouteNoProjectID
			}
			reg = append(reg, registry.Entry{AssemblyID: ID(c), ProjectID: project, Version: Version(c), Route: route})
		}
	}
	// As generated, oldest first (as the platform lists them: each card
	// is newer than every card kept) and newest first (each is older).
	oldestFirst := append([]*jsonx.Object(nil), cards...)
	Sort(oldestFirst)
	newestFirst := slices.Clone(oldestFirst)
	slices.Reverse(oldestFirst)
	for _, arranged := range [][]*jsonx.Object{cards, oldestFirst, newestFirst} {
		listingIsTheSortedList(t, arranged, reg)
	}
}

// The platform lists builds oldest first, and a listing keeps the newest
// as a ring while they come so (see Listing.keep): a card that comes late
// (after one to a dozen newer ones), wherever the ring then has its
// oldest card, still leaves the listing with the newest cards, sorted.
func TestListingKeepsTheNewestWhenACardComesLate(t *testing.T) {
	var oldestFirst []*jsonx.Object
	for n := 1; n <= 120; n++ {
		v := fmt.Sprintf("1.0-%d", n)
		oldestFirst = append(oldestFirst, card(buildID(v), v, fmt.Sprintf("2025-01-01T10:%02d:%02dZ", n/60, n%60)))
	}
	for _, limit := range []int{1, 3, 10, 50, 0, -1} {
		for late := 0; late < len(oldestFirst)-1; late++ {
			for by := 1; by <= 12 && late+by < len(oldestFirst); by++ {
				arranged := slices.Insert(slices.Delete(slices.Clone(oldestFirst), late, late+1), late+by, oldestFirst[late])
				text, err := jsonx.Compact(arranged)
				if err != nil {
					t.Fatal(err)
				}
				l := NewListing(limit, nil)
				if err := jsonx.EachElement(bytes.NewReader(text), nil, l.Add); err != nil {
					t.Fatal(err)
				}
				got, err := l.Newest()
				if err != nil {
					t.Fatal(err)
				}
				want := slices.Clone(oldestFirst)
				slices.Reverse(want)
				if limit > 0 {
					want = want[:limit]
				}
				if a, b := versions(got), versions(want); !slices.Equal(a, b) {
					t.Fatalf("limit %d, card %d comes %d late: newest %v, want %v", limit, late, by, a, b)
				}
			}
		}
	}
}

func versions(cards []*jsonx.Object) []string {
	var out []string
	for _, c := range cards {
		out = append(out, Version(c))
	}
	return out
}

func listingIsTheSortedList(t *testing.T, cards []*jsonx.Object, reg []registry.Entry) {
	t.Helper()
	text, err := jsonx.Compact(cards)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, -1, 1, 10, 8999, 9000, 20000} {
		l := NewListing(limit, registry.Entries(reg).ByAssembly())
		l.Add("", rawCard(t, `{"id":"started-over"}`)) // a broken answer's card, then the answer again
		l.Begin()
		if err := jsonx.EachElement(bytes.NewReader(text), nil, l.Add); err != nil {
			t.Fatal(err)
		}
		got, err := l.Newest()
		if err != nil {
			t.Fatal(err)
		}
		sorted := append([]*jsonx.Object(nil), cards...)
		Sort(sorted)
		want := sorted
		if limit > 0 && limit < len(want) {
			want = want[:limit]
		}
		a, _ := jsonx.Compact(got)
		b, _ := jsonx.Compact(want)
		if !bytes.Equal(a, b) {
			t.Fatalf("limit %d: newest %d cards differ from the sorted list's first %d", limit, len(got), len(want))
		}
		if l.Total() != len(cards) || l.Kind() != "Extension" {
			t.Errorf("limit %d: total %d kind %q", limit, l.Total(), l.Kind())
		}
		if gotLine, wantLine := l.Summary(context.Background(), len(got), true, project, reg), Summary(context.Background(), sorted, len(want), true, project, reg); gotLine != wantLine {
			t.Errorf("limit %d: summary\n%s\nwant\n%s", limit, gotLine, wantLine)
		}
	}
}

// randomStamp is a created stamp in one of the layouts a listing keeps
// compactly, or in another, or none, with many ties.
func randomStamp(rng *rand.Rand) string {
	m, sec := rng.IntN(3), rng.IntN(60)
	switch rng.IntN(6) {
	case 0:
		return fmt.Sprintf("2025-01-01T10:%02d:%02d.%03dZ", m, sec, rng.IntN(3)*500)
	case 1:
		return fmt.Sprintf("2025-01-01T10:%02d:%02dZ", m, sec)
	case 2:
		return fmt.Sprintf("2025-01-01 10:%02d", m) // another layout: kept aside
	case 3:
		if rng.IntN(10) == 0 {
			return ""
		}
	}
	return fmt.Sprintf("2025-01-01T10:%02d:%02d+03:00", m, sec)
}

// A created stamp's key compares with another's as the two texts do, in
// the compact layouts and out of them, and gives its text back.
func TestCreatedKeysSortAsTheirTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var a aside
	stamps := []string{"", "2025-01-01T10:00:00Z", "2025-01-01T10:00:00.000Z", "2025-01-01T09:59:59.999Z",
		"9999-12-31T23:59:59.999Z", "0000-00-00T00:00:00Z", "2025-01-01T10:00:00+03:00", "2025-01-01T10:00:00-03:00",
		"2025-01-01T1x:00:00Z", "2025-01-01T10:00:00.000000Z"}
	for range 300 {
		stamps = append(stamps, randomStamp(rng))
	}
	keys := make([]createdKey, len(stamps))
	for i, s := range stamps {
		keys[i] = a.created([]byte(s))
		if got := string(keys[i].appendText(nil, &a)); got != s {
			t.Fatalf("%q comes back as %q", s, got)
		}
	}
	compact := 0
	for i := range stamps {
		if keys[i]&createdAside == 0 {
			compact++
		}
		for j := range stamps {
			if got, want := compareCreated(keys[i], keys[j], &a), bytes.Compare([]byte(stamps[i]), []byte(stamps[j])); got != want {
				t.Fatalf("%q vs %q: %d, want %d", stamps[i], stamps[j], got, want)
			}
		}
	}
	if compact < len(stamps)/2 || len(a.stamps) == 0 {
		t.Fatalf("%d compact of %d, %d aside: the test does not try both ways", compact, len(stamps), len(a.stamps))
	}
}

// A stamp is read compactly exactly when it is in one of createdLayouts,
// digit for digit: every byte of each layout, and one past its end,
// replaced by each byte that matters.
func TestCompactCreatedReadsTheLayouts(t *testing.T) {
	// byLayout reads a stamp against the layouts' text, the definition.
	byLayout := func(stamp []byte) (createdKey, bool) {
	layouts:
		for i, layout := range createdLayouts {
			if len(stamp) != len(layout) {
				continue
			}
			var digits uint64
			for j := range len(layout) {
				c := stamp[j]
				switch {
				case layout[j] != '0':
					if c != layout[j] {
						continue layouts
					}
				case c >= '0' && c <= '9':
					digits = digits*10 + uint64(c-'0')
				default:
					continue layouts
				}
			}
			return createdKey(uint64(i+1)<<createdLayout | digits), true
		}
		return 0, false
	}
	tried, compact := 0, 0
	for _, layout := range createdLayouts {
		stamp := []byte(strings.ReplaceAll(layout, "0", "7"))
		variants := [][]byte{stamp, append(slices.Clone(stamp), 'Z'), stamp[:len(stamp)-1]}
		for at := range stamp {
			for _, c := range []byte("09/:-T.Z+ \x00\xff") {
				v := slices.Clone(stamp)
				v[at] = c
				variants = append(variants, v)
			}
		}
		for _, v := range variants {
			got, gotOK := compactCreated(v)
			want, wantOK := byLayout(v)
			if got != want || gotOK != wantOK {
				t.Fatalf("%q: %x %v, want %x %v", v, got, gotOK, want, wantOK)
			}
			tried++
			if gotOK {
				compact++
			}
		}
	}
	if compact < 100 || compact == tried {
		t.Fatalf("%d of %d stamps compact: the test does not try both ways", compact, tried)
	}
}

// rawCard is one card as a list reader hands it out.
func rawCard(t *testing.T, text string) *jsonx.RawObject {
	t.Helper()
	var out *jsonx.RawObject
	if err := jsonx.EachElement(bytes.NewReader([]byte("["+text+"]")), nil, func(_ string, o *jsonx.RawObject) error {
		out = o
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A project is an extension when any of its build cards says so, wherever
// that card comes in the answer; otherwise the first kind named counts.
func TestListingKindIsExtensionWhenAnyCardSaysSo(t *testing.T) {
	for _, tc := range []struct {
		kinds []string
		want  string
	}{
		{[]string{"", "Configuration", "Extension"}, "Extension"},
		{[]string{"Extension", "Configuration"}, "Extension"},
		{[]string{"", "Configuration", ""}, "Configuration"},
		{[]string{"", ""}, ""},
	} {
		l := NewListing(10, nil)
		for i, k := range tc.kinds {
			text := fmt.Sprintf(`{"id":"b%d","version":"1.0-%d"}`, i, i+1)
			if k != "" {
				text = fmt.Sprintf(`{"id":"b%d","version":"1.0-%d","project-kind":%q}`, i, i+1, k)
			}
			if err := l.Add("", rawCard(t, text)); err != nil {
				t.Fatal(err)
			}
		}
		if l.Kind() != tc.want {
			t.Errorf("kinds %q: Kind %q, want %q", tc.kinds, l.Kind(), tc.want)
		}
	}
}
