package engine

import (
	"math"
	"slices"
)

// reasonParts keeps, for one scored check, the pairs and unpaired words
// of the reasons it wrote, by what decides them: the segment and query
// variant (the query's words and their costs), the name string's words,
// its pairing and the swap term. Lists repeat names (a common company
// name is held by hundreds of records at a million), and a check
// explaining a thousand hits wrote the same pairs for every copy. Hits
// of the same words share these slices.
type reasonParts struct {
	at    map[uint64]int32 // hash → index in ent
	ent   []partsEntry
	words []uint32 // the words of ent, each at w0, nw long
	edges []edge   // the pairings of ent, each at e0, ne long
}

// partsEntry is one set of reason parts and its key.
type partsEntry struct {
	seg, vi int32
	swap    float64
	w0, nw  int32
	e0, ne  int32
	pairs   []ScorePair
	unQ     []ScoreWord
	unR     []ScoreWord
}

// partsHash hashes the key of a reason's parts.
func partsHash(seg int32, vi int, words []uint32, pairing []edge, swap float64) uint64 {
	h := uint64(seg)<<32 | uint64(uint32(vi))
	mix := func(x uint64) {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	mix(math.Float64bits(swap))
	for _, id := range words {
		mix(uint64(id))
	}
	mix(uint64(len(pairing)))
	for i := range pairing {
		e := &pairing[i]
		mix(uint64(uint8(e.q0)) | uint64(uint8(e.q1))<<8 | uint64(uint8(e.k0))<<16 | uint64(uint8(e.k1))<<24 |
			uint64(e.kind)<<32 | uint64(e.edits)<<40)
		mix(math.Float64bits(e.value))
	}
	return h
}

// get returns the parts kept for this key, or nil, and the key's hash.
func (rp *reasonParts) get(seg int32, vi int, words []uint32, pairing []edge, swap float64) (uint64, *partsEntry) {
	h := partsHash(seg, vi, words, pairing, swap)
	i, ok := rp.at[h]
	if !ok {
		return h, nil
	}
	e := &rp.ent[i]
	if e.seg != seg || e.vi != int32(vi) || e.swap != swap ||
		!slices.Equal(rp.words[e.w0:e.w0+e.nw], words) || !slices.Equal(rp.edges[e.e0:e.e0+e.ne], pairing) {
		return h, nil // another key of the same hash: not kept
	}
	return h, e
}

// put keeps r's parts for the key of hash h, unless another key of that
// hash is kept.
func (rp *reasonParts) put(h uint64, seg int32, vi int, words []uint32, pairing []edge, swap float64, r *ScoreReason) {
	if rp.at == nil {
		rp.at = make(map[uint64]int32)
	}
	if _, ok := rp.at[h]; ok {
		return
	}
	rp.at[h] = int32(len(rp.ent))
	rp.ent = append(rp.ent, partsEntry{seg: seg, vi: int32(vi), swap: swap,
		w0: int32(len(rp.words)), nw: int32(len(words)), e0: int32(len(rp.edges)), ne: int32(len(pairing)),
		pairs: r.Pairs, unQ: r.UnpairedQuery, unR: r.UnpairedRecord})
	rp.words = append(rp.words, words...)
	rp.edges = append(rp.edges, pairing...)
}
