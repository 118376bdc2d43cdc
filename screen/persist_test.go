package screen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// world is a store and the records it should hold, for comparing the
// persisted index with a fresh build over the same records.
type world struct {
	t       *testing.T
	path    string
	cur     map[string]*record.Record
	version string
	next    int
	g       *gen.Generator
}

func newWorld(t *testing.T) *world {
	return &world{t: t, path: filepath.Join(t.TempDir(), "s.db"), cur: map[string]*record.Record{}, g: gen.New(3)}
}

// open opens the store to write, with logs into buf.
func (w *world) open(buf *bytes.Buffer) (*store.Store, *slog.Logger) {
	w.t.Helper()
	st, err := store.Open(w.path, store.Options{AllowShrink: true})
	if err != nil {
		w.t.Fatal(err)
	}
	return st, slog.New(slog.NewTextHandler(buf, nil))
}

// openIndexed opens the store to write and its index as a server does
// (Open), with logs into buf.
func (w *world) openIndexed(buf *bytes.Buffer) (*store.Store, *Database) {
	w.t.Helper()
	st, log := w.open(buf)
	d, err := Open(st, Options{Log: log})
	if err != nil {
		st.Close()
		w.t.Fatal(err)
	}
	return st, d
}

// importAll imports n generated records as version v.
func (w *world) importAll(st *store.Store, n int, v string) {
	w.t.Helper()
	w.cur = map[string]*record.Record{}
	var recs []*record.Record
	for i := range n {
		r := w.g.Record(i)
		recs = append(recs, r)
		w.cur[r.ID] = r
	}
	w.next = n
	if err := st.ReplaceAll(v, feed(recs...), nil); err != nil {
		w.t.Fatal(err)
	}
	w.version = v
}

// changeSet applies adds, updates (an old id takes new names) and deletes.
func (w *world) changeSet(st *store.Store, v string, adds, updates, deletes int) {
	w.t.Helper()
	ids := make([]string, 0, len(w.cur))
	for id := range w.cur {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var changes []record.Change
	for range adds {
		r := w.g.Record(w.next)
		w.next++
		changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
		w.cur[r.ID] = r
	}
	for i := range updates {
		old := w.cur[ids[(i*7+len(v))%len(ids)]]
		upd := *w.g.Record(w.next)
		w.next++
		upd.ID, upd.SourceID, upd.SourceType = old.ID, old.SourceID, old.SourceType
		changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: upd})
		w.cur[old.ID] = &upd
	}
	for i := range deletes {
		id := ids[(i*11+3*len(v)+1)%len(ids)]
		if _, ok := w.cur[id]; !ok {
			continue
		}
		changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: id}})
		delete(w.cur, id)
	}
	if _, err := st.ApplyDelta(w.version, v, changes, nil); err != nil {
		w.t.Fatal(err)
	}
	w.version = v
}

