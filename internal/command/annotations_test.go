package command

import (
	"strings"
	"testing"
)

// TestAnnotationsAreCheckedWhenTheCatalogIsBuilt: a command declared
// read-only that destroys or writes files does not get into a catalog.
func TestAnnotationsAreCheckedWhenTheCatalogIsBuilt(t *testing.T) {
	for _, bad := range []*Command{
		{Tool: "wipe", ReadOnly: true, Destructive: true},
		{Tool: "save", ReadOnly: true, WritesFiles: true},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), bad.Tool) {
					t.Errorf("%s: %v", bad.Tool, r)
				}
			}()
			(&Catalog{}).Add(bad)
		}()
	}
	(&Catalog{}).Add(&Command{Tool: "look", ReadOnly: true, Idempotent: true})
}
