package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShrinkGuardCLI: apply refuses a delta that deletes most of the
// store, import --merge refuses a merge that empties it, each with an
// ERROR line and exit 1, the store left at its version; --allow-shrink
// lets the delta through, never the emptying merge.
func TestShrinkGuardCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var recs, dels strings.Builder
	for _, id := range []string{"B1", "B2", "B3", "B4"} {
		recs.WriteString(`{"id":"` + id + `","sourceId":"bank","name":"Person ` + id + `"}` + "\n")
	}
	for _, id := range []string{"B1", "B2", "B3"} {
		dels.WriteString(`{"type":"DELETE","record":{"id":"` + id + `"}}` + "\n")
	}
	list, delta, empty := write("bank.jsonl", recs.String()), write("delta.jsonl", dels.String()), write("empty.jsonl", "\n")
	steps := []struct {
		args []string
		code int
		errs string // part of stderr
	}{
		{[]string{"import", "--store", db, "--merge", list, "--version", "v1"}, exitOK, ""},
		{[]string{"import", "--store", db, "--merge", "--sources", "bank", empty, "--version", "v2"}, exitError, "leave it empty"},
		{[]string{"import", "--store", db, "--merge", "--sources", "bank", empty, "--version", "v2", "--allow-shrink"}, exitError, "leave it empty"},
		{[]string{"apply", "--store", db, delta, "--previous", "v1", "--version", "v2"}, exitError, "--allow-shrink"},
		{[]string{"status", "--store", db}, exitOK, ""},
		{[]string{"apply", "--store", db, delta, "--previous", "v1", "--version", "v2", "--allow-shrink"}, exitOK, "level=WARN"},
	}
	for _, s := range steps {
		code, out, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", s.args, code, s.code, out, errs)
		}
		if s.code == exitError && !strings.Contains(errs, "level=ERROR") {
			t.Errorf("%v: no ERROR log line: %s", s.args, errs)
		}
		if s.args[0] == "status" && (!strings.Contains(words(out), "Version v1") || !strings.Contains(words(out), "Records 4")) {
			t.Errorf("after the refusals: %s", out)
		}
	}
}

// TestStatusWarnsOfDamagedIndex: status verifies the index's checksums
// and prints a WARNING naming the segment that fails them; check goes on
// answering (the index is rebuilt, never fatal).
func TestStatusWarnsOfDamagedIndex(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, "testdata/small.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: %d %s", code, errs)
	}
	segs, _ := filepath.Glob(filepath.Join(db+".index", "seg-*.seg"))
	if len(segs) != 1 {
		t.Fatalf("segments %v", segs)
	}
	if code, out, _ := runStoreCLI(t, "status", "--store", db); code != exitOK || strings.Contains(out, "WARNING") {
		t.Fatalf("status of a whole index: %d\n%s", code, out)
	}
	raw, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-1] ^= 0x40
	if err := os.WriteFile(segs[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runStoreCLI(t, "status", "--store", db)
	if code != exitOK || !strings.Contains(out, "WARNING") || !strings.Contains(out, "checksum") || !strings.Contains(out, filepath.Base(segs[0])) {
		t.Errorf("status of a damaged index: %d\n%s", code, out)
	}
	if code, _, errs := runStoreCLI(t, "check", "--store", db, "--names", "nobody at all"); code != exitOK {
		t.Errorf("check over a damaged index: %d %s", code, errs)
	}
}
