package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBookWatchCLI imports a book into a store and applies change sets
// with the CLI: a record added with a customer's name shows up in alerts
// list --origin monitor, once, however often the same record is applied,
// with the version of the change that last changed it.
func TestBookWatchCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	book := write("book.csv", "customer_id,full_name,type\nC-7,Olga Smirnova,individual\nC-8,Hans Becker,individual\n")
	add := write("add.jsonl", `{"type":"ADD","record":{"id":"R9","sourceId":"ofac_sdn","sourceType":"SANCTION","entityType":"INDIVIDUAL","gender":"FEMALE","name":"Olga Smirnova","givenNames":["Olga"],"lastNames":["Smirnova"]}}`+"\n")
	update := write("update.jsonl", `{"type":"UPDATE","record":{"id":"R9","sourceId":"ofac_sdn","sourceType":"SANCTION","entityType":"INDIVIDUAL","gender":"FEMALE","name":"Olga Smirnova","givenNames":["Olga"],"lastNames":["Smirnova"],"address":["Limassol"]}}`+"\n")
	for _, args := range [][]string{
		{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"},
		{"book", "import", "--store", db, book},
		{"apply", "--store", db, add, "--previous", "v1", "--version", "v2"},
	} {
		if code, out, errs := runStoreCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	check := func(when, version string) {
		t.Helper()
		rows := alertRows(t, "--store", db, "--origin", "monitor")
		if len(rows) != 1 {
			t.Fatalf("%s: %d monitor alerts, want 1: %+v", when, len(rows), rows)
		}
		if r := rows[0]; r.Subject != "C-7" || r.RecordID != "R9" || r.Origin != "monitor" || r.Status != "open" || r.Version != version || r.Reason == "" || r.ID == 0 {
			t.Fatalf("%s: alert %+v", when, r)
		}
	}
	check("after the add", "v2")
	// The same record again: no second alert, and the alert keeps the
	// version it was raised at.
	if code, out, errs := runStoreCLI(t, "apply", "--store", db, add, "--previous", "v2", "--version", "v3"); code != exitOK {
		t.Fatalf("apply v3: exit %d\n%s%s", code, out, errs)
	}
	check("after the same record again", "v2")
	// A change to the record reopens the alert at the new version.
	if code, out, errs := runStoreCLI(t, "apply", "--store", db, update, "--previous", "v3", "--version", "v4"); code != exitOK {
		t.Fatalf("apply v4: exit %d\n%s%s", code, out, errs)
	}
	check("after a change to the record", "v4")
	if rows := alertRows(t, "--store", db, "--origin", "batch"); len(rows) != 0 {
		t.Fatalf("batch alerts from a change set: %+v", rows)
	}
	// Raised and reopened in the change's transaction, next to the
	// store's own reopening: the audit chain stays whole.
	if code, out, errs := runStoreCLI(t, "audit", "verify", "--store", db); code != exitOK || !strings.Contains(out, "audit log whole: 2 entries") {
		t.Fatalf("audit verify: exit %d\n%s%s", code, out, errs)
	}
}
