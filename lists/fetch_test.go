package lists

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func mustResolve(t testing.TB, names ...string) []List {
	t.Helper()
	ls, err := Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func checkOK(t testing.TB, results []Result) {
	t.Helper()
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("list %s: %v", r.List, r.Err)
		}
	}
}

func TestFetchThenUnchanged(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "testdata/edition1")
	db := openStore(t)
	f := s.fetcher()
	ls := mustResolve(t, "ofac", "un", "csl", "dpl")
	first := f.Fetch(context.Background(), db, ls)
	checkOK(t, first)
	total := 0
	for _, r := range first {
		if r.Unchanged || !r.Converted || r.Records == 0 || r.Added != r.Records || r.Version == "" {
			t.Errorf("first fetch of %s: %+v", r.List, r)
		}
		total += r.Records
	}
	if n, _ := db.Count(); n != total {
		t.Errorf("store holds %d records, the lists %d", n, total)
	}
	files := 0
	for _, l := range ls {
		files += len(l.Files)
	}
	before := s.requests.Load()
	second := f.Fetch(context.Background(), db, ls)
	checkOK(t, second)
	for _, r := range second {
		if !r.Unchanged || r.Converted || r.Version != "" {
			t.Errorf("second fetch of %s: %+v", r.List, r)
		}
	}
	if got := s.requests.Load() - before; got != int64(files) || s.notMod.Load() != int64(files) {
		t.Errorf("second fetch: %d requests, %d answered 304; want %d of each", got, s.notMod.Load(), files)
	}
	st, err := LoadState(db, "ofac")
	if err != nil {
		t.Fatal(err)
	}
	if st.LastError != "" || st.Records != first[0].Records || st.LastChange.IsZero() || len(st.Files) != 4 ||
		st.Files[0].ETag == "" || st.Files[0].LastModified != lastModified || st.Files[0].SHA256 == "" {
		t.Errorf("state of ofac: %+v", st)
	}
	all, err := Status(db)
	if err != nil || len(all) != 4 || all[0].Name != "csl" {
		t.Errorf("Status: %v, %+v", err, all)
	}
}

