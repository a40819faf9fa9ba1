package catalog

import (
	"testing"

	"github.com/elemctl/elemctl/internal/command"
)

// TestCommandsThatWriteFilesSayIt: every core command that takes a path to
// write to (an output) is declared WritesFiles, so none of them passes for
// read-only.
func TestCommandsThatWriteFilesSayIt(t *testing.T) {
	for _, c := range Core().Commands() {
		for _, args := range [][]command.Argument{c.Args, c.ToolArgs} {
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
