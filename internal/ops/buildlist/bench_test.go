package buildlist

import (
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
