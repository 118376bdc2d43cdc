package screen

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"log/slog"
	"maps"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// damagedTemplate is the store and index every damagedWorld copies: built
// once per test binary, as importing and indexing it for each of 20
// damage tests was most of their time. TestMain removes its directory.
var damagedTemplate struct {
	once sync.Once
	dir  string
	w    *world
}

// damagedWorld is a store of 600 records and two change sets with its
// index written and closed, and the index's MANIFEST: a copy of
// damagedTemplate's, which t may damage.
func damagedWorld(t *testing.T) (*world, *manifest) {
	t.Helper()
	damagedTemplate.once.Do(func() {
		dir, err := os.MkdirTemp("", "screen-damaged-")
		if err != nil {
			t.Fatal(err)
		}
		damagedTemplate.dir = dir
		w := &world{t: t, path: filepath.Join(dir, "s.db"), cur: map[string]*record.Record{}, g: gen.New(3)}
		var logs bytes.Buffer
		st, d := w.openIndexed(&logs)
		w.importAll(st, 600, "v1")
		w.changeSet(st, "v2", 10, 10, 10)
		d.WaitMerges()
		d.Close()
		st.Close()
		damagedTemplate.w = w
	})
	tpl := damagedTemplate.w
	if tpl == nil {
		t.Fatal("the damaged world's template was not built: see the first test that asked for it")
	}
	w := newWorld(t)
	copyTree(t, filepath.Dir(tpl.path), filepath.Dir(w.path))
	w.cur, w.version, w.next = maps.Clone(tpl.cur), tpl.version, tpl.next
	m, err := readManifest(IndexDir(w.path))
	if err != nil {
		t.Fatal(err)
	}
	return w, m
}

// wrongCount makes the MANIFEST count one record more than the index holds.
func wrongCount(t *testing.T, dir string, m *manifest) {
	m.Records++
	rewrite(t, dir, m)
}

