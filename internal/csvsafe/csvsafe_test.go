package csvsafe

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// TestCell: cells that begin with a formula character or a quote get a
// quote in front, others stay; Unquote gives back every one.
func TestCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Ivan Petrov", "Ivan Petrov"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"@SUM(A1:A9)", "'@SUM(A1:A9)"},
		{"+1", "'+1"},
		{"-2+3", "'-2+3"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"'quoted", "''quoted"},
		{"a=b", "a=b"},
		{"12", "12"},
	} {
		if got := Cell(c.in); got != c.want {
			t.Errorf("Cell(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := Unquote(Cell(c.in)); back != c.in {
			t.Errorf("Unquote(Cell(%q)) = %q", c.in, back)
		}
	}
	if got := Unquote("'abc"); got != "'abc" {
		t.Errorf("Unquote of a quote before a letter: %q", got)
	}
}

// TestWriter: every cell of a row written goes through Cell, and the
// file reads back as CSV.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.Write([]string{"=1+1", "ok", "@x"}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0][0] != "'=1+1" || rows[0][1] != "ok" || rows[0][2] != "'@x" {
		t.Fatalf("rows %q", rows)
	}
}

// FuzzCell: Unquote undoes Cell for any string, and no cell Cell returns
// begins with a formula character.
func FuzzCell(f *testing.F) {
	for _, s := range []string{"", "=x", "'", "''=", "-", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Cell(s)
		if Unquote(c) != s {
			t.Fatalf("Unquote(Cell(%q)) = %q", s, Unquote(c))
		}
		if c != "" {
			switch c[0] {
			case '=', '+', '-', '@', '\t', '\r':
				t.Fatalf("Cell(%q) = %q begins with a formula character", s, c)
			}
		}
	})
}
