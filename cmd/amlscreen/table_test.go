package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
)

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{
		"Putin":      5,
		"习近平":        6,
		"김정은":        6,
		"Ｗｉｄｅ":       8,
		"José":       4,
		"Jose\u0301": 4, // combining acute
		"Путин":      5,
		"بوتين":      5,
		"":           0,
	} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestTableAlignsWideCharacters: every column starts at the same terminal
// column on every line, whatever script the cells before it are in.
func TestTableAlignsWideCharacters(t *testing.T) {
	var buf bytes.Buffer
	tw := newTable(&buf)
	fmt.Fprintln(tw, "#\tID\tNAME\tTYPE\tWHY")
	fmt.Fprintln(tw, "1\tA1\tXi Jinping\tINDIVIDUAL\tname")
	fmt.Fprintln(tw, "2\tA2\t习近平\tINDIVIDUAL\talias")
	fmt.Fprintln(tw, "3\tA3\tKim Jong Un 김정은\tINDIVIDUAL\talias")
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	col := -1
	for _, l := range lines {
		i := strings.Index(l, "INDIVIDUAL")
		if i < 0 {
			i = strings.Index(l, "TYPE")
		}
		c := displayWidth(l[:i])
		if col >= 0 && c != col {
			t.Fatalf("TYPE column at %d, then %d:\n%s", col, c, buf.String())
		}
		col = c
	}
}

// TestTableMatchesTabwriterOnASCII: for plain ASCII the layout is
// tabwriter's, blocks of lines included, so tables keep their look.
func TestTableMatchesTabwriterOnASCII(t *testing.T) {
	in := "title line\na\tbb\tccc\n1\t2\t3\nlonger cell\tx\n\nnext\tblock\n  \tlast line no newline"
	for _, right := range []bool{false, true} {
		var want, got bytes.Buffer
		flags := uint(0)
		if right {
			flags = tabwriter.AlignRight
		}
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', flags)
		tw.Write([]byte(in))
		tw.Flush()
		tb := newTable(&got)
		tb.alignRight = right
		tb.Write([]byte(in))
		tb.Flush()
		if got.String() != want.String() {
			t.Errorf("alignRight %v:\n got %q\nwant %q", right, got.String(), want.String())
		}
	}
}
