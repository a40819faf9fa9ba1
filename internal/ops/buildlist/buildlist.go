// Package buildlist holds the pure functions over a project's build cards:
// their order, the brief card, and the summary line that tells whether the
// list is the project's whole build history.
package buildlist

import (
	"context"
	"slices"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
)

// idKeys are the fields a build card may carry its id in, in the order
// they are read.
var idKeys = []string{"id", "image-id", "assembly-id"}

// ID is the build id of a card: the first non-empty of id, image-id and
// assembly-id.
func ID(card jsonx.Fields) string {
	for _, k := range idKeys {
		if s := card.Str(k); s != "" {
			return s
		}
	}
	return ""
}

// Version is the card's version: assembly-version, else project-version.
func Version(card jsonx.Fields) string { return string(versionBytes(card)) }

// versionBytes is Version without a string made (see jsonx.Fields).
func versionBytes(card jsonx.Fields) []byte {
	if v := card.StrBytes("assembly-version"); len(v) > 0 {
		return v
	}
	return card.StrBytes("project-version")
}

// Find is the card among cards whose id is id, or – when id is "" – whose
// version is version; nil when there is none.
func Find(cards []*jsonx.Object, id, version string) *jsonx.Object {
	for _, c := range cards {
		if (id != "" && ID(c) == id) || (id == "" && version != "" && Version(c) == version) {
			return c
		}
	}
	return nil
}

// Counter is the number after the last hyphen of a version; a version
// without a numeric tail (a probe build's "1.0-probe-ab12cd34") counts 0.
func Counter(version string) int {
	_, n, _ := registry.SplitVersion(version)
	return n
}

// Sort orders cards newest first: by created (ISO text in one time zone,
// so it sorts as text), then by the version counter, both descending.
// Cards that tie keep their order.
func Sort(cards []*jsonx.Object) {
	type keyed struct {
		card *jsonx.Object
		order
	}
	keys := make([]keyed, len(cards))
	for i, c := range cards {
		keys[i] = keyed{c, order{created: []byte(c.Str("created")), counter: Counter(Version(c)), at: i}}
	}
	slices.SortFunc(keys, func(a, b keyed) int { return newerFirst(a.order, b.order) })
	for i, k := range keys {
		cards[i] = k.card
	}
}

// Brief is the short card of builds list --brief and of apps get's
// applied-build. Branch and commit come from the card when it has them
// ("platform"), else from this machine's registry line of the build
// ("registry"), else null with a null source; dirty and project-dir are
// known only to the registry.
func Brief(card *jsonx.Object, reg map[string]registry.Entry) *jsonx.Object {
	entry, remembered := lookup(card, reg)
	var id, dirty, projectDir any
	if s := ID(card); s != "" {
		id = s
	}
	if entry.Dirty != nil {
		dirty = *entry.Dirty
	}
	if entry.ProjectDir != nil {
		projectDir = *entry.ProjectDir
	}
	branch, branchSource := sourced(card.Str("branch-name"), entry.Branch, remembered)
	commit, commitSource := sourced(card.Str("commit-id"), entry.Commit, remembered)
	out := briefShape.Clone()
	out.Set("id", id)
	out.Set("assembly-version", card.Value("assembly-version"))
	out.Set("project-version", card.Value("project-version"))
	out.Set("created", card.Value("created"))
	out.Set("branch-name", branch)
	out.Set("branch-name-source", branchSource)
	out.Set("commit-id", commit)
	out.Set("commit-id-source", commitSource)
	out.Set("dirty", dirty)
	out.Set("project-dir", projectDir)
	return out
}

// briefShape holds the brief card's keys in order. Cloning it sizes the
// new card once instead of growing it key by key, which is most of the
// cost of briefing a long listing.
var briefShape = jsonx.New("id", nil, "assembly-version", nil, "project-version", nil, "created", nil,
	"branch-name", nil, "branch-name-source", nil, "commit-id", nil, "commit-id-source", nil,
	"dirty", nil, "project-dir", nil)

// RegistryBrief is the brief card of a build when the platform's list
// cannot be read (apps get's applied-build): what this machine's registry
// remembers of the build, or nil when it remembers nothing. The platform's
// created stamp is unknown, so it stays null.
func RegistryBrief(id string, reg map[string]registry.Entry) *jsonx.Object {
	e, ok := reg[id]
	if id == "" || !ok {
		return nil
	}
	var version any
	if e.Version != "" {
		version = e.Version
	}
	return Brief(jsonx.New("id", id, "assembly-version", version, "project-version", version), reg)
}

// lookup finds the registry line of a card by any of its id fields.
func lookup(card jsonx.Fields, reg map[string]registry.Entry) (registry.Entry, bool) {
	id := registryID(card, reg)
	if id == nil {
		return registry.Entry{}, false
	}
	return reg[string(id)], true
}

// registryID is the id of card, as the card spells it, by which reg knows
// it; nil when reg knows none of its ids.
func registryID(card jsonx.Fields, reg map[string]registry.Entry) []byte {
	if len(reg) == 0 {
		return nil
	}
	for _, k := range idKeys {
		if s := card.StrBytes(k); len(s) > 0 {
			if _, ok := reg[string(s)]; ok {
				return s
			}
		}
	}
	return nil
}

// uploadedWithoutProjectID tells a card this machine uploaded without a
// project id: its number is the archive's own (see Summary). Asked of
// every card of a listing, it reads one field of the registry line in
// place rather than copying the line (two hundred bytes) out.
func uploadedWithoutProjectID(card jsonx.Fields, reg map[string]registry.Entry) bool {
	id := registryID(card, reg)
	return id != nil && reg[string(id)].Route == registry.RouteNoProjectID
}

func sourced(fromCard, fromRegistry string, remembered bool) (value, source any) {
	switch {
	case fromCard != "":
		return fromCard, "platform"
	case remembered && fromRegistry != "":
		return fromRegistry, "registry"
	}
	return nil, nil
}

// CutNote is the line printed after a listing cut by --limit.
func CutNote(ctx context.Context) string { return i18n.T(ctx, "client.builds-cut") }
