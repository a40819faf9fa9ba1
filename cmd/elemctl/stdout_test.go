package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// stdoutPrograms are programs of their own in the tree, with stdouts of
// their own: a plugin's, the release and benchmark tools'.
var stdoutPrograms = []string{"bench", "examples", "plugin", "internal/benchtable", "internal/dist/mkdist", "internal/plugin/testplugin"}

// stdout belongs to the answer (CLI) or to the protocol (mcp, lsp, dap): the
// process's stdout is handed to the app once, in main, and nothing else in
// elemctl writes to it – no os.Stdout, no fmt.Print, no print – so a stray
// line can never break a protocol stream.
func TestNothingElseWritesToStdout(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			for _, p := range stdoutPrograms {
				if rel == p {
					return filepath.SkipDir
				}
			}
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == "cmd/elemctl/main.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := x.X.(*ast.Ident); ok {
					name := pkg.Name + "." + x.Sel.Name
					if name == "os.Stdout" || strings.HasPrefix(name, "fmt.Print") {
						t.Errorf("%s: %s writes to the process's stdout", fset.Position(x.Pos()), name)
					}
				}
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
					t.Errorf("%s: %s writes to the process's stdout", fset.Position(x.Pos()), id.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Fatalf("only %d files were read", files)
	}
}
