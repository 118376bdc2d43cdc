package batch

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureIndex is the index over testdata/records.jsonl, built once.
var fixtureIndex = sync.OnceValues(func() (*engine.Index, error) {
	f, err := os.Open("testdata/records.jsonl")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return engine.NewIndex(recs), nil
})

func mustFixtureIndex(t testing.TB) *engine.Index {
	t.Helper()
	ix, err := fixtureIndex()
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./batch -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the golden file at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is intended)", name, i+1, g, w)
			}
		}
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenBook screens a small hand-written book against hand-written
// records and compares the hits and rejects byte for byte: exact names,
// reordered and typo'd ones, Cyrillic against Latin, legal forms, filters
// that keep and that drop a record, entity rows that ignore the filters,
// and every kind of reject with its line number.
func TestGoldenBook(t *testing.T) {
	ix := mustFixtureIndex(t)
	for _, format := range []OutputFormat{CSVOutput, JSONLOutput} {
		t.Run(format.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "hits."+format.String())
			sum, err := Run(context.Background(), Config{
				Screener: Screener{Index: ix, Fuzzy: 1},
				Input:    "testdata/book.csv", Out: out, Format: format, Workers: 3,
			})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "book.hits.golden."+format.String(), readFile(t, out))
			golden(t, "book.rejects.golden.csv", readFile(t, DefaultRejectsPath(out)))
			// Row 23 is an entity: its bad dob and country are not its
			// filters, so it is screened, not rejected. Row 26's quoted
			// name spans two lines: each is rejected with its number.
			if sum.RowsRead != 28 || sum.RowsRejected != 8 || sum.RowsScreened != 20 {
				t.Errorf("read %d, rejected %d, screened %d; want 28, 8, 20", sum.RowsRead, sum.RowsRejected, sum.RowsScreened)
			}
			if _, err := os.Stat(CheckpointPath(out)); !os.IsNotExist(err) {
				t.Errorf("a finished run leaves its checkpoint behind: %v", err)
			}
			report := string(readFile(t, DefaultReportPath(out)))
			for _, want := range []string{"# Batch screening report", "| Rows read | 28 |", "| Rows rejected | 8 |", "## Top sources", "| us_ofac_sdn | 7 |", "## Hits per customer", "| dob | 1 |", "| 2 | 2 | █████ |"} {
				if !strings.Contains(report, want) {
					t.Errorf("report lacks %q", want)
				}
			}
			if t.Failed() {
				t.Logf("report:\n%s", report)
			}
		})
	}
}
