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

// TestCommandsThatWriteFilesSayIt: every core command that takes a path to
// write to (an output) is declared WritesFiles, so none of them passes for
// read-only.
func TestCommandsThatWriteFilesSayIt(t *testing.T) {
	for _, c := range Core().Commands() {
		for _, args := range [][]Argument{c.Args, c.ToolArgs} {
			for _, a := range args {
				if (a.Name == "output" || a.Name == "output_dir") && !c.WritesFiles {
					t.Errorf("%s takes %s but is not declared WritesFiles", c.Name(), a.Name)
				}
			}
		}
		if c.ReadOnly && (c.WritesFiles || c.Destructive) {
			t.Errorf("%s: read-only and writing", c.Name())
		}
	}
}
