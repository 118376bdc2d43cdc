package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// clock is a settable time source for Options.Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func openTest(t testing.TB, opts Options) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func mustImport(t testing.TB, db *Store, version string, recs []*record.Record) {
	t.Helper()
	if err := db.ReplaceAll(version, Slice(recs), nil); err != nil {
		t.Fatal(err)
	}
}

// allRecords returns the store's records by id.
func allRecords(t testing.TB, db *Store) map[string]*record.Record {
	t.Helper()
	out := map[string]*record.Record{}
	var last string
	err := db.ForEachRecord(func(r *record.Record) error {
		if r.ID <= last {
			return fmt.Errorf("ForEachRecord: %s after %s, not in id order", r.ID, last)
		}
		last = r.ID
		out[r.ID] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func byID(recs []*record.Record) map[string]*record.Record {
	m := map[string]*record.Record{}
	for _, r := range recs {
		m[r.ID] = r
	}
	return m
}

func sameSet(t *testing.T, got, want map[string]*record.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("store holds %d records, want %d", len(got), len(want))
	}
	for id, w := range want {
		if !reflect.DeepEqual(got[id], w) {
			t.Fatalf("record %s:\n got %+v\nwant %+v", id, got[id], w)
		}
	}
}

func TestSecondWriterIsToldWhoHoldsTheStore(t *testing.T) {
	db, path := openTest(t, Options{})
	_, err := Open(path, Options{Timeout: 50 * time.Millisecond})
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second writer: got %v, want a LockedError", err)
	}
	want := fmt.Sprintf("is locked by pid %d", os.Getpid())
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q", err, want)
	}
	// A reader cannot share the file with a writer either (bbolt's lock).
	if _, err := Open(path, Options{ReadOnly: true, Timeout: 50 * time.Millisecond}); !errors.As(err, &le) {
		t.Fatalf("reader beside a writer: got %v, want a LockedError", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("lock file left after Close: %v", err)
	}
	db2, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	db2.Close()
}

func TestReadersShareAndCannotWrite(t *testing.T) {
	db, path := openTest(t, Options{})
	mustImport(t, db, "v1", genRecords(1, 10))
	db.Close()
	r1, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	defer r2.Close()
	if n, _ := r2.Count(); n != 10 {
		t.Fatalf("reader count %d, want 10", n)
	}
	if err := r1.ReplaceAll("v2", Slice(nil), nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("import into read-only store: %v", err)
	}
	if _, err := r1.ApplyDelta("v1", "v2", nil, nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("delta into read-only store: %v", err)
	}
	// A writer waits for readers, then is told the store is busy; readers
	// record no pid.
	_, err = Open(path, Options{Timeout: 50 * time.Millisecond})
	var le *LockedError
	if !errors.As(err, &le) || le.PID != 0 {
		t.Fatalf("writer beside readers: got %v", err)
	}
}

func TestOpenReadOnlyMissingStore(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "absent.db"), Options{ReadOnly: true})
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want not-exist", err)
	}
}

func TestEmptyStore(t *testing.T) {
	db, _ := openTest(t, Options{})
	v, err := db.Version()
	if err != nil || v.ID != "" {
		t.Fatalf("Version of an empty store: %+v, %v", v, err)
	}
	if n, _ := db.Count(); n != 0 {
		t.Fatalf("Count %d", n)
	}
	if _, err := db.Get("X"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get: %v", err)
	}
	if got := allRecords(t, db); len(got) != 0 {
		t.Fatalf("records in an empty store: %d", len(got))
	}
}

