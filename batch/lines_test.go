package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lines only, screens no one; Run says so instead of finishing clean.
func TestNoRowsIsAnError(t *testing.T) {
	ix := mustFixtureIndex(t)
	dir := t.TempDir()
	for name, book := range map[string]string{
		"header only":      "id,name\n",
		"header, blanks":   "id,name\n\n  \n,\n",
		"blank lines only": "\n\n",
		"empty":            "",
	} {
		in := filepath.Join(dir, "book.csv")
		os.WriteFile(in, []byte(book), 0o644)
		_, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: filepath.Join(dir, "hits.csv")})
		if !errors.Is(err, ErrNoRows) {
			t.Errorf("%s: %v, want ErrNoRows", name, err)
		}
	}
}

// TestSummaryAddsUpToTheLines: the book, through Run: the company
// after the stray quote is screened and hit, and header + rows + blank
// lines = the lines of the book.
func TestSummaryAddsUpToTheLines(t *testing.T) {
	ix := mustFixtureIndex(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "book.csv")
	os.WriteFile(in, []byte("id,name,country\rC8,Anna Berg,GB\r\rC9,\"Unclosed quote name,GB\rC10,Acme Holdings LLC,RU\r,,\r"), 0o644)
	out := filepath.Join(dir, "hits.csv")
	sum, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if sum.LinesRead != 6 || sum.BlankLines != 2 || sum.RowsRead != 3 || sum.RowsRejected != 1 || sum.LinesRead != 1+sum.RowsRead+sum.BlankLines {
		t.Errorf("lines %d, blank %d, rows %d, rejected %d", sum.LinesRead, sum.BlankLines, sum.RowsRead, sum.RowsRejected)
	}
	if hits := string(readFile(t, out)); !strings.Contains(hits, "C10") {
		t.Errorf("the sanctioned company after the stray quote was not screened:\n%s", hits)
	}
	var text strings.Builder
	sum.WriteText(&text)
	if !strings.Contains(text.String(), "lines          6 (1 header, 3 rows, 2 blank, skipped)") {
		t.Errorf("summary:\n%s", text.String())
	}
}
