package engine

import (
	"fmt"
	"sync"
	"testing"

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
				a, _ := ix.Search(Query{Names: "zed alpha"})
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

func TestBoundedDistance(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "putin", "puttin", "vladimir", "wladimir", "vladimirovich", "ivanova", "ivnaova", "kitten", "sitting", "мария", "марья", "ab", "ba", "abcdef", "azced"}
	for _, a := range words {
		for _, b := range words {
			want := levenshteinRunes([]rune(a), []rune(b))
			for max := 0; max <= 3; max++ {
				got := boundedDistance([]rune(a), []rune(b), max)
				exp := want
				if exp > max {
					exp = max + 1
				}
				if got != exp {
					t.Errorf("boundedDistance(%q, %q, %d) = %d, want %d", a, b, max, got, exp)
				}
			}
		}
	}
}

// levenshteinRunes is the textbook full-matrix distance.
func levenshteinRunes(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
		}
	}
	return d[len(a)][len(b)]
}
