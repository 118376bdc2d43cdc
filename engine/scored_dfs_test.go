package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// TestScoredDFsCountAsTokenDF counts words with one ScoredDFs through an
// index and two previews of change sets after it (records added,
// renamed, deleted), and checks each count against TokenDF.
func TestScoredDFsCountAsTokenDF(t *testing.T) {
	g := gen.New(5)
	var recs []*record.Record
	for i := range 600 {
		recs = append(recs, g.Record(i))
	}
	ix := NewIndex(recs)
	var words []string
	seen := map[string]bool{}
	addWords := func(ix *Index) {
		v := ix.acquire()
		defer v.release()
		for i := range v.segs {
			for id := range uint32(v.segs[i].Len()) {
				if w := v.segs[i].Token(id); !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
	}
	addWords(ix)
	words = append(words, "zzqx", "nowordhere")
	change := func(ix *Index, from int) *Index {
		var cs []record.Change
		for i := range 40 {
			cs = append(cs, record.Change{Type: record.ChangeAdd, Record: *g.Record(1000 + from + i)})
		}
		for i := from; i < from+30; i++ {
			r := recs[i].Clone()
			r.Name = recs[i+300].Name + " Junior"
			cs = append(cs, record.Change{Type: record.ChangeUpdate, Record: *r})
		}
		for i := from + 100; i < from+120; i++ {
			cs = append(cs, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: recs[i].ID}})
		}
		p, err := ix.Preview(cs)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p1 := change(ix, 0)
	addWords(p1) // words only the new records hold, counted from the first state on
	d := NewScoredDFs(words)
	dfs := make([]int32, len(words))
	for k, state := range []*Index{ix, p1, change(p1, 40), ix} {
		st := state.ScoredStats()
		d.Counts(st, dfs)
		for i, w := range words {
			if want := st.TokenDF(w); int(dfs[i]) != want {
				t.Fatalf("state %d: %q counted %d, TokenDF %d", k, w, dfs[i], want)
			}
		}
		st.Release()
		t.Logf("state %d: %d words, %d segments kept", k, len(words), len(d.seen))
	}
}
