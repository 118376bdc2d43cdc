package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/store"
)

// withStdin runs fn with standard input reading text.
func withStdin(t *testing.T, text string, fn func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	fn()
}

// alertRows runs alerts list --format json and decodes its lines.
func alertRows(t *testing.T, args ...string) []alertRow {
	t.Helper()
	code, out, errs := runStoreCLI(t, append([]string{"alerts", "list", "--format", "json"}, args...)...)
	if code != exitOK {
		t.Fatalf("alerts list %v: exit %d: %s", args, code, errs)
	}
	var rows []alertRow
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var r alertRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("alerts list line %q: %v", line, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestCaseworkCLI walks the command-line surfaces of casework: users,
// batch --alerts (dedup on a re-run), the reopen an apply makes,
// alerts list, four-eyes, audit verify and export, and a tampered log.
func TestCaseworkCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	book := filepath.Join(dir, "book.csv")
	os.WriteFile(book, []byte("id,name,type\nC-1,Ivan Petrov,individual\nC-2,Maria Gonzalez,individual\n"), 0o600)
	delta := filepath.Join(dir, "delta.jsonl")
	os.WriteFile(delta, []byte(`{"type":"UPDATE","record":{"id":"R1","sourceId":"ofac_sdn","sourceType":"SANCTION","entityType":"INDIVIDUAL","gender":"MALE","name":"Ivan Petrov","givenNames":["Ivan"],"lastNames":["Petrov"],"dateOfBirth":["12/03/1960"],"citizenship":["RU"],"address":["Limassol"]}}`+"\n"), 0o600)
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme"}]`), 0o600)
	hits := filepath.Join(dir, "hits.csv")
	exported := filepath.Join(dir, "audit.csv")

	type step struct {
		args  []string
		stdin string
		code  int
		out   string // part of stdout
		errs  string // part of stderr
	}
	steps := func(ss []step) {
		t.Helper()
		for _, s := range ss {
			var code int
			var out, errs string
			withStdin(t, s.stdin, func() { code, out, errs = runStoreCLI(t, s.args...) })
			if code != s.code || !strings.Contains(words(out), words(s.out)) || !strings.Contains(errs, s.errs) {
				t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", s.args, code, s.code, out, errs)
			}
		}
	}
	pw := "a long enough password\n"
	steps([]step{
		{args: []string{"users", "add", "ana", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: pw, code: exitUsage, errs: "--store:"},
		{args: []string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}},
		{args: []string{"users", "add", "ana", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: pw, out: "added user ana (analyst)"},
		{args: []string{"users", "add", "rev", "--role", "reviewer", "--store", db, "--password-stdin"}, stdin: "another long password\r\n", out: "added user rev"},
		{args: []string{"users", "add", "ana", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: pw, code: exitUsage, errs: "already exists"},
		{args: []string{"users", "add", "bob", "--role", "auditor", "--store", db, "--password-stdin"}, stdin: pw, code: exitUsage, errs: "--role:"},
		{args: []string{"users", "add", "bob", "--role", "analyst", "--store", db}, code: exitUsage, errs: "--password-stdin: required"},
		{args: []string{"users", "add", "bob", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: "short\n", code: exitUsage, errs: "password: at least 12 bytes"},
		{args: []string{"users", "add", "b b", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: pw, code: exitUsage, errs: "name:"},
		{args: []string{"users", "add", "dis", "--role", "analyst", "--store", db, "--password-stdin"}, stdin: pw},
		{args: []string{"users", "disable", "dis", "--store", db}, out: "disabled user dis"},
		{args: []string{"users", "disable", "ghost", "--store", db}, code: exitUsage, errs: "not found"},
		{args: []string{"users", "reset", "rev", "--store", db, "--password-stdin"}, stdin: "the new password of rev\n", out: "reset the password of user rev"},
		{args: []string{"users", "list", "--store", db}, out: "dis analyst disabled"},
		{args: []string{"users", "list", "--store", db, "--format", "xml"}, code: exitUsage, errs: "--format"},

		{args: []string{"batch", "--in", book, "--out", hits, "--alerts"}, code: exitUsage, errs: "--alerts: needs --store"},
		{args: []string{"batch", "--store", db, "--in", book, "--out", hits, "--alerts"}, out: "alerts 2 raised, 0 reopened (record changed), 0 already in the queue"},
		{args: []string{"batch", "--store", db, "--in", book, "--out", hits, "--alerts"}, out: "alerts 0 raised, 0 reopened (record changed), 2 already in the queue"},
		// --key reads the decisions through the store the run holds for
		// writing; --data and --store exclude each other as ever.
		{args: []string{"batch", "--store", db, "--keys", keys, "--key", "acme", "--in", book, "--out", hits, "--alerts"}, out: "alerts 0 raised, 0 reopened (record changed), 2 already in the queue"},
		{args: []string{"batch", "--store", db, "--data", monitorFixtures + "records.jsonl", "--in", book, "--out", hits, "--alerts"}, code: exitUsage, errs: "exclude each other"},
		{args: []string{"alerts", "list", "--store", db, "--status", "pending"}, code: exitUsage, errs: "--status:"},
		{args: []string{"alerts", "list", "--store", db, "--origin", "fax"}, code: exitUsage, errs: "--origin:"},
		{args: []string{"alerts", "list", "--store", db, "--format", "xml"}, code: exitUsage, errs: "--format"},
		{args: []string{"alerts", "list", "--store", db}, out: "2 alerts"},
		{args: []string{"alerts", "list", "--store", db, "--format", "csv"}, out: "id,status,subject,record_id,record_name,source_type,matched_name,reason,origin,score,created,updated,version"},
	})
	rows := alertRows(t, "--store", db, "--status", "open", "--origin", "batch")
	if len(rows) != 2 || rows[0].Subject != "C-1" || rows[0].RecordID != "R1" || rows[0].Version != "v1" || rows[0].Origin != "batch" || rows[0].Created == "" || rows[0].ID == 0 {
		t.Fatalf("alerts: %+v", rows)
	}

	// Four eyes in the package API: ana proposes, rev approves.
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cw := casework.New(st, casework.Options{})
	if err := cw.Propose(casework.User("ana"), []uint64{rows[0].ID}, casework.FalsePositive, "born 1971"); err != nil {
		t.Fatal(err)
	}
	if err := cw.Approve(casework.User("ana"), []uint64{rows[0].ID}, ""); err == nil {
		t.Fatal("ana approved her own proposal")
	}
	if err := cw.Approve(casework.User("rev"), []uint64{rows[0].ID}, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if r := alertRows(t, "--store", db, "--status", "closed"); len(r) != 1 || r[0].Outcome != "false_positive" || r[0].ProposedBy != "ana" || r[0].ApprovedBy != "rev" {
		t.Fatalf("closed alerts: %+v", r)
	}

	steps([]step{
		{args: []string{"batch", "--store", db, "--in", book, "--out", hits, "--alerts"}, out: "alerts 0 raised, 0 reopened (record changed), 2 already in the queue"},
		// The delta changes R1: the apply reopens its alert, so the next
		// run finds it as it is.
		{args: []string{"apply", "--store", db, delta, "--previous", "v1", "--version", "v2"}},
		{args: []string{"alerts", "list", "--store", db, "--status", "closed"}, out: "0 alerts"},
		{args: []string{"batch", "--store", db, "--in", book, "--out", hits, "--alerts"}, out: "alerts 0 raised, 0 reopened (record changed), 2 already in the queue"},
		{args: []string{"alerts", "four-eyes", "--store", db}, out: "four eyes for every source type"},
		{args: []string{"alerts", "four-eyes", "--store", db, "--off", "pep,Other"}, out: "four eyes off for OTHER, PEP"},
		{args: []string{"alerts", "four-eyes", "--store", db, "--off", "none"}, out: "four eyes for every source type"},
		{args: []string{"audit", "verify", "--store", db}, out: "audit log whole: 13 entries"},
		{args: []string{"audit", "export", "--store", db, "--format", "xml"}, code: exitUsage, errs: "--format"},
		{args: []string{"audit", "export", "--store", db, "--from", "yesterday"}, code: exitUsage, errs: "--from:"},
		{args: []string{"audit", "export", "--store", db, "--from", "2026-11-02", "--to", "2026-11-01"}, code: exitUsage, errs: "--to:"},
		{args: []string{"audit", "export", "--store", db, "--format", "csv", "--from", "2000-01-01", "--to", "2999-12-31", "--out", exported}, errs: "exported 13 audit entries"},
		{args: []string{"audit", "export", "--store", db, "--to", "2000-01-01"}, out: ""},
	})
	code, out, _ := runStoreCLI(t, "audit", "export", "--store", db, "--format", "json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 13 {
		t.Fatalf("json export: exit %d, %d lines", code, len(lines))
	}
	var actions []string
	for _, l := range lines {
		var e casework.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Actor == "" || e.Time.IsZero() {
			t.Fatalf("entry %q: %v", l, err)
		}
		actions = append(actions, e.Action)
		if e.Action == casework.ActionReopen && (e.Actor != "store" || e.Version != "v2" || e.Subject != "C-1") {
			t.Fatalf("reopen entry %+v", e)
		}
	}
	want := "user.add user.add user.add user.disable user.reset alert.raise alert.raise alert.propose alert.approve decision alert.reopen settings settings"
	if strings.Join(actions, " ") != want {
		t.Fatalf("audit actions\n%s\nwant\n%s", strings.Join(actions, " "), want)
	}
	if b, _ := os.ReadFile(exported); !strings.HasPrefix(string(b), "seq,time,actor,action,") || strings.Count(string(b), "\n") != 14 {
		t.Fatalf("csv export:\n%s", b)
	}

	// Someone edits entry 9 in the file: verify names it and exits 1.
	sdb, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sdb.Write(func(tx *store.Tx) error {
		bk := store.Audit.Bucket(tx)
		k := binary.BigEndian.AppendUint64(nil, 9)
		return bk.Put(k, []byte(strings.Replace(string(bk.Get(k)), `"actor":"rev"`, `"actor":"ana"`, 1)))
	})
	sdb.Close()
	steps([]step{{args: []string{"audit", "verify", "--store", db}, code: exitError, errs: "audit log broken at entry 9: its content does not match its hash"}})
}
