package book

import (
	"fmt"
	"strings"
	"testing"
)

// TestCandidatesAreFewAndComplete checks the reverse index on its own: in
// strict mode every customer batch finds a hit for is a candidate, and
// the candidates are a small part of the book (the point of the index).
func TestCandidatesAreFewAndComplete(t *testing.T) {
	w := newWorld(t)
	for _, fuzzy := range []int{0, 1, 2} {
		t.Run(fmt.Sprint("fuzzy ", fuzzy), func(t *testing.T) {
			cfg := Config{Match: "strict", Fuzzy: fuzzy}
			customers := readBook(t, w.book, cfg)
			cand := map[string]bool{}
			for _, i := range candidates(customers, fuzzy, w.changed) {
				cand[customers[i].ID] = true
			}
			// The customers batch finds hits for, against the changed
			// records.
			matched := map[string]bool{}
			for _, k := range reference(t, w, cfg) {
				id, rec, _ := strings.Cut(k, " ")
				matched[id] = true
				if !cand[id] {
					t.Fatalf("customer %s matches %s but is no candidate", id, rec)
				}
			}
			if len(matched) == 0 || len(cand) > 3*len(matched)+20 || len(cand) >= len(customers)/2 {
				t.Errorf("%d candidates of %d customers for %d that match", len(cand), len(customers), len(matched))
			}
		})
	}
}
