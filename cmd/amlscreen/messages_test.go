package main

import (
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessages: usage errors say what is wrong with the value and what
// to do instead (issue 27, item 11). Each row is a command line a new
// user typed and the words the answer must hold; all exit 2.
func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		// A source id with a space: which character, and a spelling
		// that works.
		{[]string{"convert", "csv", "--in", "x.csv", "--out", "x.jsonl", "--source-id", "my bank", "--source-type", "OTHER"},
			[]string{`--source-id: "my bank"`, "a space at byte 2", `"my_bank"`}},
		// Mistyped flags and commands: the one meant.
		{[]string{"check", "--name", "putin"}, []string{"unknown flag: --name", "did you mean --names?"}},
		{[]string{"check", "--fuzy", "1", "--names", "x"}, []string{"did you mean --fuzzy?"}},
		{[]string{"convert", "ofca"}, []string{`unknown command "ofca"`, "did you mean ofac?"}},
		// The name given as arguments.
		{[]string{"check", "vladimir", "putin"}, []string{`amlscreen check --names "vladimir putin"`}},
		// Filters of individuals on an entity check: refused, not ignored.
		{[]string{"check", "--type", "entity", "--names", "acme", "--dob", "00/00/1970"}, []string{"--dob: filters individuals only"}},
		{[]string{"check", "--type", "entity", "--names", "acme", "--citizenship", "RU"}, []string{"--citizenship: filters individuals only"}},
		{[]string{"check", "--names", "x", "--format", "xml"}, []string{"json, table or csv"}},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %q", tc.args, code, exitUsage, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q has no %q", tc.args, stderr, w)
			}
		}
	}
}

// TestImportNotJSONLines: a list in its own format (the OFAC CSV) given to
// import is refused with the advice to convert it, and leaves no store
// behind; so does a JSON Lines file whose import fails into a new store.
func TestImportNotJSONLines(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"id\":\"A1\",\"name\":\"x\"}\nnot json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"../../convert/testdata/ofac/sdn.csv", []string{"sdn.csv: not JSON Lines", `line 1 starts "1001,`, "amlscreen convert"}},
		{bad, []string{"line 2"}},
	} {
		db := filepath.Join(dir, "new.db")
		code, _, stderr := runCLI(t, "import", "--store", db, tc.file)
		if code != exitError {
			t.Errorf("import %s: exit %d, want %d: %s", tc.file, code, exitError, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("import %s: stderr %q has no %q", tc.file, stderr, w)
			}
		}
		left, _ := filepath.Glob(db + "*")
		if len(left) > 0 {
			t.Errorf("import %s left %v behind", tc.file, left)
		}
	}
}

// TestCheckCSVAndFilterNote: check --format csv writes the hits with a
// header row, and the table says how many name matches a filter removed.
func TestCheckCSVAndFilterNote(t *testing.T) {
	code, stdout, stderr := runCLI(t, "check", "--names", "vladimir putin", "--fuzzy", "1", "--format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, stdout)
	}
	if len(rows) < 2 || rows[0][1] != "id" || rows[1][1] != "SEED0001" || rows[1][9] == "" {
		t.Errorf("check --format csv:\n%s", stdout)
	}

	code, stdout, stderr = runCLI(t, "check", "--names", "vladimir putin", "--dob", "01/01/1990", "--format", "table")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "0 hit(s)") || !strings.Contains(stdout, "name match removed by --dob") {
		t.Errorf("0 hits after --dob without saying the filter removed the name match:\n%s", stdout)
	}
	code, stdout, _ = runCLI(t, "check", "--names", "vladimir putin", "--format", "table")
	if code != exitOK || strings.Contains(stdout, "removed by") {
		t.Errorf("a check without filters mentions them:\n%s", stdout)
	}
}

// TestMonitorSendOnceNothingDelivered: send --once exits 1 when
// notifications were due and the receiver took none, and 0 when nothing
// was due.
func TestMonitorSendOnceNothingDelivered(t *testing.T) {
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusInternalServerError)
	}))
	defer rc.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	signing := filepath.Join(dir, "signing")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme","webhook_url":"`+rc.URL+`/hook"}]`), 0o600)
	send := []string{"monitor", "send", "--store", db, "--keys", keys, "--signing-keys", signing, "--once"}
	for _, s := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}, exitOK, ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-1", "--names", "Olga Ivanova"}, exitOK, ""},
		{send, exitOK, "delivered=0"}, // nothing due yet
		{[]string{"apply", "--store", db, monitorFixtures + "delta1.jsonl", "--previous", "v1", "--version", "v2"}, exitOK, ""},
		{send, exitError, "nothing delivered: 1 attempt(s) failed"},
	} {
		code, _, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, want %d with %q\nstderr: %s", s.args, code, s.code, s.errs, errs)
		}
	}
}

// TestCountriesAsBatchReadsThem: check takes the countries batch's
// citizenship column takes, codes and names, through one parser.
func TestCountriesAsBatchReadsThem(t *testing.T) {
	var want string
	for _, c := range []string{"RU", "ru", "Russia", "Russian Federation"} {
		code, stdout, stderr := runCLI(t, "check", "--names", "marina ivanova", "--citizenship", c, "--format", "json")
		if code != exitOK {
			t.Errorf("--citizenship %q: exit %d: %s", c, code, stderr)
			continue
		}
		if !strings.Contains(stdout, `"total_hits":1`) {
			t.Errorf("--citizenship %q: %s", c, stdout)
		}
		if want == "" {
			want = stdout[strings.Index(stdout, `"total_hits"`):]
		} else if got := stdout[strings.Index(stdout, `"total_hits"`):]; got != want {
			t.Errorf("--citizenship %q answers differently from RU", c)
		}
	}
	for _, c := range []string{"Narnia", "XX"} {
		code, _, stderr := runCLI(t, "check", "--names", "marina ivanova", "--citizenship", c)
		if code != exitUsage || !strings.Contains(stderr, "--citizenship: ") || !strings.Contains(stderr, c) {
			t.Errorf("--citizenship %q: exit %d, %q", c, code, stderr)
		}
	}
}
