package digest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func TestDiff(t *testing.T) {
	base := record.Record{ID: "A", SourceID: "ofac", Name: "Ivan Petrov", AliasNames: []string{"I. Petrov"},
		DateOfBirth: []string{"1960"}, Citizenship: []string{"ru"}, ListDate: 5}
	tests := []struct {
		name   string
		change func(r *record.Record)
		want   string // field:old:new;...
	}{
		{"nothing", func(r *record.Record) {}, ""},
		{"list date alone is not a change", func(r *record.Record) { r.ListDate = 9 }, ""},
		{"name", func(r *record.Record) { r.Name = "Ivan Petroff" }, `name:"Ivan Petrov":"Ivan Petroff"`},
		{"alias added", func(r *record.Record) { r.AliasNames = append(r.AliasNames, "Vanya") },
			`alias_names:["I. Petrov"]:["I. Petrov","Vanya"]`},
		{"dob removed, citizenship changed", func(r *record.Record) { r.DateOfBirth = nil; r.Citizenship = []string{"by"} },
			`date_of_birth:["1960"]:;citizenship:["ru"]:["by"]`},
		{"source moved", func(r *record.Record) { r.SourceID = "un" }, `source_id:"ofac":"un"`},
		{"unknown attribute", func(r *record.Record) { r.Extra = map[string]json.RawMessage{"vessel": json.RawMessage(`"X"`)} },
			`vessel::"X"`},
	}
	for _, tt := range tests {
		after := *base.Clone()
		tt.change(&after)
		var got []string
		for _, f := range diff(&base, &after, record.WriteOptions{}) {
			got = append(got, f.Name+":"+string(f.Old)+":"+string(f.New))
		}
		if g := strings.Join(got, ";"); g != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, g, tt.want)
		}
	}
}

// TestDigestOfAppliedDeltas applies two change sets to a real store and
// checks the digest's JSON and CSV.
func TestDigestOfAppliedDeltas(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	recs := []*record.Record{
		{ID: "A", SourceID: "ofac", Name: "Ivan Petrov", DateOfBirth: []string{"1960"}},
		{ID: "B", SourceID: "un", Name: "Acme Trading"},
	}
	i := 0
	next := func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}
	if err := db.ReplaceAll("v1", next, nil); err != nil {
		t.Fatal(err)
	}
	apply := func(prev, ver string, cs ...record.Change) {
		t.Helper()
		if _, err := db.ApplyDelta(prev, ver, cs, nil); err != nil {
			t.Fatal(err)
		}
	}
	apply("v1", "v2",
		record.Change{Type: "UPDATE", Record: record.Record{ID: "A", SourceID: "ofac", Name: "Ivan Petrov", DateOfBirth: []string{"1961"}}},
		record.Change{Type: "ADD", Record: record.Record{ID: "C", SourceID: "eu", Name: "Olga Ivanova"}})
	apply("v2", "v3",
		record.Change{Type: "UPDATE", Record: record.Record{ID: "A", SourceID: "ofac", Name: "Ivan Petroff", DateOfBirth: []string{"1961"}}},
		record.Change{Type: "DELETE", Record: record.Record{ID: "B"}})

	entries, cur, err := db.Digest("v1")
	if err != nil || cur != "v3" {
		t.Fatalf("%q %v", cur, err)
	}
	changes := FromStore(entries)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewDocument("v1", "v1", cur, changes)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary  Summary
		BySource map[string]Summary `json:"by_source"`
		Changes  []struct {
			Type, ID, Version, Source string
			Fields                    []struct {
				Field    string
				Old, New json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary != (Summary{Added: 1, Updated: 1, Deleted: 1}) || len(doc.Changes) != 3 || len(doc.BySource) != 3 ||
		doc.BySource["ofac"] != (Summary{Updated: 1}) || doc.BySource["un"] != (Summary{Deleted: 1}) || doc.BySource["eu"] != (Summary{Added: 1}) {
		t.Fatalf("%s", buf.Bytes())
	}
	a := doc.Changes[0]
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		json.Compact(&b, raw)
		return b.String()
	}
	if a.Type != "UPDATE" || a.ID != "A" || a.Version != "v3" || a.Source != "ofac" || len(a.Fields) != 2 ||
		a.Fields[0].Field != "name" || compact(a.Fields[0].Old) != `"Ivan Petrov"` || compact(a.Fields[0].New) != `"Ivan Petroff"` ||
		a.Fields[1].Field != "date_of_birth" || compact(a.Fields[1].Old) != `["1960"]` || compact(a.Fields[1].New) != `["1961"]` {
		t.Errorf("update of A: %+v", a)
	}
	if b := doc.Changes[1]; b.Type != "DELETE" || b.ID != "B" || b.Source != "un" || b.Fields != nil {
		t.Errorf("delete of B: %+v", b)
	}
	if c := doc.Changes[2]; c.Type != "ADD" || c.ID != "C" || c.Version != "v2" || c.Source != "eu" {
		t.Errorf("add of C: %+v", c)
	}

	buf.Reset()
	if err := WriteCSV(&buf, changes); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || strings.Join(rows[0], ",") != strings.Join(CSVHeader, ",") || rows[2][6] != "date_of_birth" || rows[4][0] != "ADD" {
		t.Errorf("csv: %q", rows)
	}
}

// TestPage cuts a document into pages by id and keeps the period's counts.
func TestPage(t *testing.T) {
	var all []Change
	for _, id := range []string{"A", "B", "C", "D", "E"} {
		all = append(all, Change{Type: "ADD", ID: id, Source: "s"})
	}
	tests := []struct {
		after string
		limit int
		want  string
		more  bool
	}{
		{"", 2, "AB", true},
		{"B", 2, "CD", true},
		{"D", 2, "E", false},
		{"E", 2, "", false},
		{"BB", 2, "CD", true}, // an id no longer there: the next one
		{"", 10, "ABCDE", false},
		{"", 5, "ABCDE", false},
	}
	for _, tt := range tests {
		d := NewDocument("last", "v1", "v2", slices.Clone(all))
		more := d.Page(tt.after, tt.limit)
		var got string
		for _, c := range d.Changes {
			got += c.ID
		}
		if got != tt.want || more != tt.more || d.Summary.Added != 5 || d.BySource["s"].Added != 5 {
			t.Errorf("after %q limit %d: %q more %v summary %+v", tt.after, tt.limit, got, more, d.Summary)
		}
	}
}

// TestFromStoreOptionsStripsFeatures checks that an attribute the options
// leave out shows no difference.
func TestFromStoreOptionsStripsFeatures(t *testing.T) {
	before := &record.Record{ID: "A", SourceID: "pep", Name: "Ann", PEPLevel: 1}
	after := &record.Record{ID: "A", SourceID: "pep", Name: "Ann", PEPLevel: 2}
	e := []store.DigestEntry{{Type: "UPDATE", ID: "A", Before: before, After: after}}
	if got := FromStore(e); len(got[0].Fields) != 1 || got[0].Fields[0].Name != "pep_level" {
		t.Fatalf("all attributes: %+v", got)
	}
	if got := FromStoreOptions(e, record.WriteOptions{OmitPEPLevel: true}); len(got[0].Fields) != 0 {
		t.Fatalf("without pep_level: %+v", got)
	}
}
