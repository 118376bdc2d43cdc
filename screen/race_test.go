package screen

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// TestSearchesDuringChangesAndMerges searches a persisted index while
// change sets commit, new segments are written, merged and swapped, and
// old segment files are unmapped: no search fails, none sees a record
// without its id, and (under -race) none touches memory a swap released.
// Each searcher pauses a little between searches: searching flat out,
// the three took half the package's CPU from the change sets they wait
// on, and a swap still falls among many searches.
func TestSearchesDuringChangesAndMerges(t *testing.T) {
	const searchPause = 500 * time.Microsecond
	t.Parallel()
	w, st, d, _ := served(t)
	w.importAll(st, 600, "v1")
	queries := []query.Query{}
	for _, r := range w.records()[:40] {
		queries = append(queries, query.Query{Names: r.Name, Fuzzy: 1}, query.Query{Names: r.Name, Fuzzy: 2, Match: query.Scored})
	}
	var stop atomic.Bool
	var searches atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 3 {
		wg.Go(func() {
			for i := g; !stop.Load(); i++ {
				res, err := d.Index().Search(queries[i%len(queries)])
				if err != nil {
					errs <- err
					return
				}
				for _, h := range res.Hits {
					if h.Record == nil || h.Record.ID != h.ID {
						errs <- fmt.Errorf("hit %s with record %v", h.ID, h.Record)
						return
					}
				}
				searches.Add(1)
				time.Sleep(searchPause)
			}
		})
	}
	merged := false
	// 11 change sets merge more than once; the long run applies 24.
	last := 12
	if longTests() {
		last = 25
	}
	for i := 2; i <= last; i++ {
		w.changeSet(st, fmt.Sprintf("v%d", i), 15, 15, 5)
		d.bg.Wait() // merges run in the background
		if d.State().Segments == 1 && i > 2 {
			merged = true
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if !merged {
		t.Error("no merge happened: the test proves less than it says")
	}
	if searches.Load() == 0 {
		t.Fatal("no search ran")
	}
	t.Logf("%d searches", searches.Load())
	w.agrees(d)
}

// A server's index merges in the background: the change set that makes
// segments pile up is answered from at once, with its own segment, while
// the merge runs; then the merged segment replaces them, on disk too.
func TestMergesRunInTheBackground(t *testing.T) {
	w, st, d, _ := served(t)
	w.importAll(st, 600, "v1")
	release := make(chan struct{})
	crashPoint = func(p string) {
		if p == "merged" {
			<-release
		}
	}
	defer func() { crashPoint = func(string) {} }()

	w.changeSet(st, "v2", 60, 20, 10) // more than a tenth of the base
	if s := d.State(); s.Version != "v2" || s.Segments != 2 {
		t.Fatalf("while the merge runs: %+v, want v2 answered from two segments", s)
	}
	w.agrees(d)
	close(release)
	d.bg.Wait()
	if s := d.State(); s.Segments != 1 || s.Tombstones != 0 {
		t.Fatalf("after the merge: %+v", s)
	}
	w.agrees(d)
	m, err := readManifest(IndexDir(w.path))
	if err != nil || len(m.Segments) != 1 || m.StoreVersion != "v2" {
		t.Fatalf("MANIFEST after the merge: %+v, %v", m, err)
	}
}
