package main

import (
	"bytes"
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// table lays out tab-separated cells in columns, as text/tabwriter does,
// but measures text by its width on a terminal: a Chinese, Japanese or
// Korean character takes two columns, a combining accent none.
// text/tabwriter counts runes, so names in those scripts pushed every
// column after them out of line in --format table.
//
// As with tabwriter, a cell ends with a tab; text after a line's last tab
// is not a cell and does not widen its column; a column's width is set
// by the run of consecutive lines that have a cell in it.
type table struct {
	w          io.Writer
	padding    int
	alignRight bool
	buf        bytes.Buffer
}

// newTable returns a table writing to w with two spaces between columns,
// the layout every --format table uses.
func newTable(w io.Writer) *table { return &table{w: w, padding: 2} }

// Write buffers p until Flush.
func (t *table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// tableLine is one line: its tab-terminated cells and the text after them.
type tableLine struct {
	cells []string
	rest  string
}

// Flush writes what was buffered, laid out, and empties the buffer.
func (t *table) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	if text == "" {
		return nil
	}
	raw := strings.Split(text, "\n")
	trailingNewline := strings.HasSuffix(text, "\n")
	if trailingNewline {
		raw = raw[:len(raw)-1]
	}
	lines := make([]tableLine, len(raw))
	widths := make([][]int, len(raw))
	for i, l := range raw {
		parts := strings.Split(l, "\t")
		lines[i] = tableLine{cells: parts[:len(parts)-1], rest: parts[len(parts)-1]}
		widths[i] = make([]int, len(lines[i].cells))
	}
	t.layout(lines, widths, 0, 0, len(lines))
	var out strings.Builder
	for i, l := range lines {
		for c, cell := range l.cells {
			pad := strings.Repeat(" ", max(0, widths[i][c]-displayWidth(cell)))
			if t.alignRight {
				out.WriteString(pad + cell)
			} else {
				out.WriteString(cell + pad)
			}
		}
		out.WriteString(l.rest)
		if i < len(lines)-1 || trailingNewline {
			out.WriteByte('\n')
		}
	}
	_, err := io.WriteString(t.w, out.String())
	return err
}

// layout sets the widths of column col for lines [start, end), block by
// block, and recurses into the next column within each block.
func (t *table) layout(lines []tableLine, widths [][]int, col, start, end int) {
	for i := start; i < end; {
		if len(lines[i].cells) <= col {
			i++
			continue
		}
		j, w := i, 0
		for ; j < end && len(lines[j].cells) > col; j++ {
			w = max(w, displayWidth(lines[j].cells[col]))
		}
		for k := i; k < j; k++ {
			widths[k][col] = w + t.padding
		}
		t.layout(lines, widths, col+1, i, j)
		i = j
	}
}

// displayWidth is the number of terminal columns s takes: two for wide
// and full-width characters (East Asian scripts), none for combining
// marks and format characters, one for the rest.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		default:
			switch width.LookupRune(r).Kind() {
			case width.EastAsianWide, width.EastAsianFullwidth:
				n += 2
			default:
				n++
			}
		}
	}
	return n
}