func TestReplaceAllImportsAndReimports(t *testing.T) {
	clk := &clock{time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: clk.now})
	v1 := genRecords(1, 3000)
	var hooked *Applied
	err := db.ReplaceAll("2025-03-01T10:00:00Z~1", Slice(v1), func(tx *Tx, a *Applied) error {
		hooked = a
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if hooked == nil || !hooked.Full || hooked.Added != 3000 || hooked.Changes != nil {
		t.Fatalf("first import Applied: %+v", hooked)
	}
	sameSet(t, allRecords(t, db), byID(v1))
	got, err := db.Get(v1[42].ID)
	if err != nil || !reflect.DeepEqual(got, v1[42]) {
		t.Fatalf("Get: %v %+v", err, got)
	}
	v, _ := db.Version()
	if v.ID != "2025-03-01T10:00:00Z~1" || !v.AppliedAt.Equal(clk.t) || v.Records != 3000 || !v.Full || v.Logged {
		t.Fatalf("version after first import: %+v", v)
	}
	st, _ := db.Stats()
	sum := 0
	for _, n := range st.BySourceType {
		sum += n
	}
	if st.Records != 3000 || sum != 3000 || st.ByEntityType[record.EntityIndividual] == 0 {
		t.Fatalf("stats: %+v", st)
	}

	// Re-import: 100 records gone, 50 changed, 20 new, the rest the same.
	clk.t = clk.t.Add(time.Hour)
	v2 := slices.Clone(v1[100:])
	for i := range 50 {
		c := v2[i].Clone()
		c.Name += " Jr"
		v2[i] = c
	}
	v2 = append(v2, genRecords(1, 3020)[3000:]...)
	hooked = nil
	err = db.ReplaceAll("v2", Slice(v2), func(tx *Tx, a *Applied) error { hooked = a; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if hooked.Added != 20 || hooked.Updated != 50 || hooked.Deleted != 100 || len(hooked.Changes) != 170 || hooked.Previous != "2025-03-01T10:00:00Z~1" {
		t.Fatalf("re-import Applied: added %d updated %d deleted %d changes %d", hooked.Added, hooked.Updated, hooked.Deleted, len(hooked.Changes))
	}
	for _, c := range hooked.Changes {
		if c.Effect == EffectUpdate && (c.Before == nil || c.After == nil || c.Before.Name+" Jr" != c.After.Name) {
			t.Fatalf("update change %+v", c)
		}
	}
	sameSet(t, allRecords(t, db), byID(v2))
	if n, _ := db.Count(); n != len(v2) {
		t.Fatalf("Count %d, want %d", n, len(v2))
	}
	// The re-import is logged, so deltas across it can still be answered.
	changes, cur, err := db.ChangesSince("2025-03-01T10:00:00Z~1")
	if err != nil || cur != "v2" || len(changes) != 170 {
		t.Fatalf("ChangesSince across a full import: %d changes, %q, %v", len(changes), cur, err)
	}
}

func TestReplaceAllDuplicateIDLastWins(t *testing.T) {
	db, _ := openTest(t, Options{})
	a := &record.Record{ID: "D1", Name: "first"}
	b := &record.Record{ID: "D1", Name: "second"}
	mustImport(t, db, "v1", []*record.Record{a, {ID: "D0"}, b})
	if n, _ := db.Count(); n != 2 {
		t.Fatalf("Count %d, want 2", n)
	}
	if r, _ := db.Get("D1"); r.Name != "second" {
		t.Fatalf("D1 is %q, want the later record", r.Name)
	}
}

func TestReplaceAllBadInputLeavesStoreWhole(t *testing.T) {
	db, _ := openTest(t, Options{})
	v1 := genRecords(1, 500)
	mustImport(t, db, "v1", v1)
	bad := errors.New("line 301: bad json")
	tests := map[string]func() (*record.Record, error){
		"reader error": func() func() (*record.Record, error) {
			n := 0
			return func() (*record.Record, error) {
				if n++; n > 300 {
					return nil, bad
				}
				return genRecord(2, n), nil
			}
		}(),
		"record without id": Slice([]*record.Record{{ID: "A"}, {Name: "no id"}}),
	}
	for name, next := range tests {
		if err := db.ReplaceAll("v2", next, nil); err == nil {
			t.Fatalf("%s: import succeeded", name)
		}
		if v, _ := db.Version(); v.ID != "v1" {
			t.Fatalf("%s: version %q after failed import", name, v.ID)
		}
		sameSet(t, allRecords(t, db), byID(v1))
	}
	// A failing hook rolls the import back.
	err := db.ReplaceAll("v2", Slice(genRecords(3, 500)), func(*Tx, *Applied) error { return errors.New("outbox full") })
	if err == nil || !strings.Contains(err.Error(), "outbox full") {
		t.Fatalf("hook error: %v", err)
	}
	sameSet(t, allRecords(t, db), byID(v1))
}

func TestApplyDeltaSemantics(t *testing.T) {
	base := []*record.Record{
		{ID: "A", Name: "Alpha", SourceType: "SANCTION", EntityType: "INDIVIDUAL", ListDate: 1000},
		{ID: "B", Name: "Bravo", SourceType: "PEP", EntityType: "ENTITY", ListDate: 2000},
	}
	tests := []struct {
		name    string
		change  record.Change
		effect  string
		note    string
		want    *record.Record // record with that id afterwards, nil if absent
		records int
	}{
		{"add", record.Change{Type: "ADD", Record: record.Record{ID: "C", Name: "Charlie"}}, EffectAdd, "", &record.Record{ID: "C", Name: "Charlie"}, 3},
		{"update keeps list_date", record.Change{Type: "UPDATE", Record: record.Record{ID: "A", Name: "Alpha 2"}}, EffectUpdate, "", &record.Record{ID: "A", Name: "Alpha 2", ListDate: 1000}, 2},
		{"update unknown is add", record.Change{Type: "UPDATE", Record: record.Record{ID: "Z", Name: "Zulu"}}, EffectAdd, NoteUpdateUnknown, &record.Record{ID: "Z", Name: "Zulu"}, 3},
		{"delete", record.Change{Type: "DELETE", Record: record.Record{ID: "B"}}, EffectDelete, "", nil, 1},
		{"delete unknown is no-op", record.Change{Type: "DELETE", Record: record.Record{ID: "Q"}}, EffectNone, NoteDeleteUnknown, nil, 2},
		{"add existing is update", record.Change{Type: "ADD", Record: record.Record{ID: "B", Name: "Bravo 2", ListDate: 5}}, EffectUpdate, NoteAddExisting, &record.Record{ID: "B", Name: "Bravo 2", ListDate: 5}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := openTest(t, Options{})
			mustImport(t, db, "v1", base)
			a, err := db.ApplyDelta("v1", "v2", []record.Change{tt.change}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := a.Changes[0]
			if c.Effect != tt.effect || c.Note != tt.note || c.Type != tt.change.Type {
				t.Fatalf("applied %+v, want effect %s note %q", c, tt.effect, tt.note)
			}
			if !reflect.DeepEqual(c.After, tt.want) {
				t.Fatalf("After %+v, want %+v", c.After, tt.want)
			}
			got, err := db.Get(tt.change.Record.ID)
			if tt.want == nil {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("record still there: %+v %v", got, err)
				}
			} else if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("stored %+v, want %+v", got, tt.want)
			}
			if n, _ := db.Count(); n != tt.records || a.Records != tt.records {
				t.Fatalf("Count %d, Applied.Records %d, want %d", n, a.Records, tt.records)
			}
			if v, _ := db.Version(); v.ID != "v2" || v.Previous != "v1" || v.Full {
				t.Fatalf("version %+v", v)
			}
		})
	}
}

func TestApplyDeltaVersionCheck(t *testing.T) {
	db, _ := openTest(t, Options{})
	if _, err := db.ApplyDelta("v1", "v2", nil, nil); err == nil || !strings.Contains(err.Error(), "store is empty") {
		t.Fatalf("delta into an empty store: %v", err)
	}
	mustImport(t, db, "v1", genRecords(1, 5))
	delta := []record.Change{{Type: "ADD", Record: record.Record{ID: "N1"}}}
	if _, err := db.ApplyDelta("v1", "v2", delta, nil); err != nil {
		t.Fatal(err)
	}
	_, err := db.ApplyDelta("v1", "v2", delta, nil)
	var vm *VersionMismatchError
	if !errors.As(err, &vm) || vm.Store != "v2" || vm.Previous != "v1" {
		t.Fatalf("same delta twice: %v", err)
	}
	if !strings.Contains(err.Error(), `"v2"`) || !strings.Contains(err.Error(), `"v1"`) {
		t.Fatalf("error %q does not name both versions", err)
	}
	_, err = db.ApplyDelta("v0", "v3", delta, nil)
	if !errors.As(err, &vm) || !strings.Contains(err.Error(), `store is at version "v2", but the delta applies to version "v0"`) {
		t.Fatalf("wrong previous: %v", err)
	}
	// Nothing new upstream: a delta from the current version to itself.
	a, err := db.ApplyDelta("v2", "v2", nil, nil)
	if err != nil || len(a.Changes) != 0 {
		t.Fatalf("empty delta: %+v %v", a, err)
	}
	if vs, _ := db.Versions(); len(vs) != 2 {
		t.Fatalf("an empty delta added a version: %+v", vs)
	}
}

func TestApplyDeltaBadChangeAppliesNothing(t *testing.T) {
	tests := map[string]record.Change{
		"unknown type": {Type: "MERGE", Record: record.Record{ID: "X"}},
		"no id":        {Type: "ADD", Record: record.Record{Name: "nobody"}},
	}
	for name, bad := range tests {
		t.Run(name, func(t *testing.T) {
			db, _ := openTest(t, Options{})
			v1 := genRecords(1, 20)
			mustImport(t, db, "v1", v1)
			changes := []record.Change{{Type: "DELETE", Record: record.Record{ID: v1[0].ID}}, bad}
			_, err := db.ApplyDelta("v1", "v2", changes, nil)
			if err == nil || !strings.Contains(err.Error(), "change 2") {
				t.Fatalf("got %v, want an error naming change 2", err)
			}
			sameSet(t, allRecords(t, db), byID(v1))
			if v, _ := db.Version(); v.ID != "v1" {
				t.Fatalf("version %q", v.ID)
			}
		})
	}
}

func TestApplyDeltaHookRollsBack(t *testing.T) {
	db, _ := openTest(t, Options{})
	v1 := genRecords(1, 20)
	mustImport(t, db, "v1", v1)
	_, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: "DELETE", Record: record.Record{ID: v1[3].ID}}}, func(tx *Tx, a *Applied) error {
		if err := Outbox.Bucket(tx).Put([]byte("n1"), []byte("x")); err != nil {
			return err
		}
		return errors.New("webhook target unknown")
	})
	if err == nil {
		t.Fatal("hook error not returned")
	}
	sameSet(t, allRecords(t, db), byID(v1))
	db.Read(func(tx *Tx) error {
		if Outbox.Bucket(tx).Get([]byte("n1")) != nil {
			t.Error("hook's write survived the rollback")
		}
		return nil
	})
}

