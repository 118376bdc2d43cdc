package lists

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/store"
)

// sharedLists is the directory of real list editions beside the checkout.
const sharedLists = "../../shared/lists"

// realFiles maps the names the issuers give their files to the files of
// the shared directory that hold real editions of them.
var realFiles = map[string]string{
	"sdn.csv": "sdn.csv", "add.csv": "add.csv", "alt.csv": "alt.csv", "sdn_comments.csv": "sdn_comments.csv",
	"cons_prim.csv": "cons_prim.csv", "cons_add.csv": "cons_add.csv", "cons_alt.csv": "cons_alt.csv", "cons_comments.csv": "cons_comments.csv",
	"consolidated.xml":  "UN_consolidated.xml",
	"consolidated.csv":  "consolidated.csv.gz", // gzip-compressed; the converter reads either
	"dpl.txt":           "dpl.txt",
	"CONS_ENHANCED.ZIP": "CONS_ENHANCED.ZIP",
}

// realServer serves the real editions, or skips the test when they are
// absent.
func realServer(t testing.TB) *listServer {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sharedLists, "sdn.csv")); err != nil {
		t.Skipf("real list editions not found in %s (%v): the always-run tests use testdata", sharedLists, err)
	}
	s := newListServer(t)
	for name, file := range realFiles {
		b, err := os.ReadFile(filepath.Join(sharedLists, file))
		if err != nil {
			t.Fatal(err)
		}
		s.set(name, b)
	}
	return s
}

// TestRealLists fetches the real editions over loopback and checks the
// counts the converters give on them. The Consolidated Screening List,
// 14,159 of the 25,127 records and half the test's CPU, is fetched with
// AMLSCREEN_LONG_TESTS=1 only; convert/csl's TestRealCSL converts it.
func TestRealLists(t *testing.T) {
	if testing.Short() {
		t.Skip("converts the real lists (seconds); run without -short")
	}
	s := realServer(t)
	db := openStore(t)
	f := s.fetcher()
	first, again := []string{"ofac", "ofac-cons", "un", "dpl"}, []string{"ofac", "un", "dpl"}
	if longTests() {
		first, again = append(first, "csl"), append(again, "csl")
	}
	res := f.Fetch(context.Background(), db, mustResolve(t, first...))
	checkOK(t, res)
	want := map[string]int{"ofac": 8976, "ofac-cons": 442, "un": 1003, "csl": 14159, "dpl": 547}
	total := 0
	for _, r := range res {
		if r.Records != want[r.List] || r.Added != r.Records {
			t.Errorf("%s: %d records, %d added; want %d", r.List, r.Records, r.Added, want[r.List])
		}
		total += r.Records
	}
	if n, _ := db.Count(); n != total {
		t.Errorf("store holds %d records, want %d", n, total)
	}
	// The enhanced XML edition of the non-SDN lists (2025) replaces the
	// CSV one (2025) as a change set of the same source.
	xml := f.Fetch(context.Background(), db, mustResolve(t, "ofac-cons-xml"))
	checkOK(t, xml)
	if xml[0].Records < 400 || xml[0].Version == "" {
		t.Errorf("ofac-cons-xml over ofac-cons: %+v", xml[0])
	}
	unchanged := f.Fetch(context.Background(), db, mustResolve(t, again...))
	checkOK(t, unchanged)
	for _, r := range unchanged {
		if !r.Unchanged || r.Converted {
			t.Errorf("second fetch of %s: %+v", r.List, r)
		}
	}

	// A changed edition of the real SDN list: every 40th entry gone, every
	// 70th renamed. The change set applied must be exactly the difference
	// between converting the one edition and the other.
	dir1, dir2 := t.TempDir(), t.TempDir()
	for _, n := range []string{"sdn.csv", "add.csv", "alt.csv", "sdn_comments.csv"} {
		b, err := os.ReadFile(filepath.Join(sharedLists, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir1, n), b, 0o644)
		if n == "sdn.csv" {
			var out []string
			for i, line := range strings.SplitAfter(string(b), "\n") {
				switch {
				case i%40 == 39:
					continue
				case i%70 == 69:
					line = strings.Replace(line, `,"`, `,"RENAMED `, 1)
				}
				out = append(out, line)
			}
			b = []byte(strings.Join(out, ""))
			s.set(n, b)
		}
		os.WriteFile(filepath.Join(dir2, n), b, 0o644)
	}
	ofac := mustResolve(t, "ofac")
	changed := f.Fetch(context.Background(), db, ofac)
	checkOK(t, changed)
	expected := diffEditions(t, ofac[0], dir1, dir2)
	got := map[string]string{}
	for _, c := range changed[0].Changes {
		got[c.ID] = c.Effect
	}
	if len(expected) < 300 || !mapsEqual(got, expected) {
		t.Errorf("real edition: %d changes applied, %d expected (%d added, %d updated, %d deleted)",
			len(got), len(expected), changed[0].Added, changed[0].Updated, changed[0].Deleted)
	}
}

// diffEditions converts list l in dir1 and dir2 and returns the effect
// on each record id that differs.
func diffEditions(t testing.TB, l List, dir1, dir2 string) map[string]string {
	t.Helper()
	old, err := Convert(l, dir1)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Convert(l, dir2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	oldBy := map[string]string{}
	for _, r := range old {
		oldBy[r.ID] = recordBytes(r)
	}
	seen := map[string]bool{}
	for _, r := range cur {
		seen[r.ID] = true
		switch o, ok := oldBy[r.ID]; {
		case !ok:
			want[r.ID] = store.EffectAdd
		case o != recordBytes(r):
			want[r.ID] = store.EffectUpdate
		}
	}
	for id := range oldBy {
		if !seen[id] {
			want[id] = store.EffectDelete
		}
	}
	return want
}

// BenchmarkFetchReal measures lists fetch ofac un csl dpl from the local
// server into an empty store.
func BenchmarkFetchReal(b *testing.B) {
	s := realServer(b)
	ls := mustResolve(b, "ofac", "un", "csl", "dpl")
	for b.Loop() {
		b.StopTimer()
		db := openStore(b)
		b.StartTimer()
		checkOK(b, s.fetcher().Fetch(context.Background(), db, ls))
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}

// BenchmarkFetchUnchanged measures a second fetch of unchanged lists:
// one conditional request per file and no conversion.
func BenchmarkFetchUnchanged(b *testing.B) {
	s := realServer(b)
	ls := mustResolve(b, "ofac", "un", "csl", "dpl")
	db := openStore(b)
	f := s.fetcher()
	checkOK(b, f.Fetch(context.Background(), db, ls))
	for b.Loop() {
		for _, r := range f.Fetch(context.Background(), db, ls) {
			if r.Err != nil || !r.Unchanged {
				b.Fatalf("%+v", r)
			}
		}
	}
}
