package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes: as the README promises, input that cannot be read and
// I/O failures exit 1 with a line naming the file; bad flags, values,
// arguments and unknown commands exit 2. Usage errors are typed, so the
// code does not hang on the wording of cobra's messages.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "absent.csv")
	tests := []struct {
		args []string
		code int
		want string // part of stderr
	}{
		// Unreadable input and I/O: 1.
		{[]string{"check", "--data", filepath.Join(dir, "missing.jsonl"), "--names", "x"}, exitError, "missing.jsonl"},
		{[]string{"batch", "--in", missing, "--out", filepath.Join(dir, "hits.csv")}, exitError, "absent.csv"},
		{[]string{"import", "--store", filepath.Join(dir, "s.db"), missing}, exitError, "absent.csv"},
		{[]string{"media", "import", "--store", filepath.Join(dir, "m.db"), missing}, exitError, "absent.csv"},
		{[]string{"report", "--data", "testdata/small.jsonl", "--type", "individual", "--names", "x", "--out", "/nonexistent/dir/r.pdf"}, exitError, "/nonexistent/dir/r.pdf"},
		{[]string{"gen", "--records", "3", "--out", filepath.Join(dir, "no", "such", "g.jsonl")}, exitError, "g.jsonl"},
		// Usage: 2.
		{[]string{"chek", "--names", "x"}, exitUsage, `unknown command "chek"`},
		{[]string{"media", "serch"}, exitUsage, `unknown command "serch"`},
		{[]string{"import", "--store", filepath.Join(dir, "s.db")}, exitUsage, "arg"},
		{[]string{"import", "--store", filepath.Join(dir, "s.db"), "a", "b"}, exitUsage, "arg"},
		{[]string{"check", "extra", "--names", "x"}, exitUsage, "extra"},
		{[]string{"export", "--bogus"}, exitUsage, "--bogus"},
		{[]string{"check", "--fuzzy", "x", "--names", "y"}, exitUsage, "--fuzzy"},
	}
	for _, tc := range tests {
		code, _, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming %q", tc.args, code, errs, tc.code, tc.want)
		}
		if strings.Contains(errs, ".part") {
			t.Errorf("%v: stderr names a temporary file: %q", tc.args, errs)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".part") {
				t.Errorf("temporary file %s left behind", e.Name())
			}
		}
	}
}
