// Package funclen checks that no hand-written function of the module is
// longer than maxLines, counted from func to its closing brace.
package funclen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the longest a function may be; a longer one is split into
// named steps.
const maxLines = 100

// TestNoLongFunctions parses every non-test, non-generated Go file of the
// module and fails on each function over maxLines.
func TestNoLongFunctions(t *testing.T) {
	if raceEnabled {
		t.Skip("parses every source file from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	root := "../.."
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, long := range longFunctions(fset, f) {
			t.Errorf("%s:%s: split it into named steps", rel, long)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files found under %s: the walk is broken", files, root)
	}
}

// TestLongFunctionsBite: a function of maxLines+1 lines is reported and
// one of maxLines is not, so that TestNoLongFunctions cannot pass by
// measuring nothing.
func TestLongFunctionsBite(t *testing.T) {
	body := func(name string, lines int) string {
		return "func " + name + "() {\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	src := "package p\n\n" + body("fits", maxLines) + body("tooLong", maxLines+1)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := longFunctions(fset, f)
	if len(got) != 1 || !strings.Contains(got[0], "tooLong is 101 lines") {
		t.Errorf("reported %q, want only tooLong at 101 lines", got)
	}
}

// longFunctions describes each function of f over maxLines as
// "LINE: NAME is N lines, over maxLines".
func longFunctions(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
		if n > maxLines {
			out = append(out, fmt.Sprintf("%d: %s is %d lines, over %d", fset.Position(fd.Pos()).Line, funcName(fd), n, maxLines))
		}
	}
	return out
}

// funcName returns fd's name, with its receiver's type for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return fmt.Sprintf("%s.%s", recvType(fd.Recv.List[0].Type), fd.Name.Name)
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(t.X)
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
