package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// keyShape is what a message key looks like: "area.name" or
// "area.group.name", lower case with dashes; fileName is a file name of
// the same shape ("mcp.json").
var (
	keyShape = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+(-[a-z0-9]+)*)+$`)
	fileName = regexp.MustCompile(`\.(json|yaml|yml|env|txt)$`)
)

// Every message key the program's code names is registered: a string of a
// key's shape in an area of the catalog ("cli.", "deploy.", …) anywhere in
// the Go sources (tests aside) – a call of i18n.T, a platform error, a
// command's Help – must be in the catalog main registers, or the user
// would see the key instead of a message. Keys built at run time ("schema."
// + code) are checked by the tests of their area.
func TestEveryMessageKeyUsedIsRegistered(t *testing.T) {
	registerMessages()
	areas := map[string]bool{}
	for _, m := range i18n.Messages() {
		area, _, _ := strings.Cut(m.Key, ".")
		areas[area] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Key" {
					return false // a table's own entry, not a use
				}
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !keyShape.MatchString(s) || fileName.MatchString(s) {
				return true
			}
			area, _, _ := strings.Cut(s, ".")
			if !areas[area] {
				return true
			}
			checked++
			if !i18n.Has(s) {
				t.Errorf("%s: %q is no registered message", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d keys checked", checked)
	if checked < 500 {
		t.Fatalf("only %d keys were found in the sources; the scan is not reading them", checked)
	}
}
