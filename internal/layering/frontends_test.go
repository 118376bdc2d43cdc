package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// frontEnds are the packages that answer checks: the command line, the
// HTTP server, the workbench and the assembly of serve. They open their
// database with package screen and reach the engine index through it.
var frontEnds = []string{"cmd/amlscreen", "server", "service", "ui"}

// indexBuilders are the engine's constructors of an index. Only screen
// (and the benchmarks and generators, which are no front end) call them,
// so the index a check searches always comes with its version, catalogue
// and store.
var indexBuilders = []string{"NewIndex", "NewBuilder", "NewSegmentBuilder", "NewPersisted"}

// builtIndexes returns the calls of f (a file of package pkg) to an
// engine index constructor, one line each.
func builtIndexes(fset *token.FileSet, pkg string, f *ast.File) []string {
	name := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == module+"engine" {
			name = "engine"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" || name == "_" {
		return nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && slices.Contains(indexBuilders, sel.Sel.Name) {
			pos := fset.Position(sel.Pos())
			out = append(out, pkg+"/"+filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)+" calls engine."+sel.Sel.Name+": a front end opens its index with screen")
		}
		return true
	})
	return out
}

// TestFrontEndsScreenThroughScreen: no front end builds an engine index of
// its own; tests are free to.
func TestFrontEndsScreenThroughScreen(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, pkg := range frontEnds {
		dir := filepath.Join(root, filepath.FromSlash(pkg))
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("front end %s: %v", pkg, err)
		}
		files := 0
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, v := range builtIndexes(fset, pkg, f) {
				t.Error(v)
			}
		}
		if files == 0 {
			t.Fatalf("front end %s: no Go files in %s", pkg, dir)
		}
	}
}

// TestBuiltIndexesBite: the check finds a constructor called through the
// package's name or another, and nothing in a file without one, so that
// TestFrontEndsScreenThroughScreen cannot pass by matching nothing.
func TestBuiltIndexesBite(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`package p
import "github.com/amlscreen/amlscreen/engine"
func f() { _ = engine.NewIndex(nil); _ = engine.ErrBusy }`,
			[]string{"p/p.go:3 calls engine.NewIndex: a front end opens its index with screen"}},
		{`package p
import eng "github.com/amlscreen/amlscreen/engine"
var b = eng.NewBuilder
func g() { eng.NewPersisted(nil, nil, nil) }`,
			[]string{"p/p.go:3 calls engine.NewBuilder: a front end opens its index with screen", "p/p.go:4 calls engine.NewPersisted: a front end opens its index with screen"}},
		{`package p
import "github.com/amlscreen/amlscreen/screen"
func f() { screen.New(nil, nil, "") }`, nil},
		{`package p
import "github.com/amlscreen/amlscreen/engine"
type engineLike struct{}
func (engineLike) NewIndex() {}
func f(e engineLike) { e.NewIndex(); _ = engine.Explain }`, nil},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", tt.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if got := builtIndexes(fset, "p", f); !slices.Equal(got, tt.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.src, got, tt.want)
		}
	}
}
