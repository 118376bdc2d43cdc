package batch

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestHitsCSVNeutralisesFormulas: record names, matched names and
// customer values that begin with =, +, - or @ are written to the hits
// CSV and the rejects CSV with a quote in front, so that a spreadsheet
// shows them as text; the JSON Lines hits keep them exact.
func TestHitsCSVNeutralisesFormulas(t *testing.T) {
	ix := engine.NewIndex([]*record.Record{
		{ID: "F1", SourceID: "s", SourceType: "SANCTION", EntityType: "ENTITY", Name: "=cmd calc", AliasNames: []string{"@SUM calc"}},
		{ID: "F2", SourceID: "s", SourceType: "SANCTION", EntityType: "ENTITY", Name: "-Minus Trading"},
	})
	dir := t.TempDir()
	in := filepath.Join(dir, "book.csv")
	book := "customer_id,full_name,type\n=1+1,cmd calc,organization\n+C2,Minus Trading,organization\n@C3,,organization\n"
	if err := os.WriteFile(in, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	hits := filepath.Join(dir, "hits.csv")
	if _, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: hits}); err != nil {
		t.Fatal(err)
	}
	var all [][]string
	for _, p := range []string{hits, DefaultRejectsPath(hits)} {
		rows, err := csv.NewReader(bytes.NewReader(readFile(t, p))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rows[1:]...)
	}
	joined := ""
	for _, r := range all {
		for _, cell := range r {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q begins with a formula character", cell)
			}
		}
		joined += strings.Join(r, ",") + "\n"
	}
	for _, want := range []string{"'=1+1", "'=cmd calc", "'+C2", "'-Minus Trading", "'@C3"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no cell %q in\n%s", want, joined)
		}
	}
	jl := filepath.Join(dir, "hits.jsonl")
	if _, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: jl, Format: JSONLOutput}); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, jl)); !strings.Contains(got, `"=cmd calc"`) || !strings.Contains(got, `"=1+1"`) {
		t.Errorf("JSON Lines not exact:\n%s", got)
	}
}
