package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeTourRuns runs the README's tour of the commands as written,
// in order, in an empty directory holding only what the README says the
// reader brings (a customer book, the OFAC files, a keys file, labelled
// cases): each command must exit 0, and the examples must find what their
// comments promise. sync and lists fetch need the network and serve runs
// until stopped, so those are only parsed (serve --demo has tests of its
// own: TestServeDemo).
func TestReadmeTourRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the README's tour (report, batch, import)")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tour := tourBlock(t, string(readme))
	ofac, err := filepath.Abs("../../convert/testdata/ofac")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"customers.csv": "customer_id,full_name,type,date_of_birth,gender,nationality\n" +
			"C-1001,Vladimir Putin,individual,07/10/1952,male,RU\nC-1002,Anna Schmidt,individual,,,\n",
		"keys.json":    `[{"key":"acme-tour-key","name":"acme"}]`,
		"my_cases.csv": "id,name,type,dob,gender,citizenship,expect,note\nc1,\"John Michael Doe\",individual,,,,OFAC-1001,name order\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "lists"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sdn.csv", "add.csv", "alt.csv", "sdn_comments.csv"} {
		b, err := os.ReadFile(filepath.Join(ofac, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "lists", f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)

	// What a command's output must hold, by its place in the tour.
	promises := map[string][]string{
		"check --names Richard Michael Smith": {"AML00001347"}, // the variant strict misses
		"decide":                              {"decided false_positive on record SEED0001"},
		"media check":                         {`"total_hits":44`},
		"status":                              {"Records", "5000"},
		"bench cases":                         {"cases 1"},
	}
	ran := 0
	for _, args := range tour {
		line := strings.Join(args, " ")
		if args[0] == "sync" || args[0] == "serve" || args[0] == "lists" {
			if err := parseCommandLine(args); err != nil {
				t.Errorf("amlscreen %s: %v", line, err)
			}
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitOK {
			t.Fatalf("amlscreen %s: exit %d\n%s%s", line, code, stdout.String(), stderr.String())
		}
		ran++
		for prefix, wants := range promises {
			if strings.HasPrefix(line, prefix) {
				for _, w := range wants {
					if !strings.Contains(stdout.String(), w) {
						t.Errorf("amlscreen %s: no %q in its output:\n%s", line, w, stdout.String())
					}
				}
			}
		}
	}
	if ran < 10 {
		t.Errorf("only %d commands of the tour ran: is the block still there?", ran)
	}
	for _, f := range []string{"report.pdf", "hits.csv", "ofac.jsonl.gz", "aml.db", "lists.db"} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("the tour made no %s: %v", f, err)
		}
	}
	// The scored example finds a variant strict matching misses.
	var stdout, stderr bytes.Buffer
	run([]string{"check", "--names", "Richard Michael Smith", "--fuzzy", "2", "--format", "json"}, &stdout, &stderr)
	if strings.Contains(stdout.String(), "AML00001347") {
		t.Error("strict matching finds the scored example's record: it shows nothing scored adds")
	}
}

// tourBlock returns the command lines of the README's "A tour of the
// commands" code block.
func tourBlock(t *testing.T, readme string) [][]string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "## A tour of the commands")
	if !ok {
		t.Fatal(`README.md has no "## A tour of the commands"`)
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	block, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatal("the tour has no ```sh block")
	}
	var out [][]string
	for _, l := range strings.Split(block, "\n") {
		out = append(out, commandsInLine(l)...)
	}
	return out
}