// edition2 returns edition1's OFAC files with one name changed, one entry
// removed and one added.
func edition2(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range []string{"sdn.csv", "add.csv", "alt.csv", "sdn_comments.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata/edition1", n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	var lines []string
	for _, line := range strings.SplitAfter(string(out["sdn.csv"]), "\n") {
		switch {
		case strings.HasPrefix(line, "1005,"):
			continue
		case strings.HasPrefix(line, "1002,"):
			line = strings.Replace(line, `"ROE, Jane"`, `"ROE, Janet"`, 1)
		}
		lines = append(lines, line)
	}
	body := strings.TrimSuffix(strings.Join(lines, ""), "\x1a") // OFAC ends its files with a SUB
	out["sdn.csv"] = []byte(body + "1099,\"NEWCO HOLDINGS\",-0- ,\"SDGT\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n\x1a")
	return out
}

// recordBytes writes a record for comparison.
func recordBytes(r *record.Record) string {
	return string(r.Append(nil, record.WriteOptions{Case: record.Camel}))
}

// TestChangedEditionDifferential checks that a new edition applies exactly
// the records that differ between converting the one and the other.
func TestChangedEditionDifferential(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "testdata/edition1")
	db := openStore(t)
	var seen []*store.Applied
	db.OnApply(func(_ *store.Tx, a *store.Applied) error { seen = append(seen, a); return nil })
	f := s.fetcher()
	ofac := mustResolve(t, "ofac")
	checkOK(t, f.Fetch(context.Background(), db, ofac))

	dir2 := t.TempDir()
	for n, b := range edition2(t) {
		s.set(n, b)
		if err := os.WriteFile(filepath.Join(dir2, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := f.Fetch(context.Background(), db, ofac)
	checkOK(t, res)

	want := diffEditions(t, ofac[0], "testdata/edition1", dir2)
	cur, err := Convert(ofac[0], dir2)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res[0].Changes {
		got[c.ID] = c.Effect
	}
	if len(want) != 3 || !mapsEqual(got, want) {
		t.Errorf("changes applied %v, want %v", got, want)
	}
	// Four conditional requests, then the three files answered 304 again
	// in full: the converter needs every file.
	if r := res[0]; r.Added != 1 || r.Updated != 1 || r.Deleted != 1 || r.Records != len(cur) || r.Requests != 7 {
		t.Errorf("result %+v", r)
	}
	for _, r := range cur {
		stored, err := db.Get(r.ID)
		if err != nil || stored == nil || recordBytes(stored) != recordBytes(r) {
			t.Errorf("record %s stored as %v (%v), want %s", r.ID, stored, err, recordBytes(r))
		}
	}
	if len(seen) != 2 || seen[1].Version != res[0].Version || seen[1].Added != 1 || seen[1].Deleted != 1 {
		t.Errorf("change hooks saw %d change sets; the last %+v", len(seen), seen[len(seen)-1])
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestFetchFailures checks that a list whose download fails keeps its
// previous edition whole, its state says why, and the other lists go on.
func TestFetchFailures(t *testing.T) {
	cases := []struct {
		mode, file, want string
		requests         int64 // requests of the failing file
	}{
		{"500", "dpl.txt", "500 Internal Server Error (gave up after 3 attempts)", 3},
		{"truncate", "dpl.txt", "gave up after 3 attempts", 3},
		{"slow", "dpl.txt", "download stalled", 3},
		{"404", "dpl.txt", "not found (404)", 1},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			s := newListServer(t)
			s.addDir(t, "testdata/edition1")
			db := openStore(t)
			f := s.fetcher()
			f.StallTimeout = 100 * time.Millisecond
			ls := mustResolve(t, "dpl", "un")
			checkOK(t, f.Fetch(context.Background(), db, ls))
			count, _ := db.Count()
			ver, _ := db.Version()

			b, _ := os.ReadFile("testdata/edition1/dpl.txt")
			s.set("dpl.txt", append(b, '\n')) // a changed edition, so the conditional GET cannot answer 304
			s.mode(c.file, c.mode)
			before := s.requests.Load()
			res := f.Fetch(context.Background(), db, ls)
			if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", res[0].Err, c.want)
			}
			if res[1].Err != nil || !res[1].Unchanged {
				t.Errorf("un after dpl failed: %+v", res[1])
			}
			if got := s.requests.Load() - before - 1; got != c.requests {
				t.Errorf("%d requests for %s, want %d", got, c.file, c.requests)
			}
			if n, _ := db.Count(); n != count {
				t.Errorf("store holds %d records after the failure, %d before", n, count)
			}
			if v, _ := db.Version(); v.ID != ver.ID {
				t.Errorf("version moved from %s to %s", ver.ID, v.ID)
			}
			st, _ := LoadState(db, "dpl")
			if !strings.Contains(st.LastError, c.want) || st.Failures != 1 || st.LastSuccess.IsZero() {
				t.Errorf("state after failure: %+v", st)
			}
			s.mode(c.file, "")
			res = f.Fetch(context.Background(), db, ls[:1])
			checkOK(t, res)
			if st, _ := LoadState(db, "dpl"); st.LastError != "" || st.Failures != 0 || res[0].Unchanged {
				t.Errorf("state after recovery: %+v, result %+v", st, res[0])
			}
		})
	}
}

// TestSlowWithinLimit checks that a slow answer that arrives before the
// stall timeout is taken.
func TestSlowWithinLimit(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "testdata/edition1")
	s.slow = 50 * time.Millisecond
	s.mode("dpl.txt", "slow")
	f := s.fetcher()
	f.StallTimeout = 2 * time.Second
	checkOK(t, f.Fetch(context.Background(), openStore(t), mustResolve(t, "dpl")))
}

// TestShrinkGuardPerList checks that an edition deleting most of a list's
// records is refused unless allowed, and an empty one always.
func TestShrinkGuardPerList(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "testdata/edition1")
	db := openStore(t)
	f := s.fetcher()
	ls := mustResolve(t, "ofac", "un")
	checkOK(t, f.Fetch(context.Background(), db, ls))
	count, _ := db.Count()
	sdn, _ := os.ReadFile("testdata/edition1/sdn.csv")
	first, _, _ := bytes.Cut(sdn, []byte("\n"))
	s.set("sdn.csv", append(first, '\n'))
	res := f.Fetch(context.Background(), db, ls)
	var se *ShrinkError
	if !errors.As(res[0].Err, &se) || se.Deleted == 0 {
		t.Fatalf("shrunk edition: %v, want a ShrinkError", res[0].Err)
	}
	if res[1].Err != nil {
		t.Errorf("un: %v", res[1].Err)
	}
	if n, _ := db.Count(); n != count {
		t.Errorf("store holds %d records, %d before", n, count)
	}
	s.set("sdn.csv", nil)
	if res := f.Fetch(context.Background(), db, ls[:1]); !errors.As(res[0].Err, &se) || !strings.Contains(se.Error(), "no records") {
		t.Errorf("empty edition: %v", res[0].Err)
	}
	s.set("sdn.csv", append(first, '\n'))
	f.AllowShrink = true
	res = f.Fetch(context.Background(), db, ls[:1])
	checkOK(t, res)
	if res[0].Records != 1 || res[0].Deleted == 0 {
		t.Errorf("allowed shrink: %+v", res[0])
	}
}

