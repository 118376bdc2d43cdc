package engine

import (
	"fmt"
	"testing"
)

// TestPieceMayHavePartnersPrunesNoSplit holds the split pre-check of
// prepareScored (pieceMayHavePartners, asked of every piece of a split
// before any is looked up) to the look-up itself: for every word of a
// generated index, at fuzzy 0, 1 and 2, the splits found with it are the
// splits found without it, and no piece it turns down has a partner.
// Words whose every split is kept or dropped by each clause (exact token,
// variant class, sound key) make a pre-check that asks one thing too much
// drop a split here.
func TestPieceMayHavePartnersPrunesNoSplit(t *testing.T) {
	t.Parallel()
	ix := NewIndex(generated(2000, 37))
	v := ix.acquire()
	defer v.release()
	vs := v.scored()
	s := v.segs[0].Segment
	var words []string
	for id := range uint32(s.Len()) {
		if s.keyed(id) {
			words = append(words, s.Token(id))
		}
	}
	words = append(words, "vanderbilt", "abdulrahman", "mohammedali", "alhassan")
	kept, pruned := 0, 0
	for fuzzy := range 3 {
		parts := map[string]*globalPartners{}
		piece := func(a string) *globalPartners {
			if p, ok := parts[a]; ok {
				return p
			}
			tk := newTokInfo(a)
			p := v.scoredPartners(vs, &tk, fuzzy, true, nil)
			parts[a] = p
			return p
		}
		may := func(a string) bool {
			ok := v.pieceMayHavePartners(vs, a, fuzzy)
			if !ok {
				pruned++
				if !piece(a).empty() {
					t.Fatalf("fuzzy %d: piece %q turned down, but it has %d partners", fuzzy, a, len(piece(a).ps))
				}
			}
			return ok
		}
		for _, w := range words {
			want := wordSplits(w, piece)
			got := wordSplitsIf(w, may, piece)
			if describeSplits(got) != describeSplits(want) {
				t.Fatalf("fuzzy %d, %q: splits %s, want %s", fuzzy, w, describeSplits(got), describeSplits(want))
			}
			kept += len(got)
		}
	}
	if pruned == 0 || kept == 0 {
		t.Fatalf("%d pieces turned down, %d splits kept: the test does not exercise the pre-check", pruned, kept)
	}
	t.Logf("%d words, %d pieces turned down, %d splits kept", len(words), pruned, kept)
}

// describeSplits is the pieces' lengths and partners of each split.
func describeSplits(sp []globalSplit) string {
	out := ""
	for _, s := range sp {
		out += fmt.Sprintf("[%d %d %d %v %v", s.ra, s.rb, s.rc, s.a.texts, s.b.texts)
		if s.c != nil {
			out += fmt.Sprintf(" %v", s.c.texts)
		}
		out += "]"
	}
	return out
}
