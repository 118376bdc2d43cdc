package table

import (
	"strings"
	"testing"
)

// TestUnclosedQuoteSwallowsNothing: a stray quote used to make the CSV
// reader read on across lines, so the next row, a sanctioned company, was
// neither screened nor rejected ("2 rows read, 0 rejected"). Now the bad
// line is rejected with its number and id, and every later line is read.
func TestUnclosedQuoteSwallowsNothing(t *testing.T) {
	book := "id,name,country\nC8,Anna Berg,GB\nC9,\"Unclosed quote name,GB\nC10,Acme Holdings LLC,RU\nC11,\"Bert, Bob\",US\n"
	rows, rd := readAll(t, []byte(book), ReadOptions{})
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	if r := rows[1].Reject; r == nil || r.Line != 3 || r.CustomerID != "C9" || !strings.Contains(r.Reason, "quoted value is not closed") {
		t.Errorf("line 3: reject %+v", r)
	}
	if rows[2].Reject != nil || rows[2].Line != 4 || rows[2].Name != "Acme Holdings LLC" {
		t.Errorf("line 4: %+v", rows[2])
	}
	if rows[3].Reject != nil || rows[3].Name != "Bert, Bob" {
		t.Errorf("line 5: %+v", rows[3])
	}
	if rd.Lines() != 5 || rd.BlankLines() != 0 {
		t.Errorf("lines %d, blank %d", rd.Lines(), rd.BlankLines())
	}
}

// TestLineEndings: LF, CRLF and a lone CR (old Mac exports; such a book
// read as 0 rows and exited 0) all end a line, mixed in one book too.
func TestLineEndings(t *testing.T) {
	for name, book := range map[string]string{
		"LF":    "id,name\nC1,Anna Berg\nC2,Bert Berg\n",
		"CRLF":  "id,name\r\nC1,Anna Berg\r\nC2,Bert Berg\r\n",
		"CR":    "id,name\rC1,Anna Berg\rC2,Bert Berg\r",
		"mixed": "id,name\r\nC1,Anna Berg\rC2,Bert Berg",
	} {
		rows, rd := readAll(t, []byte(book), ReadOptions{})
		if len(rows) != 2 || rows[0].Name != "Anna Berg" || rows[1].Name != "Bert Berg" || rows[1].Line != 3 || rd.Lines() != 3 {
			t.Errorf("%s: %d rows (%+v), %d lines", name, len(rows), rows, rd.Lines())
		}
	}
	rows, _ := readAll(t, []byte(`{"id":"J1","name":"Anna Berg"}`+"\r"+`{"id":"J2","name":"Bert Berg"}`+"\r"), ReadOptions{})
	if len(rows) != 2 || rows[1].ID != "J2" || rows[1].Reject != nil {
		t.Errorf("JSON Lines with CR endings: %+v", rows)
	}
}

// TestRaggedRows: a row with more or fewer values than the header has
// columns is rejected with its line and the counts; its values would be
// read from the wrong columns. Empty values past the last column
// (trailing delimiters) are dropped.
func TestRaggedRows(t *testing.T) {
	// Line 6 ends in delimiters, as spreadsheets export rows: its extra
	// values are empty and it is read; line 7's extra value is not.
	book := "id,name,dob\n1,Anna Berg,1980\n2,Bert Berg\n3,Carl Dahl,1970,SE\n4,Dora Dahl,\n5,Eva Ek,1990,,\n6,Finn Ek,1991,,x\n"
	rows, _ := readAll(t, []byte(book), ReadOptions{})
	if len(rows) != 6 {
		t.Fatalf("%d rows", len(rows))
	}
	if rows[4].Reject == nil && rows[4].DOB != "1990" {
		t.Errorf("line 6: dob %q", rows[4].DOB)
	}
	for i, want := range []string{"", "2 values, the header has 3 columns", "4 values, the header has 3 columns", "", "", "5 values, the header has 3 columns"} {
		r := rows[i].Reject
		switch {
		case want == "" && r != nil:
			t.Errorf("line %d rejected: %+v", i+2, r)
		case want != "" && (r == nil || r.Line != i+2 || r.Field != "row" || r.Reason != want):
			t.Errorf("line %d: reject %+v, want %q", i+2, r, want)
		}
	}
}

// TestDuplicateHeaderColumns: a column named twice (also in two
// spellings of one name) is an error naming both.
func TestDuplicateHeaderColumns(t *testing.T) {
	for header, want := range map[string]string{
		"id,name,Name":                 `"Name" (columns 2 and 3)`,
		"Customer ID,name,customer_id": `"customer_id" (columns 1 and 3)`,
		"id,name,dob,dob":              `"dob" (columns 3 and 4)`,
	} {
		_, err := NewReader(strings.NewReader(header+"\n1,a,b,c\n"), ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %s", header, err, want)
		}
	}
	if _, err := NewReader(strings.NewReader("id,name,,\n1,a,,\n"), ReadOptions{}); err != nil {
		t.Errorf("unnamed columns are not duplicates: %v", err)
	}
}

// TestNoRowsIsAnError: a book with a header and nothing else, or blank