func (w *world) records() []*record.Record {
	out := make([]*record.Record, 0, len(w.cur))
	for _, r := range w.cur {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// agrees checks that d answers strict and scored queries exactly like a
// fresh build in memory and the brute-force matcher over the records the
// store should hold. Under the race detector it compares with the fresh
// build only: the brute-force matcher runs in the test's goroutine, where
// the detector has nothing to find, and the main run compares with it.
func (w *world) agrees(d *Database) {
	w.t.Helper()
	w.compare(d, !raceEnabled)
}

// agreesFresh is agrees without the brute-force matcher, which costs most
// of the comparison: for the steps between two full comparisons, since
// engine's differential tests hold a fresh build to the brute-force
// matcher.
func (w *world) agreesFresh(d *Database) {
	w.t.Helper()
	w.compare(d, longTests())
}

func (w *world) compare(d *Database, withBrute bool) {
	w.t.Helper()
	recs := w.records()
	if d.Version() != w.version || d.Index().Len() != len(recs) {
		w.t.Fatalf("index at %q with %d records, want %q with %d", d.Version(), d.Index().Len(), w.version, len(recs))
	}
	want := expectedAnswers(w.t, w.version, recs, withBrute)
	hits := 0
	for i, q := range want.queries {
		a, err := d.Index().Search(q)
		if err != nil {
			w.t.Fatal(err)
		}
		ka, kb, kc := keys(a), want.fresh[i], want.fresh[i]
		if withBrute && i < len(want.brute) {
			kc = want.brute[i]
		}
		if !reflect.DeepEqual(ka, kb) || !reflect.DeepEqual(ka, kc) {
			w.t.Fatalf("%+v:\n persisted %v\n fresh     %v\n brute     %v", q, ka, kb, kc)
		}
		hits += a.Total
	}
	if hits == 0 {
		w.t.Fatal("no query hit: the comparison proves nothing")
	}
}

// answers are the generated queries of one set of records at one version
// with a fresh build's answers and, once asked for, the brute-force
// matcher's to the first bruteQueries of them.
type answers struct {
	mu      sync.Mutex
	queries []query.Query
	fresh   [][]string
	brute   [][]string
}

// answered holds the answers of every set of records compared so far, by
// version and records: many comparisons of a test binary (the damage
// tests' copies of one world, the crash tests' kills that end alike, a
// second open at the same version) are of records compared before, and a
// fresh build and the brute-force matcher answer them as they did.
var answered sync.Map // string -> *answers

// expectedAnswers returns the answers of recs at version, the brute-force
// matcher's too if withBrute, computing what no comparison asked before.
func expectedAnswers(t *testing.T, version string, recs []*record.Record, withBrute bool) *answers {
	t.Helper()
	all := sha256.New()
	var line []byte
	for _, r := range recs {
		line = append(r.Append(line[:0], record.WriteOptions{}), '\n')
		all.Write(line)
	}
	v, _ := answered.LoadOrStore(version+"\x00"+hex.EncodeToString(all.Sum(nil)), &answers{})
	a := v.(*answers)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.queries == nil {
		fresh := engine.NewIndex(recs)
		var qs []query.Query
		var ks [][]string
		for i, gq := range gen.Queries(recs, agreeQueries(), int64(len(version))) {
			q := query.Query{Names: gq.Names, Fuzzy: i % 3, DOB: gq.DOB, Limit: 20}
			if i%2 == 1 {
				q.Match = query.Scored
			}
			b, err := fresh.Search(q)
			if err != nil {
				t.Fatalf("%+v: fresh build: %v", q, err)
			}
			qs, ks = append(qs, q), append(ks, keys(b))
		}
		a.queries, a.fresh = qs, ks
	}
	if withBrute && a.brute == nil {
		brute := engine.NewBrute(recs)
		var ks [][]string
		for _, q := range a.queries[:min(bruteQueries(), len(a.queries))] {
			c, err := brute.Search(q)
			if err != nil {
				t.Fatalf("%+v: brute force: %v", q, err)
			}
			ks = append(ks, keys(c))
		}
		a.brute = ks
	}
	return a
}

func keys(r *engine.Result) []string {
	out := []string{fmt.Sprint(r.Total)}
	for _, h := range r.Hits {
		if h.Record == nil || h.Record.ID != h.ID {
			return append(out, "hit without its record: "+h.ID)
		}
		out = append(out, fmt.Sprintf("%s/%.6f/%v/%d/%d/%s", h.ID, h.Score, h.Exact, h.Edits, h.Extra, h.Field))
	}
	return out
}

// TestPersistedIndexFollowsTheStore: an index opened on a writable store
// is written beside it and kept current by the store's change hook after
// an import and change sets (new segments, tombstones, merges), and
// reopened as it was; its answers always equal a fresh build's.
func TestPersistedIndexFollowsTheStore(t *testing.T) {
	t.Parallel()
	// 1,500 records: fewer, and the change sets below are big enough to
	// merge into the base, leaving neither tombstones nor segments to test.
	const n = 1500
	w := newWorld(t)
	var logs bytes.Buffer
	st, d := w.openIndexed(&logs)
	w.importAll(st, n, "v1") // the hook rebuilds the index after the commit
	if s := d.State(); s.Segments != 1 || s.Records != n {
		t.Fatalf("after import: %+v", s)
	}
	w.agreesFresh(d)
	for i := 2; i <= 12; i++ {
		w.changeSet(st, fmt.Sprintf("v%d", i), 20, 15, 10) // no Apply call: the hook does it
		d.WaitMerges()                                     // the merge the change set started, if any
		switch {
		case i == 12:
			w.agrees(d)
		case i%3 == 0 || longTests():
			// Every third step by default: the steps between apply the
			// same code to other change sets.
			w.agreesFresh(d)
		}
	}
	if s := d.State(); s.Tombstones == 0 && s.Segments == 1 {
		t.Errorf("state %+v: the change sets left neither tombstones nor segments", s)
	}
	d.Close()
	st.Close()

	st, d = w.openIndexed(&logs)
	defer st.Close()
	defer d.Close()
	if s := d.State(); s.State != StateCurrent {
		t.Fatalf("reopened: %+v\n%s", s, logs.String())
	}
	w.agrees(d)
}

// TestDamagedIndexIsRebuilt: a damaged, truncated, missing or foreign
// index is never trusted: the next open rebuilds it with a log line.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, dir string, m *manifest)
		reason string
	}{
		{"flipped byte", func(t *testing.T, dir string, m *manifest) {
			flip(t, filepath.Join(dir, m.Segments[0].File), 5000)
		}, "damaged"},
		{"truncated segment", func(t *testing.T, dir string, m *manifest) {
			p := filepath.Join(dir, m.Segments[0].File)
			if err := os.Truncate(p, m.Segments[0].Size/2); err != nil {
				t.Fatal(err)
			}
		}, "segment"},
		{"missing MANIFEST", func(t *testing.T, dir string, m *manifest) {
			os.Remove(filepath.Join(dir, manifestName))
		}, "no MANIFEST"},
		// A store whose index was never written (the first start after
		// an import by a program that does not write it): no warning.
		{"no index at all", func(t *testing.T, dir string, m *manifest) {
			os.RemoveAll(dir)
		}, "none built yet"},
		{"missing segment", func(t *testing.T, dir string, m *manifest) {
			os.Remove(filepath.Join(dir, m.Segments[len(m.Segments)-1].File))
		}, "no such file"},
		{"damaged tombstones", func(t *testing.T, dir string, m *manifest) {
			for _, s := range m.Segments {
				if s.Tomb != "" {
					flip(t, filepath.Join(dir, s.Tomb), 0)
					return
				}
			}
			t.Fatal("no tombstones to damage")
		}, "tombstones"},
		{"other format", func(t *testing.T, dir string, m *manifest) {
			m.Format = manifestFormat + 1
			raw := fmt.Sprintf(`{"format": %d, "store_version": %q, "store_seq": %d}`, m.Format, m.StoreVersion, m.StoreSeq)
			if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(raw), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "format"},
		{"garbage MANIFEST", func(t *testing.T, dir string, m *manifest) {
			os.WriteFile(filepath.Join(dir, manifestName), []byte("{not json"), 0o644)
		}, "MANIFEST"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w, m := damagedWorld(t)
			dir := IndexDir(w.path)
			c.damage(t, dir, m)
			var logs bytes.Buffer
			st, d := w.openIndexed(&logs)
			defer st.Close()
			defer d.Close()
			if s := d.State(); s.State != StateRebuilt {
				t.Errorf("state %+v, want rebuilt", s)
			}
			if !strings.Contains(logs.String(), "building the screening index") || !strings.Contains(logs.String(), c.reason) {
				t.Errorf("log %q does not say why (%q)", logs.String(), c.reason)
			}
			if c.reason == "none built yet" && strings.Contains(logs.String(), "not usable") {
				t.Errorf("a first build is logged as a damaged index: %q", logs.String())
			}
			// The rebuilt index against a fresh build; the first case against
			// the brute-force matcher too (every case with
			// AMLSCREEN_LONG_TESTS=1).
			if c.name == "flipped byte" {
				w.agrees(d)
			} else {
				w.agreesFresh(d)
			}
		})
	}
}

