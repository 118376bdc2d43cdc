package engine

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/normalize"
)

// scoredStats is what scored mode needs of the index beyond what strict
// mode keeps: how many live records hold each token (the word weights),
// and the dictionary's name tokens by sound key, consonant skeleton and
// given-name class (the look-ups that find spellings the edit radius
// misses). It is built on the first scored search (or by PrepareScored),
// so an index that only ever answers strict checks pays nothing for it,
// and from then on kept up to date by every change set.
type scoredStats struct {
	ready atomic.Bool
	mu    sync.Mutex // serialises the build; Apply holds the index's write lock

	df    []uint32 // token id → live records holding it in a name string
	keyed []bool   // token id → in the key maps below
	sound map[string][]uint32
	skel  map[string][]uint32
	class map[int32][]uint32
	// stamp is scratch for counting a record's distinct tokens.
	stamp []uint32
}

// PrepareScored builds what scored mode needs now rather than on the
// first scored search (at a million records it takes about a second), so
// that a server answers its first scored check as fast as the others.
func (ix *Index) PrepareScored() {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.ensureScored()
}

// ensureScored builds ix.sc if needed; the caller holds the read lock, so
// no change set runs meanwhile.
func (ix *Index) ensureScored() *scoredStats {
	sc := &ix.sc
	if sc.ready.Load() {
		return sc
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ready.Load() {
		return sc
	}
	n := ix.d.Len()
	sc.df = make([]uint32, n)
	sc.keyed = make([]bool, n)
	sc.stamp = make([]uint32, n)
	sc.sound = make(map[string][]uint32)
	sc.skel = make(map[string][]uint32)
	sc.class = make(map[int32][]uint32)
	for id := range n {
		if len(ix.post[id]) > 0 {
			sc.key(ix, uint32(id))
		}
	}
	for ns := range ix.nsRec {
		ord := ix.nsRec[ns]
		if ix.recs[ord] == nil {
			continue
		}
		for _, id := range ix.nsTok[ix.nsOff[ns]:ix.nsOff[ns+1]] {
			if sc.stamp[id] != ord+1 {
				sc.stamp[id] = ord + 1
				sc.df[id]++
			}
		}
	}
	sc.ready.Store(true)
	return sc
}

// key adds token id to the key maps.
func (sc *scoredStats) key(ix *Index, id uint32) {
	sc.keyed[id] = true
	tok := ix.d.Token(id)
	if normalize.IsLegalForm(tok) {
		return // pairs only exactly
	}
	if c := normalize.Variants().Class(tok); c != 0 {
		sc.class[c] = append(sc.class[c], id)
	}
	sound, skel := normalize.PhoneticKeys(tok)
	if sound != "" {
		sc.sound[sound] = append(sc.sound[sound], id)
		sc.skel[skel] = append(sc.skel[skel], id)
	}
}

// grow extends the per-token arrays to the dictionary's size.
func (sc *scoredStats) grow(n int) {
	for len(sc.df) < n {
		sc.df = append(sc.df, 0)
		sc.keyed = append(sc.keyed, false)
		sc.stamp = append(sc.stamp, 0)
	}
}

// added counts the record at ord, whose name strings are nsLo..nsHi-1;
// the caller holds the write lock.
func (sc *scoredStats) added(ix *Index, ord uint32, nsLo, nsHi int) {
	sc.grow(ix.d.Len())
	for ns := nsLo; ns < nsHi; ns++ {
		for _, id := range ix.nsTok[ix.nsOff[ns]:ix.nsOff[ns+1]] {
			if !sc.keyed[id] {
				sc.key(ix, id)
			}
			if sc.stamp[id] != ord+1 {
				sc.stamp[id] = ord + 1
				sc.df[id]++
			}
		}
	}
}

// removed uncounts the record at ord before it is tombstoned; the caller
// holds the write lock.
func (sc *scoredStats) removed(ix *Index, ord uint32) {
	lo, _ := slices.BinarySearch(ix.nsRec, ord)
	hi := lo
	for hi < len(ix.nsRec) && ix.nsRec[hi] == ord {
		hi++
	}
	var seen []uint32
	for ns := lo; ns < hi; ns++ {
		for _, id := range ix.nsTok[ix.nsOff[ns]:ix.nsOff[ns+1]] {
			if !slices.Contains(seen, id) {
				seen = append(seen, id)
				sc.df[id]--
			}
		}
	}
	// The stamps of this ordinal are stale now; a later record has
	// another ordinal, so they never match again.
}
