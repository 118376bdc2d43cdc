package engine

import (
	"fmt"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestSearchNeverSeesHalfAChangeSet renames 200 records in one change set
// while searches run; every search must count all of the old names or none.
func TestSearchNeverSeesHalfAChangeSet(t *testing.T) {
	const n = 200
	var recs []*record.Record
	var forward, back []record.Change
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("A%03d", i)
		recs = append(recs, &record.Record{ID: id, EntityType: "INDIVIDUAL", Name: "Zed Alpha"})
		forward = append(forward, record.Change{Type: record.ChangeUpdate, Record: record.Record{ID: id, EntityType: "INDIVIDUAL", Name: "Zed Beta"}})
		back = append(back, record.Change{Type: record.ChangeUpdate, Record: record.Record{ID: id, EntityType: "INDIVIDUAL", Name: "Zed Alpha"}})
	}
	ix := NewIndex(recs)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				a, _ := ix.Search(query.Query{Names: "zed alpha"})
				if a.Total != 0 && a.Total != n {
					errs <- fmt.Sprintf("saw %d of %d old names", a.Total, n)
					return
				}
			}
		}()
	}
	for i := 0; i < 30; i++ {
		ix.Apply(forward)
		ix.Apply(back)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if got := ix.Len(); got != n {
		t.Errorf("Len = %d after updates, want %d", got, n)
	}
}
