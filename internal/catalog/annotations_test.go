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

// TestEveryTypedInputReadsDeclaredArguments: no core command's handler
// reads an argument its declaration lacks (Catalog.Check; the program
// itself does not check at start).
func TestEveryTypedInputReadsDeclaredArguments(t *testing.T) {
	cat := Core()
	if err := cat.Check(); err != nil {
		t.Fatal(err)
	}
	if len(cat.Commands()) < 50 {
		t.Fatalf("the core catalog has %d commands", len(cat.Commands()))
	}
}
