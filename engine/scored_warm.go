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
