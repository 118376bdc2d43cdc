package book

import (
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/engine"
)

// essentialTolerance is how far the serving index's word statistics may
// move from those the posting lists were last cut under before the cut
// is refreshed (engine.ScoredTolerance): a word's count of records by 2%
// (a word of fewer than about fifty records by none), the live records by
// 0.2%. Wider would keep fewer customer units essential-free; narrower
// would refresh more often.
var essentialTolerance = engine.ScoredTolerance{DF: 0.02, Live: 0.002}

// essentialCut orders each posting list of a scoredReverse with the
// entries whose unit may be essential for their customer first
// (engine.ScoredBound.MayBeEssential), under statistics within
// essentialTolerance of those it was made under: a changed record that
// reaches a customer only through the rest reaches no unit its check
// cannot do without, and the customer is not grouped nor bounded. A
// common word (Kim, Ali, Mohammed) reaches most of a book but is
// essential for few of its customers.
type essentialCut struct {
	mu       sync.Mutex
	made     bool
	minScore float64
	live     int
	// words: the dict ids of the customer words, by number; counts
	// counts their records at each change set; df: by number, their
	// counts when the cut was made.
	words  []uint32
	counts *engine.ScoredDFs
	df     []int32
	// cut: by dict id, the entries of post[id] before cut[id] may be
	// essential.
	cut []int32
	// now: by number, the words' counts of records under the statistics
	// of the change set being matched (nil when not counted), which its
	// bounds weigh the words with.
	now []int32
	// For tests: off makes every customer reached a candidate; stale
	// keeps the cut whatever the statistics (a cut one step too
	// aggressive, which must lose candidates).
	off, stale bool
}

// candidates returns a bit per customer, set for those of which a changed
// record reaching the dict ids ids may reach a unit that is essential
// under st: those reached before a posting list's cut, and those holding
// a word whose count of records moved past the tolerance since the cut
// was made. It refreshes the cut when the statistics moved too far.
// rv.ess.mu must be held until the posting lists are no longer read.
func (rv *scoredReverse) candidates(ids []uint32, st *engine.ScoredStats, minScore float64, workers int) []uint64 {
	ec := &rv.ess
	ec.now = nil
	if ec.off {
		all := make([]uint64, (rv.n+63)/64)
		for i := range all {
			all[i] = ^uint64(0)
		}
		return all
	}
	var dirty []uint32
	if ec.made && ec.stale {
		// Taken as made (tests).
	} else if ec.made && ec.minScore == minScore && essentialTolerance.WithinLive(ec.live, st.Live()) {
		dirty, ec.now = rv.driftedCounts(st)
		entries := 0
		for _, id := range dirty {
			entries += len(rv.post[id])
		}
		// Past a quarter of the book, making the cut again costs less
		// than the customers it would leave uncut.
		if entries > rv.n/4 {
			ec.made = false
		}
	} else {
		ec.made = false
	}
	if !ec.made {
		rv.makeCut(st, minScore, workers)
		dirty, ec.now = nil, ec.df
	}
	cand := make([]uint64, (rv.n+63)/64)
	for _, id := range ids {
		for _, e := range rv.post[id][:ec.cut[id]] {
			c := e >> entryShift
			cand[c/64] |= 1 << (c % 64)
		}
	}
	for _, id := range dirty {
		for _, e := range rv.post[id] {
			c := e >> entryShift
			cand[c/64] |= 1 << (c % 64)
		}
	}
	return cand
}

// driftedCounts returns the customer words whose count of records under
// st moved past the tolerance from the cut's, and every customer word's
// count of records under st, by number.
func (rv *scoredReverse) driftedCounts(st *engine.ScoredStats) (drifted []uint32, cur []int32) {
	ec := &rv.ess
	cur = make([]int32, len(ec.words))
	ec.counts.Counts(st, cur)
	for k, f := range cur {
		if !essentialTolerance.Within(int(ec.df[k]), int(f)) {
			drifted = append(drifted, ec.words[k])
		}
	}
	return drifted, cur
}

// makeCut bounds every customer under st and orders each posting list
// with the entries whose unit may be essential first.
func (rv *scoredReverse) makeCut(st *engine.ScoredStats, minScore float64, workers int) {
	ec := &rv.ess
	nd := rv.d.Len()
	if ec.counts == nil {
		single := make([]bool, nd)
		for _, id := range rv.words {
			single[id] = true
		}
		var toks []string
		for id := range uint32(nd) {
			if single[id] {
				ec.words = append(ec.words, id)
				toks = append(toks, rv.d.Token(id))
			}
		}
		ec.counts = engine.NewScoredDFs(toks)
	}
	ec.df = make([]int32, len(ec.words))
	ec.counts.Counts(st, ec.df)
	ec.now = ec.df
	// may: by customer, the units of its raw list then of its legal list
	// that may be essential.
	may := make([]uint64, 2*rv.n)
	weighers := make([]weigher, workers)
	stats := make([]atomic.Pointer[engine.ScoredWordStat], nd)
	for w := range weighers {
		weighers[w] = weigher{st: st, minScore: minScore, stats: stats}
	}
	parallelWorkers((rv.n+255)/256, workers, func(w, k int) {
		wg := &weighers[w]
		for c := k * 256; c < min(rv.n, (k+1)*256); c++ {
			if rv.off[2*c] == rv.off[2*c+1] {
				continue // no check: no entries
			}
			may[2*c] = wg.bound(rv, c, false).MayBeEssential(essentialTolerance)
			if rv.off[2*c+1] != rv.off[2*c+2] {
				may[2*c+1] = wg.bound(rv, c, true).MayBeEssential(essentialTolerance)
			}
		}
	})
	ec.cut = make([]int32, nd)
	var bufs = make([][]uint32, workers)
	parallelWorkers(nd, workers, func(w, id int) {
		p := rv.post[id]
		rest := bufs[w][:0]
		k := 0
		for _, e := range p {
			h := unitHit{e: uint8(e & (1<<entryShift - 1))}
			legal, unit := h.unit()
			l := 0
			if legal {
				l = 1
			}
			if may[2*(e>>entryShift)+uint32(l)]&(1<<unit) != 0 {
				p[k] = e
				k++
			} else {
				rest = append(rest, e)
			}
		}
		copy(p[k:], rest)
		ec.cut[id] = int32(k)
		bufs[w] = rest
	})
	ec.made, ec.minScore, ec.live = true, minScore, st.Live()
}
