package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecisionsFlow: a false positive recorded with decide is suppressed by
// batch --key until the record changes, then comes back marked; the audit
// trail exports and imports; bad values exit 2 naming the flag.
func TestDecisionsFlow(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme"},{"key":"other-secret","name":"other"}]`), 0o600)
	book := filepath.Join(dir, "book.csv")
	os.WriteFile(book, []byte("id,name,type\nC-1,Ivan Petrov,individual\nC-2,Acme Trading LLC,entity\n"), 0o600)
	delta := filepath.Join(dir, "delta.jsonl")
	os.WriteFile(delta, []byte(`{"type":"UPDATE","record":{"id":"R1","sourceId":"ofac_sdn","sourceType":"SANCTION","entityType":"INDIVIDUAL","gender":"MALE","name":"Ivan Petrov","givenNames":["Ivan"],"lastNames":["Petrov"],"dateOfBirth":["12/03/1960"],"citizenship":["RU"],"address":["Limassol"]}}`+"\n"), 0o600)
	hits := filepath.Join(dir, "hits.csv")
	suppressed := filepath.Join(dir, "hits.suppressed.csv")
	exported := filepath.Join(dir, "decisions.csv")
	fresh := filepath.Join(dir, "fresh.db")
	sheet := filepath.Join(dir, "sheet.csv")
	os.WriteFile(sheet, []byte("subject,record_id,status,note\nC-2,R3,False positive,registered in Panama\n"), 0o600)

	steps := []struct {
		args []string
		code int
		out  string // part of stdout
		errs string // part of stderr
	}{
		{[]string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}, exitOK, "", ""},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "acme", "--subject", "C-1", "--record", "R1", "--status", "False positive", "--note", "born 1971"}, exitOK,
			"decided false_positive on record R1 for C-1", ""},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "acme", "--subject", "C-1", "--record", "R404", "--status", "escalated"}, exitUsage, "", "--record: the store holds no record \"R404\""},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "acme", "--subject", "C-1", "--record", "R1", "--status", "cleared"}, exitUsage, "", "--status:"},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "nobody", "--subject", "C-1", "--record", "R1", "--status", "escalated"}, exitUsage, "", "no key named"},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "acme", "--subject", "C-1\x01", "--record", "R1", "--status", "escalated"}, exitUsage, "", "--subject: holds the control character"},
		{[]string{"decide", "--store", db, "--keys", keys, "--key", "acme", "--record", "R1", "--status", "escalated"}, exitUsage, "", "--subject: required"},
		{[]string{"batch", "--store", db, "--key", "acme", "--in", book, "--out", hits}, exitUsage, "", "--key: needs --store"},
		// The other key's decisions are not acme's.
		{[]string{"batch", "--store", db, "--keys", keys, "--key", "other", "--in", book, "--out", hits}, exitOK, "suppressed     0", ""},
		{[]string{"batch", "--store", db, "--keys", keys, "--key", "acme", "--in", book, "--out", hits}, exitOK, "suppressed     1 (decided false positive, record unchanged): " + suppressed, ""},
		{[]string{"apply", "--store", db, delta, "--previous", "v1", "--version", "v2"}, exitOK, "", ""},
		{[]string{"batch", "--store", db, "--keys", keys, "--key", "acme", "--in", book, "--out", hits}, exitOK, "suppressed     0", ""},
		{[]string{"decisions", "export", "--store", db, "--out", exported}, exitOK, "", "exported 1 decisions"},
		{[]string{"decisions", "export", "--store", db, "--keys", keys, "--key", "other", "--format", "jsonl"}, exitOK, "", ""},
		{[]string{"decisions", "export", "--store", db, "--format", "xml"}, exitUsage, "", "--format"},
		{[]string{"decisions", "export", "--store", db, "--key", "acme"}, exitUsage, "", "--key: needs --keys"},
		{[]string{"import", "--store", fresh, monitorFixtures + "records.jsonl", "--version", "v1"}, exitOK, "", ""},
		{[]string{"decisions", "import", "--store", fresh, exported}, exitOK, "imported 1 decisions", ""},
		{[]string{"decisions", "import", "--store", fresh, exported}, exitOK, "imported 0 decisions from " + exported + " (1 already in the audit trail", ""},
		{[]string{"decisions", "import", "--store", fresh, "--keys", keys, "--key", "acme", sheet}, exitUsage, "", "line 2: fingerprint: missing"},
		{[]string{"decisions", "import", "--store", fresh, "--keys", keys, "--key", "acme", "--pin-current", sheet}, exitOK, "imported 1 decisions", ""},
		{[]string{"decisions", "import", "--store", fresh, sheet}, exitUsage, "", "line 2: owner: required"},
	}
	for _, s := range steps {
		code, out, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(words(out), words(s.out)) || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", s.args, code, s.code, out, errs)
		}
		if len(s.args) > 0 && s.args[0] == "batch" && code == exitOK {
			checkBatchFiles(t, s.args, hits, suppressed)
		}
	}
	data, _ := os.ReadFile(exported)
	if !strings.Contains(string(data), ",C-1,R1,false_positive,born 1971,acme,") || !strings.Contains(string(data), ",true\n") {
		t.Errorf("export:\n%s", data)
	}
}

// checkBatchFiles checks the hits of the flow's batch runs: R1 for C-1 in
// the suppressed file while the decision holds, back in the hits file,
// marked changed, once the delta changed R1.
func checkBatchFiles(t *testing.T, args []string, hits, suppressed string) {
	t.Helper()
	h, _ := os.ReadFile(hits)
	s, _ := os.ReadFile(suppressed)
	key := args[len(args)-5]
	hasR1 := strings.Contains(string(h), ",C-1,Ivan Petrov,R1,")
	supR1 := strings.Contains(string(s), ",C-1,Ivan Petrov,R1,")
	changed := strings.Contains(string(h), "false_positive,born 1971,acme,") && strings.HasSuffix(strings.TrimSpace(lineWith(string(h), ",R1,")), ",true")
	switch {
	case key == "other":
		if !hasR1 || supR1 {
			t.Errorf("key other: R1 in hits %v, suppressed %v", hasR1, supR1)
		}
	case !strings.Contains(string(h), "changed_since_decision"):
		t.Errorf("hits file without decision columns:\n%s", h)
	case supR1:
		if hasR1 {
			t.Errorf("R1 both in the hits and the suppressed file")
		}
		if !strings.Contains(string(s), "false_positive,born 1971,acme,") {
			t.Errorf("suppressed file without the decision:\n%s", s)
		}
	default:
		if !hasR1 || !changed {
			t.Errorf("after the change R1 is not back marked changed:\n%s", h)
		}
	}
}

func lineWith(text, part string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, part) {
			return l
		}
	}
	return ""
}