func flip(t *testing.T, path string, at int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at] ^= 0x40
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStaleIndexIsCaughtUp: a store written without the index following
// (another program, a kill between the commit and the index files) is
// ahead of its index. When the change log covers the gap the index
// replays it; after a full import it cannot, and the index is rebuilt. A
// read-only open catches up in memory and writes nothing.
func TestStaleIndexIsCaughtUp(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var logs bytes.Buffer
	st, d := w.openIndexed(&logs)
	w.importAll(st, 800, "v1")
	d.Close()
	st.Close()

	// Change sets the index does not follow.
	st, _ = w.open(&logs)
	w.changeSet(st, "v2", 10, 10, 10)
	w.changeSet(st, "v3", 10, 10, 10)
	st.Close()
	manifestBefore, _ := os.ReadFile(filepath.Join(IndexDir(w.path), manifestName))

	// Read-only: caught up in memory, the files left as they were.
	ro, err := store.Open(w.path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err = Open(ro, Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.State(); s.State != StateMemory {
		t.Errorf("read-only: state %+v", s)
	}
	w.agrees(d)
	d.Close()
	ro.Close()
	if after, _ := os.ReadFile(filepath.Join(IndexDir(w.path), manifestName)); !bytes.Equal(after, manifestBefore) {
		t.Error("a read-only open rewrote the MANIFEST")
	}

	st, d = w.openIndexed(&logs)
	if s := d.State(); s.State != StateReplayed {
		t.Errorf("gap covered: state %+v\n%s", s, logs.String())
	}
	w.agrees(d)
	d.Close()
	st.Close()

	// A full import the index does not see: it is in the change log too,
	// so it is replayed.
	st, _ = w.open(&logs)
	w.importAll(st, 700, "v4")
	st.Close()
	st, d = w.openIndexed(&logs)
	if s := d.State(); s.State != StateReplayed {
		t.Errorf("after an unseen full import: state %+v", s)
	}
	w.agrees(d)
	d.Close()
	st.Close()

	// Change sets long after, with the log pruned past the index's
	// version: the gap is not covered, and the index is rebuilt.
	later := time.Now().Add(60 * 24 * time.Hour)
	st, err = store.Open(w.path, store.Options{Now: func() time.Time { return later }, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	w.changeSet(st, "v5", 5, 5, 5)
	later = later.Add(2 * time.Hour) // v5's change set leaves the log
	w.changeSet(st, "v6", 5, 5, 5)
	st.Close()
	logs.Reset()
	st, d = w.openIndexed(&logs)
	defer st.Close()
	defer d.Close()
	if s := d.State(); s.State != StateRebuilt || !strings.Contains(logs.String(), "does not cover the gap") {
		t.Errorf("after the log was pruned: state %+v, log %q", s, logs.String())
	}
	w.agrees(d)
}