func TestChangesSinceMergesPerRecord(t *testing.T) {
	clk := &clock{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: clk.now})
	mustImport(t, db, "v1", []*record.Record{{ID: "A", Name: "a"}, {ID: "B", Name: "b"}, {ID: "C", Name: "c"}})
	step := func(prev, next string, changes ...record.Change) {
		t.Helper()
		clk.t = clk.t.Add(24 * time.Hour)
		if _, err := db.ApplyDelta(prev, next, changes, nil); err != nil {
			t.Fatal(err)
		}
	}
	ch := func(typ, id, name string) record.Change {
		return record.Change{Type: typ, Record: record.Record{ID: id, Name: name}}
	}
	step("v1", "v2", ch("ADD", "D", "d"), ch("UPDATE", "A", "a2"), ch("DELETE", "Q", ""))
	step("v2", "v3", ch("UPDATE", "D", "d2"), ch("DELETE", "B", ""), ch("ADD", "E", "e"))
	step("v3", "v4", ch("DELETE", "E", ""), ch("ADD", "B", "b again"), ch("UPDATE", "A", "a3"))

	tests := []struct {
		from string
		want []string // type:id:name
	}{
		{"v1", []string{"UPDATE:A:a3", "UPDATE:B:b again", "ADD:D:d2"}},
		{"v2", []string{"UPDATE:A:a3", "UPDATE:B:b again", "UPDATE:D:d2"}},
		{"v3", []string{"UPDATE:A:a3", "ADD:B:b again", "DELETE:E:e"}},
		{"v4", nil},
	}
	for _, tt := range tests {
		changes, cur, err := db.ChangesSince(tt.from)
		if err != nil || cur != "v4" {
			t.Fatalf("from %s: %q %v", tt.from, cur, err)
		}
		var got []string
		for _, c := range changes {
			got = append(got, c.Type+":"+c.Record.ID+":"+c.Record.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("from %s:\n got %v\nwant %v", tt.from, got, tt.want)
		}
	}
	if _, _, err := db.ChangesSince("v0"); !errors.Is(err, ErrUnknownVersion) {
		t.Fatalf("unknown version: %v", err)
	}
	// Fifteen days on, a new change set prunes what is older than 14 days.
	clk.t = clk.t.Add(15 * 24 * time.Hour)
	step("v4", "v5", ch("ADD", "F", "f"))
	for _, from := range []string{"v1", "v3"} {
		if _, _, err := db.ChangesSince(from); !errors.Is(err, ErrUnknownVersion) {
			t.Fatalf("from %s after pruning: %v", from, err)
		}
	}
	if changes, _, err := db.ChangesSince("v4"); err != nil || len(changes) != 1 {
		t.Fatalf("from v4 after pruning: %v %v", changes, err)
	}
	if st, _ := db.Stats(); st.DeltasFrom != "v4" {
		t.Fatalf("DeltasFrom %q, want v4", st.DeltasFrom)
	}
}

