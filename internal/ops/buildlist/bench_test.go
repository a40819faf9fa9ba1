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

// BenchmarkListing2000Cards is one builds listing of a long-lived project:
// 2,000 cards in platform order, this machine's registry of 1,000 lines.
func BenchmarkListing2000Cards(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var cards []*jsonx.Object
	for n := 1; len(cards) < 1500; n++ {
		if n%40 == 0 { // housekeeping took some
			continue
		}
		v := fmt.Sprintf("1.0-%d", n)
		cards = append(cards, card(buildID(v), v, fmt.Sprintf("2025-01-01T%02d:%02d:%02d+03:00", n/3600, n/60%60, n%60)))
	}
	for n := 1; n <= 500; n++ {
		v := fmt.Sprintf("2.0-%d", n)
		cards = append(cards, card(buildID(v), v, fmt.Sprintf("2025-02-01T%02d:%02d:%02d+03:00", n/3600, n/60%60, n%60)))
	}
	rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	var reg []registry.Entry
	for i := 0; i < 1000; i++ {
		v := fmt.Sprintf("1.0-%d", 600+i)
		route := registry.RouteProject
		if i%100 == 0 {
			route = registry.RouteNoProjectID
		}
		reg = append(reg, registry.Entry{AssemblyID: buildID(v), ProjectID: project, Version: v, Branch: "main",
			Commit: "0123456789abcdef", Dirty: registry.Bool(false), ProjectDir: registry.String("/home/u/crm"),
			Command: registry.CommandDeploy, Route: route})
	}
	listing := make([]*jsonx.Object, len(cards))
	b.ResetTimer()
	for b.Loop() {
		copy(listing, cards)
		Sort(listing)
		index := registry.Entries(reg).ByAssembly()
		for _, c := range listing {
			Brief(c, index)
		}
		if Summary(ctx, listing, len(listing), false, project, reg) == "" {
			b.Fatal("no summary")
		}
	}
}

// BenchmarkListingStream50000Cards is what `builds list` does with a
// project of 50,000 builds once the answer arrives: every card read as it
// comes (Listing.Add), the newest ten decoded and the summary over all.
func BenchmarkListingStream50000Cards(b *testing.B) {
	var text []byte
	text = append(text, '[')
	for n := 1; n <= 50000; n++ {
		if n > 1 {
			text = append(text, ',')
		}
		v := fmt.Sprintf("1.0-%d", n)
		text = fmt.Appendf(text, `{"id":%q,"image-id":%q,"assembly-version":%q,"project-version":%q,"created":"2026-12-03T20:%02d:%02d.%03dZ","commit-id":null,"branch-name":null,"project-id":%q,"project-developer":"Acme","project-name":"Bulk"}`,
			buildID(v), buildID(v), v, v, n/60000%60, n/1000%60, n%1000, project)
	}
	text = append(text, ']')
	ctx := context.Background()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		l := NewListing(10, nil)
		if err := jsonx.EachElement(bytes.NewReader(text), nil, l.Add); err != nil {
			b.Fatal(err)
		}
		if shown, err := l.Newest(); err != nil || len(shown) != 10 {
			b.Fatal(len(shown), err)
		}
		if l.Summary(ctx, 10, false, project, nil) == "" {
			b.Fatal("no summary")
		}
	}
}
