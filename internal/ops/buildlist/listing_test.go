package buildlist

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
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
		created := fmt.Sprintf("2025-01-01T10:%02d:%02d+03:00", rng.IntN(3), rng.IntN(60)) // many ties
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
	text, err := jsonx.Compact(cards)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, 1, 10, 8999, 9000, 20000} {
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