func TestNextVersion(t *testing.T) {
	clk := &clock{time.Date(2025, 6, 7, 8, 9, 10, 0, time.FixedZone("x", 3600))}
	db, _ := openTest(t, Options{Now: clk.now})
	v, _ := db.NextVersion()
	if v != "2025-06-07T07:09:10Z~1" {
		t.Fatalf("NextVersion %q", v)
	}
	mustImport(t, db, v, genRecords(1, 1))
	if v, _ := db.NextVersion(); v != "2025-06-07T07:09:10Z~2" {
		t.Fatalf("NextVersion after one change set: %q", v)
	}
}

func TestDownloadLimit(t *testing.T) {
	db, _ := openTest(t, Options{})
	day := time.Date(2025, 5, 1, 23, 0, 0, 0, time.UTC)
	for i := 1; i <= 3; i++ {
		if n, err := db.CountDownload(day, 3); err != nil || n != i {
			t.Fatalf("download %d: %d %v", i, n, err)
		}
	}
	_, err := db.CountDownload(day, 3)
	var le *DownloadLimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrDownloadLimit) || le.Used != 3 {
		t.Fatalf("over the limit: %v", err)
	}
	if !strings.Contains(err.Error(), "2025-05-02T00:00:00Z") {
		t.Fatalf("error %q does not say when downloads resume", err)
	}
	if n, _ := db.DownloadsToday(day); n != 3 {
		t.Fatalf("DownloadsToday %d", n)
	}
	// A new UTC day starts afresh.
	if n, err := db.CountDownload(day.Add(2*time.Hour), 3); err != nil || n != 1 {
		t.Fatalf("next day: %d %v", n, err)
	}
}

