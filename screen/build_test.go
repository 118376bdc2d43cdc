package screen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// smallParts makes builds write parts of n records for one test.
func smallParts(t *testing.T, n int) {
	old := partRecords
	partRecords = n
	t.Cleanup(func() { partRecords = old })
}

// followed opens a world's store to write with a Follower, as a writing
// command does, building in parts of parts records; both close when the
// test ends.
func followed(t *testing.T, parts int) (*world, *store.Store, *Follower, *bytes.Buffer) {
	smallParts(t, parts)
	w := newWorld(t)
	logs := &bytes.Buffer{}
	st, log := w.open(logs)
	f := Follow(st, log)
	t.Cleanup(func() {
		f.Close()
		st.Close()
	})
	return w, st, f, logs
}

// served opens a world's store to write with an index as a server opens
// it (Open: registered on the store, merging in the background); both
// close when the test ends.
func served(t *testing.T) (*world, *store.Store, *Database, *bytes.Buffer) {
	w := newWorld(t)
	logs := &bytes.Buffer{}
	st, d := w.openIndexed(logs)
	t.Cleanup(func() {
		d.Close()
		st.Close()
	})
	return w, st, d, logs
}

// generated returns n generated records from the i-th on.
func (w *world) generated(from, n int) []*record.Record {
	out := make([]*record.Record, 0, n)
	for i := range n {
		out = append(out, w.g.Record(from+i))
	}
	return out
}

// buildFiles lists the build files left in the index directory of path.
func buildFiles(t *testing.T, path string) []string {
	t.Helper()
	ents, err := os.ReadDir(IndexDir(path))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), buildPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// A first import builds the index from the records as the store reads
