package book

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// world is a real store at v2 after a delta over a generated database, and
// a book file of customers derived from its records.
type world struct {
	db      *store.Store
	book    string // the book's CSV file
	changed []*record.Record
	sources []record.Source
	version string
	// full is an index of the whole database at version: the word
	// statistics a scored book is weighed with.
	full *engine.Index
}

// worldOnce holds the files and the read-only parts of the first world
// built, which every later newWorld copies: building one took a tenth of
// the package's time, and seven tests each want their own.
var worldOnce struct {
	sync.Mutex
	db, book []byte
	w        *world
}

// newWorld gives t its own store and book file, copies of one world
// built once per test binary; the records and the full index are shared
// and read-only.
func newWorld(t *testing.T) *world {
	t.Helper()
	worldOnce.Lock()
	defer worldOnce.Unlock()
	if worldOnce.w == nil {
		dir, err := os.MkdirTemp("", "book-world-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		w := buildWorld(t, dir)
		if worldOnce.book, err = os.ReadFile(w.book); err != nil {
			t.Fatal(err)
		}
		if worldOnce.db, err = os.ReadFile(filepath.Join(dir, "aml.db")); err != nil {
			t.Fatal(err)
		}
		if err := w.db.Close(); err != nil {
			t.Fatal(err)
		}
		worldOnce.w = w
	}
	dir := t.TempDir()
	w := *worldOnce.w
	w.book = filepath.Join(dir, "book.csv")
	if err := os.WriteFile(w.book, worldOnce.book, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "aml.db")
	if err := os.WriteFile(path, worldOnce.db, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w.db = db
	w.changed = make([]*record.Record, len(worldOnce.w.changed))
	for i, r := range worldOnce.w.changed {
		w.changed[i] = r.Clone()
	}
	return &w
}

// buildWorld builds a world in dir: the store at v2 and the book file.
func buildWorld(t *testing.T, dir string) *world {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := gen.New(26)
	const n, extra = 3000, 150
	var recs []*record.Record
	for i := range n {
		recs = append(recs, g.Record(i))
	}
	if err := db.ReplaceAll("v1", store.Slice(recs), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSources(gen.Sources()); err != nil {
		t.Fatal(err)
	}
	// The delta: new records, records renamed or given an alias, records
	// deleted.
	var delta []record.Change
	all := slices.Clone(recs)
	for i := n; i < n+extra; i++ {
		r := g.Record(i)
		all = append(all, r)
		delta = append(delta, record.Change{Type: record.ChangeAdd, Record: *r})
	}
	for i := 100; i < n; i += 25 {
		r := recs[i].Clone()
		if i%2 == 0 {
			r.AliasNames = append(r.AliasNames, all[(i*7)%len(all)].Name)
		} else {
			r.Name = r.Name + " Junior"
		}
		delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
		all = append(all, r)
	}
	for i := 113; i < n; i += 97 {
		delta = append(delta, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: recs[i].ID}})
	}
	if _, err := db.ApplyDelta("v1", "v2", delta, nil); err != nil {
		t.Fatal(err)
	}
	changes, cur, err := db.ChangesSince("v1")
	if err != nil {
		t.Fatal(err)
	}
	w := &world{db: db, version: cur, book: filepath.Join(dir, "book.csv")}
	for i := range changes {
		if c := &changes[i]; c.Type != record.ChangeDelete {
			w.changed = append(w.changed, &c.Record)
		}
	}
	if w.sources, err = db.Sources(); err != nil {
		t.Fatal(err)
	}
	w.full = fullIndex(t, db, w.sources, cur)
	// Customers: queries derived from every record, changed or not.
	f, err := os.Create(w.book)
	if err != nil {
		t.Fatal(err)
	}
	cw := csv.NewWriter(f)
	cw.Write([]string{"customer_id", "full_name", "type", "date_of_birth", "gender", "nationality"})
	for k, q := range gen.Queries(all, worldQueries(), 26) {
		cw.Write([]string{fmt.Sprintf("C%05d", k), q.Names, q.EntityType, q.DOB, q.Gender, q.Citizenship})
	}
	// Customers a changed record's date of birth, gender and citizenship
	// lift to a scored hit their name alone would not make: one word of
	// the record's name left out, every fact given.
	k := 0
	for _, r := range w.changed {
		g := strings.ToLower(r.Gender)
		if r.EntityType != "INDIVIDUAL" || len(r.DateOfBirth) == 0 || len(r.Citizenship) != 1 || len(r.Citizenship[0]) != 2 || (g != "male" && g != "female") {
			continue
		}
		words := strings.Fields(r.Name)
		if len(words) < 3 {
			continue
		}
		k++
		cw.Write([]string{fmt.Sprintf("E%05d", k), strings.Join(words[1:], " "), "individual", r.DateOfBirth[0], g, r.Citizenship[0]})
	}
	cw.Flush()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

// fullIndex is an index of every record db holds.
func fullIndex(t *testing.T, db *store.Store, sources []record.Source, version string) *engine.Index {
	t.Helper()
	var all []*record.Record
	if _, err := db.LoadAll(func(r *record.Record) error {
		all = append(all, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return screen.New(all, sources, version).Index()
}

func readBook(t *testing.T, path string, cfg Config) []Customer {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := batch.NewReader(f, batch.ReadOptions{KeepExtra: true})
	if err != nil {
		t.Fatal(err)
	}
	cs, rejects, err := Read(rd, cfg)
	if err != nil {
		t.Fatalf("%v %+v", err, rejects)
	}
	return cs
}

// reference runs batch over the book file and returns its hits on the
// changed records as matches: in strict mode against an index of the
// changed records, as batch --since does; in scored mode against the
// whole database (w.full), every hit kept, then restricted to the changed
// records, so that words weigh what they weigh in the database.
func reference(t *testing.T, w *world, cfg Config) []string {
	t.Helper()
	index := w.full
	if cfg.Match != "scored" {
		index = screen.New(w.changed, w.sources, w.version).Index()
	}
	sc, err := cfg.Screener(index)
	if err != nil {
		t.Fatal(err)
	}
	sc.Limit = 1 << 20
	changed := map[string]bool{}
	for _, r := range w.changed {
		changed[r.ID] = true
	}
	out := filepath.Join(t.TempDir(), "hits.jsonl")
	sum, err := batch.Run(context.Background(), batch.Config{Screener: *sc, Input: w.book, Out: out, Format: batch.JSONLOutput, Report: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.RowsRejected != 0 {
		t.Fatalf("reference rejected %d rows", sum.RowsRejected)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	sc2 := bufio.NewScanner(f)
	sc2.Buffer(nil, 1<<20)
	for sc2.Scan() {
		var h batch.Hit
		if err := json.Unmarshal(sc2.Bytes(), &h); err != nil {
			t.Fatal(err)
		}
		if changed[h.RecordID] {
			got = append(got, key(h.CustomerID, h.RecordID, h.Reason, h.Score))
		}
	}
	slices.Sort(got)
	return got
}

func key(customer, rec, reason string, score *float64) string {
	s := customer + " " + rec + " " + reason
	if score != nil {
		s += fmt.Sprintf(" %.6f", *score)
	}
	return s
}

// TestMatchChangedEqualsBatch is the differential test: the book in a real
// store, matched against the records a delta changed, gives exactly the
// hits batch finds screening the book file against those records, in
// strict and scored mode: at fuzzy 2 of both by default
// (TestHookAlertsEqualBatch holds fuzzy 1 of both modes to batch), at
// every setting, scored fuzzy 0 too, with AMLSCREEN_LONG_TESTS=1.
func TestMatchChangedEqualsBatch(t *testing.T) {
	w := newWorld(t)
	cfgs := []Config{{Match: "strict", Fuzzy: 2}, {Match: "scored", Fuzzy: 2}}
	if longTests() {
		cfgs = []Config{{Match: "strict", Fuzzy: 1}, {Match: "strict", Fuzzy: 2}, {Match: "scored", Fuzzy: 0}, {Match: "scored", Fuzzy: 1}, {Match: "scored", Fuzzy: 2}}
	}
	if testing.Short() && !longTests() {
		cfgs = []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} // the others without -short
	}
	for _, cfg := range cfgs {
		t.Run(fmt.Sprintf("%s fuzzy %d", cfg.Match, cfg.Fuzzy), func(t *testing.T) {
			if _, err := Import(w.db, readBook(t, w.book, cfg), cfg, w.book, time.Now()); err != nil {
				t.Fatal(err)
			}
			customers, stored, err := Load(w.db)
			if err != nil || stored != cfg {
				t.Fatalf("load: %v, config %+v", err, stored)
			}
			res, err := MatchChanged(customers, stored, w.changed, w.sources, w.version, w.full)
			if err != nil {
				t.Fatal(err)
			}
			if res.Skipped != 0 {
				t.Fatalf("%d customers skipped: %v", res.Skipped, res.SkippedIDs)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, key(m.CustomerID, m.RecordID, m.Reason, m.Score))
			}
			slices.Sort(got)
			want := reference(t, w, cfg)
			if len(want) < 20 {
				t.Fatalf("only %d reference hits: the test would prove little", len(want))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d matches, batch %d; first difference:\n%s", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return "got  " + a[i] + "\nwant " + b[i]
		}
	}
	return strings.Join([]string{fmt.Sprint(len(a)), fmt.Sprint(len(b))}, " vs ")
}

// TestHookAlertsEqualBatch is the differential test of the change hook: a
// store holding a book, with the hooks serve registers (the book's
// reading the serving index through screen.Follow), takes a delta; the
// alerts it raises are exactly the hits of a full batch of the book
// restricted to the delta's records, in strict and scored mode (scores and
// reasons included: the hook weighs words with the serving index with the
// change set applied, engine.Index.Preview, as the batch after it does).
func TestHookAlertsEqualBatch(t *testing.T) {
	for _, cfg := range []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} {
		t.Run(cfg.Match, func(t *testing.T) {
			w := newWorld(t)
			customers := readBook(t, w.book, cfg)
			if _, err := Import(w.db, customers, cfg, w.book, time.Now()); err != nil {
				t.Fatal(err)
			}
			f := screen.Follow(w.db, nil)
			cw := casework.New(w.db, casework.Options{})
			w.db.OnApply(cw.Hook)
			w.db.OnApply(Hook(cw, Shard{}, f.Index))
			// Records renamed to customers' names, one deleted, one added.
			var delta []record.Change
			for i, c := range customers[:40] {
				r := w.changed[i].Clone()
				r.Name = c.Name
				delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
			}
			delta = append(delta, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: w.changed[50].ID}},
				record.Change{Type: record.ChangeAdd, Record: record.Record{ID: "NEW1", SourceID: w.changed[0].SourceID,
					SourceType: w.changed[0].SourceType, EntityType: w.changed[0].EntityType, Name: customers[45].Name}})
			if _, err := w.db.ApplyDelta("v2", "v3", delta, nil); err != nil {
				t.Fatal(err)
			}
			changes, cur, err := w.db.ChangesSince("v2")
			if err != nil {
				t.Fatal(err)
			}
			w3 := *w
			w3.version, w3.changed = cur, nil
			for i := range changes {
				if c := &changes[i]; c.Type != record.ChangeDelete {
					w3.changed = append(w3.changed, &c.Record)
				}
			}
			if cfg.Match == "scored" { // the strict reference reads the changed records alone
				w3.full = fullIndex(t, w.db, w.sources, cur)
			}
			as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range as {
				got = append(got, key(a.Subject, a.Hit.RecordID, a.Hit.Reason, a.Hit.Score))
			}
			slices.Sort(got)
			want := reference(t, &w3, cfg)
			if len(want) < 40 {
				t.Fatalf("only %d reference hits", len(want))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d alerts, batch %d hits; first difference:\n%s", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}
