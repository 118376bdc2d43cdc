package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBookCommands imports a book into a store, re-imports a changed one,
// refuses one with bad rows, exports, removes and reports status.
func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aml.db")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := write("a.csv", "customer_id,full_name,date_of_birth,nationality\nC1,Anna Sokolova,01/02/1970,RU\nC2,Boris Kuznetsov,,\nC3,Acme Ltd,,\n")
	second := write("b.csv", "customer_id,full_name,date_of_birth,nationality,branch\nC1,Anna Sokolova,01/02/1970,RU,Riga\nC2,Boris Kusnezow,,,\nC4,Dmitri Volkov,,,Tallinn\n")
	bad := write("c.csv", "customer_id,full_name,date_of_birth,nationality\nC5,Eva Novak,31/02/1980,\nC6,,,\n")

	code, out, errs := runCLI(t, "book", "import", "--store", path, first)
	if code != exitOK || !strings.Contains(out, "3 customers (3 added, 0 changed, 0 removed, 0 unchanged); match strict, fuzzy 0") {
		t.Fatalf("import: exit %d %q %s", code, out, errs)
	}
	code, out, errs = runCLI(t, "book", "import", "--store", path, second, "--match", "scored", "--fuzzy", "1")
	if code != exitOK || !strings.Contains(out, "(1 added, 2 changed, 1 removed, 0 unchanged); match scored, fuzzy 1") {
		t.Fatalf("re-import: exit %d %q %s", code, out, errs)
	}
	code, _, errs = runCLI(t, "book", "import", "--store", path, bad)
	if code != exitRejected || !strings.Contains(errs, "line 2: dob") || !strings.Contains(errs, "line 3: name") || !strings.Contains(errs, "nothing imported") {
		t.Fatalf("bad rows: exit %d %s", code, errs)
	}
	code, out, _ = runCLI(t, "book", "export", "--store", path)
	if want := "id,name,type,dob,gender,citizenship,branch\nC1,Anna Sokolova,,01/02/1970,,RU,Riga\nC2,Boris Kusnezow,,,,,\nC4,Dmitri Volkov,,,,,Tallinn\n"; code != exitOK || out != want {
		t.Fatalf("export: exit %d\n%s", code, out)
	}
	// The export reads back as the same book, and keeps the setting.
	exported := write("exported.csv", out)
	code, out, _ = runCLI(t, "book", "import", "--store", path, exported)
	if code != exitOK || !strings.Contains(out, "(0 added, 0 changed, 0 removed, 3 unchanged); match scored, fuzzy 1") {
		t.Fatalf("re-import of the export: exit %d %q", code, out)
	}
	code, out, _ = runCLI(t, "book", "export", "--store", path, "--format", "jsonl")
	if want := `{"branch":"Riga","citizenship":"RU","dob":"01/02/1970","id":"C1","name":"Anna Sokolova"}`; code != exitOK || !strings.HasPrefix(out, want+"\n") {
		t.Fatalf("export jsonl: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "book", "import", "--store", path, write("exported.jsonl", out))
	if code != exitOK || !strings.Contains(out, "(0 added, 0 changed, 0 removed, 3 unchanged)") {
		t.Fatalf("re-import of the jsonl export: exit %d %q", code, out)
	}
	code, _, errs = runCLI(t, "book", "remove", "--store", path, "C2", "C9")
	if code != exitError || !strings.Contains(errs, "C9") {
		t.Fatalf("remove: exit %d %s", code, errs)
	}
	code, out, _ = runCLI(t, "book", "status", "--store", path, "--format", "json")
	var st struct {
		Customers  int
		Match      string
		Fuzzy      int
		LastImport struct{ File string } `json:"last_import"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != exitOK || err != nil || st.Customers != 2 || st.Match != "scored" || st.Fuzzy != 1 || !strings.HasSuffix(st.LastImport.File, "exported.jsonl") {
		t.Fatalf("status: exit %d %v %s", code, err, out)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"book", "import", first}, exitUsage},
		{[]string{"book", "import", "--store", path, first, "--fuzzy", "3"}, exitUsage},
		{[]string{"book", "import", "--store", path, first, "--match", "loose"}, exitUsage},
		{[]string{"book", "export", "--store", path, "--format", "xml"}, exitUsage},
		{[]string{"book", "import", "--store", path, filepath.Join(dir, "missing.csv")}, exitError},
	} {
		if code, _, errs := runCLI(t, tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d: %s", tc.args, code, tc.code, errs)
		}
	}
}
