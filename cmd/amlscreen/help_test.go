package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryCommandExplainsItself: every runnable command has an example and
// every flag a description, so --help is enough to use it.
func TestEveryCommandExplainsItself(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c.Name() != "help" && c.Name() != "completion" && c.Parent() != nil && c.Parent().Name() != "completion" {
			if c.Example == "" {
				t.Errorf("%s: no example in --help", c.CommandPath())
			}
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Usage == "" {
					t.Errorf("%s --%s: no description", c.CommandPath(), f.Name)
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}

// TestSharedFlagsAgree: a flag name means one thing with one help text in
// every command that takes it (flags.go defines them once). The
// exceptions say why they differ.
func TestSharedFlagsAgree(t *testing.T) {
	shared := []string{"store", "keys", "signing-keys", "upstream", "data", "names", "search-all", "fuzzy", "dob", "gender", "citizenship", "includes", "include-other", "limit", "ca-bundle", "match", "min-score"}
	except := map[string]string{
		// Media looks a name up in articles, not in records.
		"amlscreen media check --search-all":  "articles",
		"amlscreen media search --search-all": "articles",
		// Entries of the outbox listed, not hits.
		"amlscreen monitor outbox --limit": "list",
		// Benchmarks measure files in place of generated records, and
		// quality one fuzzy level of the three it measures.
		"amlscreen bench quality --data":  "measured",
		"amlscreen bench speed --data":    "measured",
		"amlscreen bench quality --fuzzy": "level measured",
		"amlscreen bench cases --data":    "searched",
		"amlscreen bench cases --fuzzy":   "level measured",
		// Benchmarks name the mode measured (cases also both) and take the
		// threshold as a number.
		"amlscreen bench speed --match":       "measured",
		"amlscreen bench speed --min-score":   "measured",
		"amlscreen bench cases --match":       "measured",
		"amlscreen bench cases --min-score":   "measured",
		"amlscreen bench quality --min-score": "measured",
		// Sync passes includes to the upstream, whose key decides the
		// default.
		"amlscreen sync --includes": "upstream's",
	}
	usage := map[string]string{} // flag -> help, from the first command seen
	seen := map[string]string{}  // flag -> that command
	takers := map[string]int{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		fs := c.Flags()
		for _, name := range shared {
			f := fs.Lookup(name)
			if f == nil || except[c.CommandPath()+" --"+name] != "" {
				continue
			}
			takers[name]++
			if u, ok := usage[name]; !ok {
				usage[name], seen[name] = f.Usage, c.CommandPath()
			} else if f.Usage != u {
				t.Errorf("%s --%s: help %q, but %s says %q", c.CommandPath(), name, f.Usage, seen[name], u)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
	// The shared flags are shared: check, report, batch, media check and
	// monitor register take the query flags, a dozen commands --store.
	for name, least := range map[string]int{"store": 12, "names": 3, "fuzzy": 5, "dob": 3, "includes": 3, "include-other": 2, "limit": 2, "match": 4, "min-score": 4} {
		if takers[name] < least {
			t.Errorf("--%s: taken by %d commands, want at least %d", name, takers[name], least)
		}
	}
}

// TestFormatFlag: --format table|json is the one way to ask for JSON; the
// bench commands' older --json still works, with a warning.
func TestFormatFlag(t *testing.T) {
	small := []string{"bench", "speed", "--records", "300", "--queries", "3", "--brute", "0"}
	code, out, errs := runStoreCLI(t, append(small, "--format", "json")...)
	if code != exitOK || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Fatalf("--format json: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = runStoreCLI(t, append(small, "--json")...)
	if code != exitOK || !strings.HasPrefix(strings.TrimSpace(out), "{") || !strings.Contains(errs, "use --format json") {
		t.Errorf("--json: exit %d, %q, %q", code, out, errs)
	}
	for _, args := range [][]string{append(small, "--format", "xml"), {"status", "--store", "x.db", "--format", "yaml"}} {
		if code, _, errs := runStoreCLI(t, args...); code != exitUsage || !strings.Contains(errs, "--format") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestBenchSpeedStore: bench speed --store measures a store's persisted
// index, with queries drawn from its records, and refuses --records.
func TestBenchSpeedStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "aml.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, monitorFixtures+"records.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	code, out, errs := runStoreCLI(t, "bench", "speed", "--store", db, "--queries", "20", "--brute", "2", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Records int `json:"records"`
		Fuzzy2  struct {
			Queries  int     `json:"queries"`
			MeanHits float64 `json:"mean_hits"`
		} `json:"fuzzy2"`
		IndexBytes float64 `json:"index_bytes_per_record"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Records == 0 || rep.Fuzzy2.Queries != 20 || rep.Fuzzy2.MeanHits == 0 || rep.IndexBytes <= 0 {
		t.Errorf("report %+v", rep)
	}
	if code, _, errs := runStoreCLI(t, "bench", "speed", "--store", db, "--records", "10"); code != exitUsage || !strings.Contains(errs, "--store") {
		t.Errorf("--store with --records: exit %d, %q", code, errs)
	}
}