// lostTombstone clears one set bit of a tombstone file and gives the
// MANIFEST the new checksum: the file reads well, and one deleted record
// is alive again. With recount, the MANIFEST's count follows, so only the
// store's count can tell.
func lostTombstone(recount bool) func(t *testing.T, dir string, m *manifest) {
	return func(t *testing.T, dir string, m *manifest) {
		for i, s := range m.Segments {
			if s.Tomb == "" {
				continue
			}
			p := filepath.Join(dir, s.Tomb)
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for at := 0; at+8 <= len(raw); at += 8 {
				word := binary.LittleEndian.Uint64(raw[at:])
				if word == 0 {
					continue
				}
				binary.LittleEndian.PutUint64(raw[at:], word&^(1<<bits.TrailingZeros64(word)))
				if err := os.WriteFile(p, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				m.Segments[i].TombCRC = crc32.Checksum(raw, castagnoli)
				if recount {
					m.Segments[i].Live++
					m.Records++
				}
				rewrite(t, dir, m)
				return
			}
		}
		t.Fatal("no tombstone to lose")
	}
}

// counts checks that d is at the world's version with its records.
func (w *world) counts(d *Database) {
	w.t.Helper()
	if d.Version() != w.version || d.Index().Len() != len(w.cur) {
		w.t.Errorf("index at %q with %d records, want %q with %d", d.Version(), d.Index().Len(), w.version, len(w.cur))
	}
}

func rewrite(t *testing.T, dir string, m *manifest) {
	t.Helper()
	if err := writeManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// TestMiscountedIndexIsRebuilt: a MANIFEST whose record count is wrong, or
// a tombstone file that lost an entry, never stops a program: opening the
// index (a server), catching it up with a store that moved on, and
// applying a change set to it (a writing command's Follower) rebuild it
// with a log line, and it answers as a fresh build does.
func TestMiscountedIndexIsRebuilt(t *testing.T) {
	damages := []struct {
		name   string
		damage func(t *testing.T, dir string, m *manifest)
		reason string
	}{
		{"wrong count", wrongCount, "the MANIFEST says"},
		{"lost tombstone", lostTombstone(false), "the MANIFEST says"},
		{"lost tombstone recounted", lostTombstone(true), "the index holds"},
	}
	for _, c := range damages {
		t.Run(c.name+"/open", func(t *testing.T) {
			w, m := damagedWorld(t)
			c.damage(t, IndexDir(w.path), m)
			var logs bytes.Buffer
			st, d := w.openIndexed(&logs)
			defer st.Close()
			defer d.Close()
			if s := d.State(); s.State != StateRebuilt || !strings.Contains(logs.String(), c.reason) {
				t.Errorf("state %+v, log %q, want rebuilt saying %q", s, logs.String(), c.reason)
			}
			if c.name == "lost tombstone" {
				w.agrees(d) // the deleted record is gone again
			}
			w.counts(d)
		})
		t.Run(c.name+"/read-only open", func(t *testing.T) {
			w, m := damagedWorld(t)
			c.damage(t, IndexDir(w.path), m)
			ro, err := store.Open(w.path, store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			var logs bytes.Buffer
			d, err := Open(ro, Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if s := d.State(); s.State != StateMemory || !strings.Contains(logs.String(), c.reason) {
				t.Errorf("state %+v, log %q", s, logs.String())
			}
			w.counts(d)
		})
		t.Run(c.name+"/catch-up", func(t *testing.T) {
			w, m := damagedWorld(t)
			c.damage(t, IndexDir(w.path), m)
			var logs bytes.Buffer
			st, _ := w.open(&logs) // a change set the index does not follow
			w.changeSet(st, "v3", 5, 5, 5)
			st.Close()
			st, d := w.openIndexed(&logs)
			defer st.Close()
			defer d.Close()
			if !strings.Contains(logs.String(), "building the screening index") {
				t.Errorf("log %q says nothing of a rebuild", logs.String())
			}
			w.counts(d)
		})
		t.Run(c.name+"/apply", func(t *testing.T) {
			w, m := damagedWorld(t)
			c.damage(t, IndexDir(w.path), m)
			var logs bytes.Buffer
			st, log := w.open(&logs)
			f := Follow(st, log)
			w.changeSet(st, "v3", 5, 5, 5) // the Follower opens the index after the commit
			ix, err := f.Index()
			if err != nil {
				t.Fatal(err)
			}
			if ix.Len() != len(w.cur) {
				t.Errorf("index holds %d records, the store %d", ix.Len(), len(w.cur))
			}
			f.Close()
			st.Close()
			if !strings.Contains(logs.String(), "building the screening index") {
				t.Errorf("log %q says nothing of a rebuild", logs.String())
			}
			st, d := w.openIndexed(&logs)
			defer st.Close()
			defer d.Close()
			if s := d.State(); s.State != StateCurrent {
				t.Errorf("reopened after the apply: %+v", s)
			}
			w.counts(d)
		})
	}
}

// TestForeignIndexIsRebuilt: an index directory copied from another store
// at the same version and change-set number is not trusted: the store id
// in its MANIFEST differs, status says so, and the next open rebuilds it.
func TestForeignIndexIsRebuilt(t *testing.T) {
	small, _ := damagedWorld(t)
	big := newWorld(t)
	var logs bytes.Buffer
	st, d := big.openIndexed(&logs)
	big.importAll(st, 900, "v1")
	big.changeSet(st, "v2", 10, 10, 10)
	d.Close()
	id := st.ID()
	st.Close()
	if len(id) != 32 {
		t.Fatalf("store id %q", id)
	}
	// The small store's index replaces the big one's.
	if err := os.RemoveAll(IndexDir(big.path)); err != nil {
		t.Fatal(err)
	}
	copyTree(t, IndexDir(small.path), IndexDir(big.path))

	ro, err := store.Open(big.path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ro.ID() != id {
		t.Errorf("store id changed from %q to %q", id, ro.ID())
	}
	s := InspectChecked(ro)
	ro.Close()
	if s.State != "foreign" || !strings.Contains(s.Reason, id) {
		t.Errorf("status of a foreign index: %+v", s)
	}

	logs.Reset()
	st, d = big.openIndexed(&logs)
	defer st.Close()
	defer d.Close()
	if s := d.State(); s.State != StateRebuilt || !strings.Contains(logs.String(), "built from store") {
		t.Errorf("state %+v, log %q", s, logs.String())
	}
	big.agrees(d)
	if s := Inspect(st); s.State != "current" {
		t.Errorf("after the rebuild: %+v", s)
	}
}

// TestStatusVerifiesChecksums: status (InspectChecked) reads the index's
// files and reports one that fails its checksum, with the mismatch; the
// cheap Inspect of /v1/status does not read them.
func TestStatusVerifiesChecksums(t *testing.T) {
	w, m := damagedWorld(t)
	dir := IndexDir(w.path)
	st, err := store.Open(w.path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s := InspectChecked(st); s.State != "current" {
		t.Fatalf("undamaged: %+v", s)
	}
	flip(t, filepath.Join(dir, m.Segments[0].File), m.Segments[0].Size-1)
	s := InspectChecked(st)
	if s.State != "unreadable" || !strings.Contains(s.Reason, m.Segments[0].File) || !strings.Contains(s.Reason, "checksum") {
		t.Errorf("flipped byte: %+v", s)
	}
	if s := Inspect(st); s.State != "current" {
		t.Errorf("Inspect without checksums: %+v", s)
	}
}

// TestStatusCountsAgainstTheStore: a MANIFEST whose count, though
// consistent with its files, disagrees with the store's is reported.
func TestStatusCountsAgainstTheStore(t *testing.T) {
	w, m := damagedWorld(t)
	lostTombstone(true)(t, IndexDir(w.path), m)
	st, err := store.Open(w.path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s := Inspect(st); s.State != "unreadable" || !strings.Contains(s.Reason, "records") {
		t.Errorf("miscounted: %+v", s)
	}
}
