package lists

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// sharedLists is the directory of real list editions beside the checkout.
const sharedLists = "../../shared/lists"

// realFiles maps the names the issuers give their files to the files of
// the shared directory that hold real editions of them.
var realFiles = map[string]string{
	"sdn.csv": "sdn.csv", "add.csv": "add.csv", "alt.csv": "alt.csv", "sdn_comments.csv": "sdn_comments.csv",
	"cons_prim.csv": "cons_prim.csv", "cons_add.csv": "cons_add.csv", "cons_alt.csv": "cons_alt.csv", "cons_comments.csv": "cons_comments.csv",
	"consolidated.xml": "UN_consolidated.xml",
	"consolidated.csv": "consolidated.csv.gz", // gzip-compressed; the converter reads either
	"dpl.txt":          "dpl.txt",
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
// counts the converters give on them.
func TestRealLists(t *testing.T) {
	if testing.Short() {
		t.Skip("converts the real lists (seconds); run without -short")
	}
	s := realServer(t)
	db := openStore(t)
	f := s.fetcher()
	res := f.Fetch(context.Background(), db, mustResolve(t, "ofac", "ofac-cons", "un", "csl", "dpl"))
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
	again := f.Fetch(context.Background(), db, mustResolve(t, "ofac", "un", "csl", "dpl"))
	checkOK(t, again)
	for _, r := range again {
		if !r.Unchanged || r.Converted {
			t.Errorf("second fetch of %s: %+v", r.List, r)
		}
	}
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