// TestMirrorAndFetchDir checks the air-gapped path: mirror writes the
// files and their checksums, FetchDir applies them, an unchanged directory
// converts nothing, and a file whose checksum is wrong is refused.
func TestMirrorAndFetchDir(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "testdata/edition1")
	f := s.fetcher()
	ls := mustResolve(t, "ofac", "un", "dpl")
	out := t.TempDir()
	results, err := f.Mirror(context.Background(), out, ls)
	if err != nil {
		t.Fatal(err)
	}
	checkOK(t, results)
	m, ok, err := ReadManifest(out)
	if err != nil || !ok || len(m.Files) != 6 {
		t.Fatalf("manifest %v %v %+v", ok, err, m)
	}
	sums, _ := os.ReadFile(filepath.Join(out, SumsName))
	if !strings.Contains(string(sums), m.Files[0].SHA256+"  "+m.Files[0].Name) {
		t.Errorf("SHA256SUMS:\n%s", sums)
	}

	db := openStore(t)
	fetched := s.fetcher()
	fetched.URLs = map[string]string{"ofac": "http://127.0.0.1:1/"} // never asked
	res := fetched.FetchDir(db, out, ls)
	checkOK(t, res)
	direct := openStore(t)
	want := f.Fetch(context.Background(), direct, ls)
	for i := range res {
		if res[i].Records != want[i].Records || res[i].Added != want[i].Records {
			t.Errorf("list %s from the directory: %+v; downloaded: %+v", res[i].List, res[i], want[i])
		}
	}
	res = fetched.FetchDir(db, out, ls)
	checkOK(t, res)
	if !res[0].Unchanged || res[0].Converted {
		t.Errorf("second FetchDir: %+v", res[0])
	}

	if err := os.WriteFile(filepath.Join(out, "dpl.txt"), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = fetched.FetchDir(db, out, ls[2:])
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "SHA-256") {
		t.Errorf("tampered file: %v", res[0].Err)
	}

	// Without a manifest, files are found under the issuers' names in any case.
	plain := t.TempDir()
	b, _ := os.ReadFile("testdata/edition1/consolidated.xml")
	os.WriteFile(filepath.Join(plain, "CONSOLIDATED.XML"), b, 0o644)
	res = fetched.FetchDir(openStore(t), plain, mustResolve(t, "un"))
	checkOK(t, res)
	if res[0].Records == 0 {
		t.Errorf("un from a plain directory: %+v", res[0])
	}
	res = fetched.FetchDir(openStore(t), plain, mustResolve(t, "dpl"))
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "dpl.txt") {
		t.Errorf("missing file: %v", res[0].Err)
	}
}

