package main

import (
	"io"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestChangesEqualsServedDigest: amlscreen changes --format json and
// serve's getChangeDigest answer one document, byte for byte, for the
// same store and period.
func TestChangesEqualsServedDigest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aml.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v1 := []record.Record{
		{ID: "A1", SourceID: "eu_fsf", SourceType: "SANCTION", Name: "Anna Sokolova", Citizenship: []string{"ru"}},
		{ID: "B1", SourceID: "un_sc", SourceType: "SANCTION", Name: "Boris Kuznetsov"},
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
			{Type: "UPDATE", Record: record.Record{ID: "A1", SourceID: "eu_fsf", SourceType: "SANCTION", Name: "Anna Sokolova", Citizenship: []string{"by"}, PEPLevel: 0}},
			{Type: "ADD", Record: record.Record{ID: "C1", SourceID: "us_ofac_sdn", SourceType: "SANCTION", Name: "Cobalt Trading LLC"}},
			{Type: "DELETE", Record: record.Record{ID: "B1"}},
		}, nil)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	code, cli, errs := runCLI(t, "changes", "--store", path, "--since", "v1", "--format", "json")
	if code != exitOK {
		t.Fatalf("changes: exit %d: %s", code, errs)
	}
	keys := writeKeys(t, dir, `[{"key":"tool-key","include_other":true,"features":{"pep_level":true,"source_country":true}}]`)
	s := startServe(t, &serveFlags{store: path, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	served := get(t, s.addr, "tool-key", "/v1/getChangeDigest?since="+url.QueryEscape("v1")+"&format=json")
	s.stop(t)
	if served != cli {
		t.Fatalf("served:\n%s\ncli:\n%s", served, cli)
	}
}
