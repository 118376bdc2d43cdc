package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/store"
)

// TestAlertsSummary: alerts summary counts a month's alerts, as CSV,
// JSON and a table, and refuses a malformed month.
func TestAlertsSummary(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	book := filepath.Join(dir, "book.csv")
	os.WriteFile(book, []byte("id,name,type\nC-1,Ivan Petrov,individual\nC-2,Maria Gonzalez,individual\n"), 0o600)
	run := func(want int, args ...string) string {
		t.Helper()
		code, out, errs := runStoreCLI(t, args...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out, errs)
		}
		return out + errs
	}
	run(exitOK, "import", "--store", db, monitorFixtures+"records.jsonl", "--version", "v1")
	run(exitOK, "batch", "--store", db, "--in", book, "--out", filepath.Join(dir, "hits.csv"), "--alerts")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cw := casework.New(st, casework.Options{Argon2: casework.Argon2Params{Memory: 64, Time: 1, Threads: 1}})
	for name, role := range map[string]string{"ana": casework.Analyst, "rev": casework.Reviewer} {
		if err := cw.AddUser(casework.Operator("test"), name, role, "a long enough password"); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Propose(casework.User("ana"), []uint64{1}, casework.TrueMatch, "same date of birth"); err != nil {
		t.Fatal(err)
	}
	if err := cw.Approve(casework.User("rev"), []uint64{1}, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	month := time.Now().UTC().Format("2006-01")
	csv := run(exitOK, "alerts", "summary", "--store", db, "--month", month, "--format", "csv")
	for _, want := range []string{"month,measure,key,value", month + ",opened,,2", month + ",closed,,1", month + ",closed_by_outcome,true_match,1", month + ",closed_by_reviewer,rev,1"} {
		if !strings.Contains(csv, want) {
			t.Errorf("csv lacks %q:\n%s", want, csv)
		}
	}
	var m casework.MonthSummary
	if err := json.Unmarshal([]byte(run(exitOK, "alerts", "summary", "--store", db, "--format", "json")), &m); err != nil {
		t.Fatal(err)
	}
	if m.Month != month || m.Opened != 2 || m.Closed != 1 || m.OpenAtEnd != 1 || m.ByReviewer["rev"] != 1 {
		t.Fatalf("json: %+v", m)
	}
	if out := run(exitOK, "alerts", "summary", "--store", db, "--month", month); !strings.Contains(words(out), "closed_by_reviewer rev 1") {
		t.Errorf("table:\n%s", out)
	}
	if out := run(exitUsage, "alerts", "summary", "--store", db, "--month", "11/2026"); !strings.Contains(out, "--month") {
		t.Errorf("bad month: %s", out)
	}
	run(exitUsage, "alerts", "summary", "--store", db, "--format", "xml")
}