func TestSourcesAndSyncState(t *testing.T) {
	db, _ := openTest(t, Options{})
	yes := true
	src := []record.Source{{Source: "ofac-sdn", Name: "OFAC SDN", SourceType: "sanction", Size: 9000, IncludedForAPIKey: &yes}, {Source: "un-sc"}, {Name: "no id"}}
	if err := db.PutSources(src); err != nil {
		t.Fatal(err)
	}
	got, err := db.Sources()
	if err != nil || !reflect.DeepEqual(got, src[:2]) {
		t.Fatalf("Sources: %+v %v", got, err)
	}
	if err := db.PutSources(src[1:2]); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Sources(); len(got) != 1 {
		t.Fatalf("PutSources did not replace: %+v", got)
	}
	s := SyncState{Upstream: "https://x", Includes: "included", LastSuccess: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	if err := db.PutSyncState(s); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.SyncState(); !reflect.DeepEqual(got, s) {
		t.Fatalf("SyncState %+v", got)
	}
}

func TestForEachRecordStopsAtError(t *testing.T) {
	db, _ := openTest(t, Options{})
	mustImport(t, db, "v1", genRecords(1, 5000))
	stop := errors.New("enough")
	n := 0
	err := db.ForEachRecord(func(*record.Record) error {
		if n++; n == 1500 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 1500 {
		t.Fatalf("got %v after %d records", err, n)
	}
}

// TestSourcesChanged: every import and change set stamps, in its own
// transaction, the sources whose records it added, updated or deleted;
// a change that changes nothing stamps nothing.
func TestSourcesChanged(t *testing.T) {
	clk := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: clk.now})
	rec := func(id, src, name string) *record.Record {
		return &record.Record{ID: id, SourceID: src, SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: name}
	}
	mustImport(t, db, "v1", []*record.Record{rec("A", "s1", "Anna"), rec("B", "s2", "Bert"), rec("C", "s3", "Cleo")})
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	want := map[string]time.Time{"s1": day(1), "s2": day(1), "s3": day(1)}
	check := func(step string) {
		t.Helper()
		got, err := db.SourcesChanged()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", step, got, want)
		}
	}
	check("first import")

	// B moves from s2 to s4 (both change), C is deleted, an unknown id's
	// DELETE changes nothing.
	clk.t = day(2)
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{
		{Type: record.ChangeUpdate, Record: *rec("B", "s4", "Bert")},
		{Type: record.ChangeDelete, Record: record.Record{ID: "C"}},
		{Type: record.ChangeDelete, Record: record.Record{ID: "NOPE"}},
	}, nil); err != nil {
		t.Fatal(err)
	}
	want["s2"], want["s3"], want["s4"] = day(2), day(2), day(2)
	check("delta")

	// A re-import that changes only A's name stamps s1 alone, and forgets
	// the sources left without records.
	clk.t = day(3)
	mustImport(t, db, "v3", []*record.Record{rec("A", "s1", "Anna Maria"), rec("B", "s4", "Bert")})
	want["s1"] = day(3)
	delete(want, "s2")
	delete(want, "s3")
	check("re-import")

	// A change set that a hook refuses leaves the stamps as they were.
	clk.t = day(4)
	if _, err := db.ApplyDelta("v3", "v4", []record.Change{{Type: record.ChangeAdd, Record: *rec("D", "s5", "Dora")}}, func(*Tx, *Applied) error {
		return errors.New("refused")
	}); err == nil {
		t.Fatal("hook error ignored")
	}
	check("refused delta")
}