func TestURLOverrides(t *testing.T) {
	ofac, _ := Lookup("ofac")
	un, _ := Lookup("UN")
	cases := []struct {
		pairs   []string
		list    List
		file    int
		want    string
		wantErr string
	}{
		{nil, un, 0, un.Files[0].URL, ""},
		{[]string{"un=https://mirror.bank/un.xml"}, un, 0, "https://mirror.bank/un.xml", ""},
		{[]string{"un=https://mirror.bank/lists/"}, un, 0, "https://mirror.bank/lists/consolidated.xml", ""},
		{[]string{"ofac=https://mirror.bank/ofac"}, ofac, 1, "https://mirror.bank/ofac/add.csv", ""},
		{[]string{"ofac=https://mirror.bank/ofac", "add.csv=http://other/ADD.CSV"}, ofac, 1, "http://other/ADD.CSV", ""},
		{[]string{"nope=https://x/"}, un, 0, "", "neither a list"},
		{[]string{"un"}, un, 0, "", "not NAME=URL"},
		{[]string{"un=ftp://x/y"}, un, 0, "", "not an http or https URL"},
	}
	for _, c := range cases {
		m, err := ParseURLs(nil, c.pairs, func(i int) string { return "--url" })
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: error %v, want %q", c.pairs, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.pairs, err)
		}
		f := &Fetcher{URLs: m}
		if got := f.URL(c.list, c.list.Files[c.file]); got != c.want {
			t.Errorf("%v: %s, want %s", c.pairs, got, c.want)
		}
	}
	p := filepath.Join(t.TempDir(), "lists.conf")
	os.WriteFile(p, []byte("# the bank's mirror\n\nun = https://mirror.bank/un.xml\nbad\n"), 0o644)
	if _, err := ReadURLsFile(nil, p); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("lists file: %v, want an error naming line 4", err)
	}
}

func TestTable(t *testing.T) {
	for _, l := range Known() {
		if l.Name == "" || l.Issuer == "" || l.Format == "" || l.Licence == "" || l.MapsTo == "" || len(l.Files) == 0 || l.Convert == nil {
			t.Errorf("list %q is incomplete: %+v", l.Name, l)
		}
		for _, f := range l.Files {
			if !strings.HasPrefix(f.URL, "https://") {
				t.Errorf("list %s file %s: URL %q", l.Name, f.Name, f.URL)
			}
		}
	}
	if _, err := Resolve([]string{"ofac", "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("Resolve: %v", err)
	}
	if got := Names(); !slices.Contains(got, "un") {
		t.Errorf("Names: %v", got)
	}
}

// TestOpenSanctionsLists fetches both OpenSanctions exports (fixtures
// written from the published formats) and checks that one list replaces
// the other only when asked: both give records the same ids.
func TestOpenSanctionsLists(t *testing.T) {
	s := newListServer(t)
	s.addDir(t, "../convert/testdata/opensanctions")
	db := openStore(t)
	f := s.fetcher()
	res := f.Fetch(context.Background(), db, mustResolve(t, "opensanctions"))
	checkOK(t, res)
	if res[0].Records != 8 {
		t.Errorf("opensanctions: %+v", res[0])
	}
	st, _ := LoadState(db, "opensanctions")
	if !slices.Contains(st.Sources, "os_us_ofac_sdn") || !slices.Contains(st.Sources, "os_everypolitician") {
		t.Errorf("sources %v", st.Sources)
	}
	res = f.Fetch(context.Background(), db, mustResolve(t, "opensanctions-simple"))
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "held by a record of source") {
		t.Errorf("simple CSV over the FtM stream: %v", res[0].Err)
	}
	res = f.Fetch(context.Background(), openStore(t), mustResolve(t, "opensanctions-simple"))
	checkOK(t, res)
	if res[0].Records != 4 {
		t.Errorf("opensanctions-simple: %+v", res[0])
	}
}
