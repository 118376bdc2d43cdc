package engine

import (
	"strconv"
	"sync"
)

// partnerCache keeps the partners scored mode looked up in one view of the
// index, by fuzzy level and word, for the checks that follow: a batch
// screens thousands of customers who share given names and surnames, and
// the fuzzy look-up of a word's partners was two thirds of a scored
// check's time (pprof of BenchmarkRun, batch --match scored). Partners
// depend on the view, the fuzzy level and the word alone, so a check
// answers the same with the cache as without; a new view (any change of
// the index) starts empty.
type partnerCache struct {
	mu     sync.Mutex
	m      map[string]*globalPartners
	splits map[string][]globalSplit // the splits of a word into two pieces that pair
	size   int                      // partners and splits held, summed over the entries
	slabs  partnerSlabs             // what the entries of m and splits and their keys are cut from
}

// maxCachedPartners bounds the partners one view keeps (some tens of
// megabytes, about twice that once checks have built each entry's map by
// token id); a full cache is emptied and filled again with what the
// checks of the moment ask for.
const maxCachedPartners = 1 << 20

// cacheKey is the key of word key at fuzzy level fuzzy.
func cacheKey(fuzzy int, key string) string { return strconv.Itoa(fuzzy) + "\x00" + key }

func (pc *partnerCache) get(k string) (*globalPartners, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	gp, ok := pc.m[k]
	return gp, ok
}

// put keeps a copy of gp, which nobody changes once built, cut from the
// cache's slabs, and returns the entry of k: that copy, or the one
// another check put first (the same partners). The caller uses it in
// place of gp, so that the maps toLocal builds on it serve the checks
// after, and gp is garbage at once.
func (pc *partnerCache) put(k string, gp *globalPartners) *globalPartners {
	n := len(gp.ps) + 1
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.make(n)
	if old, ok := pc.m[k]; ok {
		return old
	}
	kept := pc.slabs.keep(gp)
	pc.m[pc.slabs.str(k)] = kept
	pc.size += n
	return kept
}

// make readies the maps for n more entries, emptying them when full.
func (pc *partnerCache) make(n int) {
	if pc.m == nil || pc.size+n > maxCachedPartners {
		pc.m, pc.splits, pc.size = make(map[string]*globalPartners), make(map[string][]globalSplit), 0
		pc.slabs = partnerSlabs{}
	}
}

func (pc *partnerCache) getSplits(k string) ([]globalSplit, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	sp, ok := pc.splits[k]
	return sp, ok
}

// putSplits keeps a copy of the splits of a word, which nobody changes
// once found, cut from the cache's slabs.
func (pc *partnerCache) putSplits(k string, sp []globalSplit) {
	n := len(sp) + 1
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.make(n)
	if _, ok := pc.splits[k]; !ok {
		pc.splits[pc.slabs.str(k)] = keepSlice(&pc.slabs.splits, sp)
		pc.size += n
	}
}
