package media

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

// TestImportSampleEqualsImport checks that the sample imported from its
// analysis kept per process answers as an import of SampleFile does, in a
// store (reopened) and in memory.
func TestImportSampleEqualsImport(t *testing.T) {
	if raceEnabled {
		t.Skip("compares two imports of the 4,000 sample articles from one goroutine: the race detector runs it ten times slower, the smaller import tests run the import's workers under it, and the plain run runs this one")
	}
	open := func(name string) (*store.Store, *Corpus) {
		db, err := store.Open(filepath.Join(t.TempDir(), name), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c, err := Load(db, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return db, c
	}
	refDB, ref := open("ref.db")
	if _, err := ref.Import(bytes.NewReader(SampleFile())); err != nil {
		t.Fatal(err)
	}
	gotDB, got := open("got.db")
	first, err := got.ImportSample()
	if err != nil {
		t.Fatal(err)
	}
	if first.Added != ref.Len() || first.Updated != 0 {
		t.Fatalf("first ImportSample: %+v, want %d added", first, ref.Len())
	}
	reload := func(db *store.Store) *Corpus {
		c, err := Load(db, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	mem, err := Sample(Options{})
	if err != nil {
		t.Fatal(err)
	}
	answer := func(c *Corpus, name string) string {
		r, err := c.Check(context.Background(), CheckQuery{Kind: query.Entity, Text: name})
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Search(context.Background(), SearchQuery{Text: name, PageSize: MaxPageSize})
		if err != nil {
			t.Fatal(err)
		}
		r.Timestamp, s.Timestamp = time.Time{}, time.Time{}
		b, _ := json.Marshal([]any{r, s})
		return string(b)
	}
	refAgain := reload(refDB)
	for _, name := range []string{"Romashka LLC", "Acme Holdings LLC", "Katharina Brandtner", "gazprom"} {
		want := answer(refAgain, name)
		for what, c := range map[string]*Corpus{"store": reload(gotDB), "memory": mem} {
			if g := answer(c, name); g != want {
				t.Errorf("%s, %s: ImportSample answers\n%s\nwant\n%s", what, name, g, want)
			}
		}
	}
}
