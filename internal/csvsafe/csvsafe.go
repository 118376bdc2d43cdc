// Package csvsafe writes CSV files meant for spreadsheets so that no cell
// is read as a formula: a cell that begins with =, +, -, @, a tab or a
// carriage return gets a single quote in front (OWASP's rule against CSV
// injection), and so does one that begins with a single quote, so that
// Unquote gives every cell back exactly. JSON Lines outputs do not use it:
// they stay exact.
package csvsafe

import (
	"encoding/csv"
	"io"
)

// Cell returns s as it is safe to write in a spreadsheet cell.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\'':
		return "'" + s
	}
	return s
}

// Unquote undoes Cell, for a file read back (a decisions export
// imported): a single quote before one of the characters Cell quotes is
// dropped; any other cell is returned as it is.
func Unquote(s string) string {
	if len(s) < 2 || s[0] != '\'' {
		return s
	}
	switch s[1] {
	case '=', '+', '-', '@', '\t', '\r', '\'':
		return s[1:]
	}
	return s
}

// Writer is a csv.Writer that writes every cell through Cell.
type Writer struct {
	*csv.Writer
	row []string
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{Writer: csv.NewWriter(w)} }

// Write writes one row, its cells made safe.
func (w *Writer) Write(row []string) error {
	w.row = w.row[:0]
	for _, c := range row {
		w.row = append(w.row, Cell(c))
	}
	return w.Writer.Write(w.row)
}
