package main

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestChanges applies two deltas to a real store and reads the digest back
// through the command in every format and with every form of --since.
func TestChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aml.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v1 := []record.Record{
		{ID: "A1", SourceID: "eu_fsf", Name: "Anna Sokolova", Citizenship: []string{"ru"}},
		{ID: "B1", SourceID: "un_sc", Name: "Boris Kuznetsov"},
	}
	i := 0
	err = st.ReplaceAll("v1", func() (*record.Record, error) {
		if i == len(v1) {
			return nil, io.EOF
		}
		i++
		return &v1[i-1], nil
	}, nil)
	if err == nil {
		_, err = st.ApplyDelta("v1", "v2", []record.Change{
			{Type: "UPDATE", Record: record.Record{ID: "A1", SourceID: "eu_fsf", Name: "Anna Sokolova", Citizenship: []string{"by"}}},
			{Type: "ADD", Record: record.Record{ID: "C1", SourceID: "us_ofac_sdn", Name: "Cobalt Trading LLC"}},
		}, nil)
	}
	if err == nil {
		_, err = st.ApplyDelta("v2", "v3", []record.Change{{Type: "DELETE", Record: record.Record{ID: "B1"}}}, nil)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	type doc struct {
		From    string
		Version string
		Changes []struct {
			Type, ID, Version, Source string
			Fields                    []struct{ Field string }
		}
	}
	tests := []struct {
		since string
		want  string // type id version source fields;...
	}{
		{"v1", "UPDATE A1 v2 eu_fsf citizenship;DELETE B1 v3 un_sc;ADD C1 v2 us_ofac_sdn"},
		{"last", "DELETE B1 v3 un_sc"},
		{"v3", ""},
		{time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02"), ""},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(t, "changes", "--store", path, "--since", tt.since, "--format", "json")
		if code != exitOK {
			t.Fatalf("since %s: exit %d: %s", tt.since, code, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("since %s: %v\n%s", tt.since, err, out)
		}
		var got []string
		for _, c := range d.Changes {
			s := strings.Join([]string{c.Type, c.ID, c.Version, c.Source}, " ")
			for _, f := range c.Fields {
				s += " " + f.Field
			}
			got = append(got, s)
		}
		if g := strings.Join(got, ";"); g != tt.want || d.Version != "v3" {
			t.Errorf("since %s: got %q at %s, want %q", tt.since, g, d.Version, tt.want)
		}
	}

	code, out, errs := runCLI(t, "changes", "--store", path, "--since", "v1", "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != exitOK || err != nil || len(rows) != 4 || rows[1][6] != "citizenship" || rows[1][7] != `["ru"]` || rows[1][8] != `["by"]` {
		t.Errorf("csv: exit %d %v %q %s", code, err, rows, errs)
	}
	code, out, _ = runCLI(t, "changes", "--store", path, "--since", "v1")
	if code != exitOK || !strings.Contains(out, `citizenship: ["ru"] -> ["by"]`) || !strings.Contains(out, "1 added, 1 updated, 1 deleted") || !strings.Contains(out, "un_sc        0 added  0 updated  1 deleted") {
		t.Errorf("table: exit %d\n%s", code, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"--since", "last"}, exitUsage, "--store"},
		{[]string{"--store", path}, exitUsage, "--since"},
		{[]string{"--store", path, "--since", "2026-02-30"}, exitUsage, "not a valid day"},
		{[]string{"--store", path, "--since", "last", "--format", "xml"}, exitUsage, "--format"},
		{[]string{"--store", path, "--since", "v0"}, exitError, "change log"},
		{[]string{"--store", path, "--since", "2000-01-01"}, exitError, "first import"},
	} {
		code, _, errs := runCLI(t, append([]string{"changes"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.errs) {
			t.Errorf("changes %v: exit %d, %q; want exit %d naming %s", tc.args, code, errs, tc.code, tc.errs)
		}
	}
}