// them, in parts merged into one segment, and the index answers like a
// fresh build: later copies of an id win across parts, as in the store.
func TestImportBuildsTheIndexAsItReads(t *testing.T) {
	w, st, f, logs := followed(t, 128)
	recs := w.generated(0, 1000)
	// Later copies of early ids with other names: in later parts, and in
	// the same part as the first copy (which the part's id order no longer
	// lists, only its tombstones).
	for i, from := range []int{3, 200} {
		r := *w.g.Record(5000 + i)
		r.ID, r.SourceID, r.SourceType = recs[from].ID, recs[from].SourceID, recs[from].SourceType
		recs = append(recs, &r)
	}
	same := *w.g.Record(6000)
	same.ID, same.SourceID, same.SourceType = recs[5].ID, recs[5].SourceID, recs[5].SourceType
	recs = slices.Insert(recs, 10, &same)
	for _, r := range recs {
		w.cur[r.ID] = r
	}
	if err := st.ReplaceAll("v1", feed(recs...), nil); err != nil {
		t.Fatal(err)
	}
	w.version = "v1"
	if f.d == nil {
		t.Fatal("the follower opened no index")
	}
	if s := f.d.State(); s.State != StateImported || s.Segments != 1 {
		t.Fatalf("state %+v, want one segment built during the import", s)
	}
	if strings.Contains(logs.String(), "building the screening index from the store") {
		t.Fatalf("the index was built again after the import:\n%s", logs.String())
	}
	w.agrees(f.d)
	if left := buildFiles(t, w.path); len(left) > 0 {
		t.Fatalf("build files left: %v", left)
	}

	// Opened again, the files are current.
	d, err := Open(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if s := d.State(); s.State != StateCurrent {
		t.Fatalf("reopened: %+v", s)
	}
	w.agrees(d)
}

// Records of a local source that a full import keeps make a second
// segment of the import's build.
func TestImportBuildKeepsLocalSources(t *testing.T) {
	smallParts(t, 100)
	w := newWorld(t)
	var logs bytes.Buffer
	st, log := w.open(&logs)
	defer st.Close()
	w.importAll(st, 300, "v1")
	var local []*record.Record
	for i := range 20 {
		r := *w.g.Record(900 + i)
		r.ID, r.SourceID = "LOCAL-"+r.ID, "bank-own-list"
		local = append(local, &r)
		w.cur[r.ID] = &r
	}
	if _, err := st.MergeSources("v2", feed(local...), store.MergeOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(IndexDir(w.path)) // no current index: the import builds one
	f := Follow(st, log)
	defer f.Close()
	recs := w.generated(0, 250)
	for id, r := range w.cur {
		if r.SourceID != "bank-own-list" {
			delete(w.cur, id)
		}
	}
	for _, r := range recs {
		w.cur[r.ID] = r
	}
	if err := st.ReplaceAll("v3", feed(recs...), nil); err != nil {
		t.Fatal(err)
	}
	w.version = "v3"
	if s := f.d.State(); s.State != StateImported || s.Segments != 2 || s.Records != 270 {
		t.Fatalf("state %+v, want the import's and the kept local records' segments", s)
	}
	w.agrees(f.d)
}

// An import that fails or is refused leaves no build files, and the index
// as it was.
func TestImportBuildAborted(t *testing.T) {
	w, st, _, _ := followed(t, 64)

	// A bad record after several parts: nothing committed.
	recs := w.generated(0, 400)
	bad := func() func() (*record.Record, error) {
		next := feed(recs...)
		n := 0
		return func() (*record.Record, error) {
			if n++; n == 300 {
				return nil, errors.New("line 300: not a record")
			}
			return next()
		}
	}
	if err := st.ReplaceAll("v1", bad(), nil); err == nil {
		t.Fatal("a failing feed was imported")
	}
	if left := buildFiles(t, w.path); len(left) > 0 {
		t.Fatalf("build files left after a failed import: %v", left)
	}

	// A refused shrink, with the index missing so that the import builds.
	w.importAll(st, 400, "v1")
	st.Close()
	os.RemoveAll(IndexDir(w.path))
	st, err := store.Open(w.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f2 := Follow(st, nil)
	defer f2.Close()
	var shrink *store.ShrinkError
	if err := st.ReplaceAll("v2", feed(recs[:10]...), nil); !errors.As(err, &shrink) {
		t.Fatalf("shrink not refused: %v", err)
	}
	if left := buildFiles(t, w.path); len(left) > 0 {
		t.Fatalf("build files left after a refused import: %v", left)
	}
	d, err := Open(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	w.agrees(d)
}

// A full import over a current index applies its change set instead of
// building; one that changes most records builds afresh.
func TestReimportReplaysOrRebuilds(t *testing.T) {
	w, st, f, logs := followed(t, 64)
	w.importAll(st, 400, "v1")

	// A few changes: replayed as a small segment.
	recs := w.records()
	recs = append(recs[:len(recs)-5:len(recs)-5], w.g.Record(700), w.g.Record(701))
	w.cur = map[string]*record.Record{}
	for _, r := range recs {
		w.cur[r.ID] = r
	}
	logs.Reset()
	if err := st.ReplaceAll("v2", feed(recs...), nil); err != nil {
		t.Fatal(err)
	}
	w.version = "v2"
	if s := f.d.State(); s.Segments != 2 || strings.Contains(logs.String(), "building") {
		t.Fatalf("re-import with 7 changes: %+v\n%s", s, logs.String())
	}
	w.agrees(f.d)

	// Most records change: more than a quarter to replay, built afresh.
	recs = w.generated(1000, 400)
	w.cur = map[string]*record.Record{}
	for _, r := range recs {
		w.cur[r.ID] = r
	}
	logs.Reset()
	if err := st.ReplaceAll("v3", feed(recs...), nil); err != nil {
		t.Fatal(err)
	}
	w.version = "v3"
	if !strings.Contains(logs.String(), "building afresh") || f.d.State().Segments != 1 {
		t.Fatalf("re-import replacing every record: %+v\n%s", f.d.State(), logs.String())
	}
	w.agrees(f.d)
}

// Build files a killed process left are removed when the index is next
// opened to write; a build under way in this process is not touched.
func TestStaleBuildFilesRemoved(t *testing.T) {
	w := newWorld(t)
	var logs bytes.Buffer
	st, log := w.open(&logs)
	defer st.Close()
	w.importAll(st, 50, "v1")
	dir := IndexDir(w.path)
	os.MkdirAll(dir, 0o755)
	stale := filepath.Join(dir, buildPrefix+"1-dead-1.seg")
	mine := filepath.Join(dir, buildPrefix+"1-live-1.seg")
	for _, p := range []string{stale, mine} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claimBuildFile(mine, true)
	defer claimBuildFile(mine, false)
	d, err := Open(st, Options{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale build file still there: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a build file under way was removed: %v", err)
	}
}

// A server's index (Open, on a store still empty, as serve's first sync
// finds it) is built by the first import as it reads, and answers from it.
func TestServerIndexBuiltByFirstImport(t *testing.T) {
	smallParts(t, 100)
	w, st, d, logs := served(t)
	w.importAll(st, 450, "v1")
	if s := d.State(); s.State != StateImported || s.Records != 450 || s.Segments != 1 {
		t.Fatalf("after the first import: %+v\n%s", s, logs.String())
	}
	w.agrees(d)
	w.changeSet(st, "v2", 10, 10, 5)
	d.bg.Wait()
	w.agrees(d)
}
