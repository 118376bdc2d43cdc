package screen

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/store"
)

// checkIDs runs a check and returns the ids of its hits.
func checkIDs(t *testing.T, d *Database, who Caller, includes, names string) []string {
	t.Helper()
	ch, err := d.Check(context.Background(), query.Query{Names: names}, who, includes)
	if err != nil {
		t.Fatalf("check %q includes %q: %v", names, includes, err)
	}
	var ids []string
	for _, h := range ch.Result.Hits {
		ids = append(ids, h.Record.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestCheckAppliesTheDefaultSourceRule: a check searches the sources the
// caller includes by default, or those includes names, for a key and for
// the command line's settings alike.
func TestCheckAppliesTheDefaultSourceRule(t *testing.T) {
	recs := []*record.Record{
		{ID: "S", SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Anna Alpha"},
		{ID: "O", SourceID: "o1", SourceType: "OTHER", EntityType: "INDIVIDUAL", Name: "Anna Alpha"},
		{ID: "P", SourceID: "p1", SourceType: "PEP", EntityType: "INDIVIDUAL", Name: "Anna Alpha"},
	}
	d := New(recs, nil, "v1")
	defer d.Close()
	key := &access.Key{Key: "k", ExcludedSources: []string{"p1"}}
	for _, tt := range []struct {
		name     string
		who      Caller
		includes string
		want     []string
	}{
		{"defaults", Caller{}, "", []string{"P", "S"}},
		{"include other", Caller{Sources: access.Sources{IncludeOther: true}}, "", []string{"O", "P", "S"}},
		{"named", Caller{}, "o1", []string{"O"}},
		{"included and named", Caller{}, "included,o1", []string{"O", "P", "S"}},
		{"key excludes", Caller{Key: key}, "", []string{"S"}},
		{"key, named", Caller{Key: key}, "p1", []string{"P"}},
	} {
		if got := checkIDs(t, d, tt.who, tt.includes, "anna alpha"); !slices.Equal(got, tt.want) {
			t.Errorf("%s: hits %v, want %v", tt.name, got, tt.want)
		}
	}
	ch, err := d.Check(context.Background(), query.Query{Names: "anna"}, Caller{}, "s1,nope")
	var pe *query.ParamError
	if !errors.As(err, &pe) || pe.Param != "includes" {
		t.Errorf("unknown source: %v, want an includes ParamError", err)
	}
	if ch.Result != nil {
		t.Errorf("unknown source searched anyway: %+v", ch.Result)
	}
	ch, err = d.Check(context.Background(), query.Query{Names: "anna", Kind: query.Individual}, Caller{}, "")
	if err != nil || ch.Version != "v1" || !ch.Query.Sources["s1"] || ch.Query.Sources["o1"] {
		t.Errorf("check: version %q, sources %v, %v", ch.Version, ch.Query.Sources, err)
	}
}

// TestCatalogFollowsTheVersion: the catalogue is built once per version
// and again after a change set, which may bring a new source.
func TestCatalogFollowsTheVersion(t *testing.T) {
	st := annaStore(t, filepath.Join(t.TempDir(), "s.db"), store.Options{})
	defer st.Close()
	d, err := Load(st)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c1 := d.Catalog()
	if d.Catalog() != c1 {
		t.Error("two catalogues of one version")
	}
	if c1.Known("s2") {
		t.Error("s2 known before its first record")
	}
	add := []record.Change{{Type: record.ChangeAdd, Record: record.Record{ID: "B", SourceID: "s2", SourceType: "PEP", EntityType: "ENTITY", Name: "Beta LLC"}}}
	// The store's hook applies the change set to d once it commits.
	if _, err := st.ApplyDelta("v1", "v2", add, nil); err != nil {
		t.Fatal(err)
	}
	c2 := d.Catalog()
	if c2 == c1 || !c2.Known("s2") || c2.Type("s2") != "PEP" {
		t.Errorf("after v2: same catalogue %v, s2 known %v type %q", c2 == c1, c2.Known("s2"), c2.Type("s2"))
	}
	var ids []string
	for _, e := range c2.Entries() {
		ids = append(ids, e.Source)
		if e.Size != 1 || e.LastModified == "" {
			t.Errorf("entry %+v: want size 1 and the store's change time", e)
		}
	}
	if !slices.Equal(ids, []string{"s1", "s2"}) {
		t.Errorf("entries %v", ids)
	}
}

// TestOpenStoreOwnsTheStore: OpenStore's database reads its hits from the
// store it opened, and Close closes both, so the file can be opened again.
func TestOpenStoreOwnsTheStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	annaStore(t, path, store.Options{}).Close()
	d, err := OpenStore(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Origin() != "store "+path || d.Store() == nil || d.Version() != "v1" {
		t.Errorf("origin %q, store %v, version %q", d.Origin(), d.Store(), d.Version())
	}
	if got := checkIDs(t, d, Caller{}, "", "anna"); !slices.Equal(got, []string{"A"}) {
		t.Errorf("hits %v", got)
	}
	d.Close()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("the store stayed open after Close: %v", err)
	}
	st.Close()
	if _, err := OpenStore(filepath.Join(t.TempDir(), "none", "s.db"), store.Options{ReadOnly: true}); err == nil {
		t.Error("a store that is not there opened")
	}
}

// TestOpenFiles: records of several files in order; a missing file is the
// open error, a bad one a FileError naming it.
func TestOpenFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(good, []byte(`{"id":"A","source_id":"s1","source_type":"SANCTION","entity_type":"INDIVIDUAL","name":"Anna Alpha"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenFiles([]string{good})
	if err != nil {
		t.Fatal(err)
	}
	if d.Origin() != good || d.Version() != "" || d.Store() != nil {
		t.Errorf("origin %q version %q", d.Origin(), d.Version())
	}
	if got := checkIDs(t, d, Caller{}, "", "anna"); !slices.Equal(got, []string{"A"}) {
		t.Errorf("hits %v", got)
	}
	d.Close()
	_, err = OpenFiles([]string{good, bad})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Name != bad {
		t.Errorf("bad file: %v, want a FileError naming it", err)
	}
	_, err = OpenFiles([]string{filepath.Join(dir, "missing.jsonl")})
	if !errors.Is(err, fs.ErrNotExist) || errors.As(err, &fe) {
		t.Errorf("missing file: %v", err)
	}
}

// TestOpenSampleIsShared: the embedded sample is built once and Close
// leaves it usable.
func TestOpenSampleIsShared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the embedded sample's index; -short leaves it out")
	}
	d, err := OpenSample()
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	again, err := OpenSample()
	if err != nil || again != d {
		t.Fatalf("second open: %p %v, want the first %p", again, err, d)
	}
	if !sampledata.Is(d.Version()) || d.Origin() != "embedded sample" || d.Index().Len() == 0 {
		t.Errorf("version %q origin %q records %d", d.Version(), d.Origin(), d.Index().Len())
	}
}

// TestOpenGivesTheAdmitter: the admission Open is given is the one every
// index of the database searches under, also one installed later;
// Load's is the engine's default.
func TestOpenGivesTheAdmitter(t *testing.T) {
	st := annaStore(t, filepath.Join(t.TempDir(), "s.db"), store.Options{AllowShrink: true})
	defer st.Close()
	g := engine.NewAdmitter(engine.Admission{Slots: 1})
	d, err := Open(st, Options{Admitter: g})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Admitter() != g {
		t.Fatal("Open's admitter not in force")
	}
	before := d.Index()
	b := &record.Record{ID: "B", SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Bert Beta"}
	if err := st.ReplaceAll("v2", feed(b), nil); err != nil {
		t.Fatal(err)
	}
	if d.Version() != "v2" {
		t.Fatalf("version %q after the import", d.Version())
	}
	if d.Admitter() != g {
		t.Error("the index after a full import lost the admitter")
	}
	// A rebuild or an import's build installs a new engine index (swap).
	d.applyMu.Lock()
	d.swap(engine.NewIndex([]*record.Record{b}), "v2", d.seq)
	d.applyMu.Unlock()
	if d.Index() == before || d.Admitter() != g {
		t.Errorf("a new index installed: same %v, admitter kept %v", d.Index() == before, d.Admitter() == g)
	}
	ro := New(nil, nil, "")
	if ro.Admitter() != engine.DefaultAdmitter() {
		t.Error("a database given no admitter does not use the default")
	}
}

// annaStore opens a store at path and imports version v1 of one record,
// A (Anna Alpha, source s1); the caller closes it.
func annaStore(t *testing.T, path string, opts store.Options) *store.Store {
	t.Helper()
	st, err := store.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := &record.Record{ID: "A", SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Anna Alpha"}
	if err := st.ReplaceAll("v1", feed(a), nil); err != nil {
		st.Close()
		t.Fatal(err)
	}
	return st
}
