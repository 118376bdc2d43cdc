package engine

// warmChunk is how many candidates scoreCandidates reads ahead of
// scoring them. A candidate's name string and record lie far from the
// last one's at a million records, so each costs cache misses: read one
// after the other inside the scoring loop they wait in turn, read for a
// chunk in a short loop of independent loads they are fetched together.
// A chunk's lines stay in the first-level caches until it is scored.
const warmChunk = 64

// warmAhead turns warm on (a variable for the benchmark that times the
// same checks with and without it, one after the other).
var warmAhead = true

// warm reads, for the name strings cands (at most warmChunk), their
// record ordinals into ords and touches what scoring them reads first:
// the name string's offset, length and first word, the record's flags
// and tombstone word. The sum it returns means nothing; the caller keeps
// it so that the loads are not dropped.
func (ss *scoredSeg) warm(cands []uint32, ords *[warmChunk]uint32) uint32 {
	var sink uint32
	for i, ns := range cands {
		ords[i] = ss.nsRec[ns]
		sink += ss.nsOff[ns] + uint32(ss.nsBase[ns]) + uint32(ss.nsSlot[ns])
	}
	for i, ns := range cands {
		ord := ords[i]
		sink += uint32(ss.recFlags[ord])
		if w := ord / 64; int(w) < len(ss.tomb) {
			sink += uint32(ss.tomb[w])
		}
		if off := ss.nsOff[ns]; int(off) < len(ss.nsTok) {
			sink += ss.nsTok[off]
		}
	}
	return sink
}

// warmHitsAhead turns warmIDs and warmHits on (a variable for the
// benchmark that times the same checks with and without them).
var warmHitsAhead = true

// warmIDs touches, for the ranked keys of a chunk (at most warmChunk),
// the first byte of each record's id, which ranking them reads next. A
// check of thousands of hits read each id after the last one's miss.
func warmIDs(segs []scoredSeg, keys []rankedKey) uint32 {
	var offs [warmChunk]uint32
	var sink uint32
	for i := range keys {
		ss := &segs[keys[i].key>>32]
		offs[i] = ss.idOff[uint32(keys[i].key)]
	}
	for i := range keys {
		ss := &segs[keys[i].key>>32]
		if int(offs[i]) < len(ss.idBlob) {
			sink += uint32(ss.idBlob[offs[i]])
		}
	}
	return sink
}

// warmHits touches, for the hits of a chunk (at most warmChunk) and
// their best name strings bs, what explaining them reads first: the
// record's name fields up to the name string's slot, the name string's
// words and their costs, and the record's flags. Explaining a thousand
// hits waited for these misses one hit after the other. The sum it
// returns means nothing; the caller keeps it so that the loads stay.
func warmHits(segs []scoredSeg, hits []Hit, bs []scoredBest) uint32 {
	var sink uint32
	for i := range hits {
		h, b := &hits[i], &bs[i]
		ss := &segs[h.seg]
		if r := h.Record; r != nil {
			sink += uint32(len(r.Name) + len(r.TLName) + len(r.AliasNames))
		}
		sink += ss.nsOff[b.ns] + uint32(ss.nsBase[b.ns]) + uint32(ss.recFlags[h.ord])
	}
	for i := range hits {
		h, b := &hits[i], &bs[i]
		ss := &segs[h.seg]
		if r := h.Record; r != nil {
			if r.Name != "" {
				sink += uint32(r.Name[0])
			}
			if b.slot > 0 {
				if r.TLName != "" {
					sink += uint32(r.TLName[0])
				}
				for _, a := range r.AliasNames[:min(int(b.slot), len(r.AliasNames))] {
					if a != "" {
						sink += uint32(a[0])
					}
				}
			}
		}
		for _, id := range ss.nameWords(b.ns) {
			if int(id) < len(ss.words) {
				sink += uint32(ss.words[id].Load())
			}
		}
	}
	return sink
}

// warmRecs touches, for hits, the pointer to each one's record in a
// segment built in memory, which fill reads next. fill reads them one
// hit after another between the copies of the ids, and at a million
// records each is a cache miss of its own. The sum it returns means
// nothing; the caller keeps it so that the loads stay.
func warmRecs(segs []scoredSeg, hits []Hit) uint32 {
	var sink uint32
	for i := range hits {
		if recs := segs[hits[i].seg].recs; int(hits[i].ord) < len(recs) && recs[hits[i].ord] != nil {
			sink++
		}
	}
	return sink
}
