package engine

import "unsafe"

// partnerSlabs holds the entries of one generation of a partnerCache (from
// one emptying to the next) in a few large arrays: each entry's struct,
// partners, texts, record counts, segment ids and key are cut from them.
// Built one by one, an entry was half a dozen small objects and one string
// a partner, allocated among a check's short-lived garbage of the same
// sizes; the few kept pinned the collector's spans of that garbage (a
// scored book's change set of 10,000 records left some hundreds of
// megabytes of spans in use for tens of megabytes of cache). Arrays of
// slabChunk elements are spans of their own, freed whole once the
// generation is dropped and no check holds one of its entries.
type partnerSlabs struct {
	gps    []globalPartners
	ps     []partner
	texts  []string
	df     []int
	local  []localPartner
	segs   [][]localPartner
	splits []globalSplit
	bytes  []byte
}

// slabChunk is the most elements of each of a generation's arrays (and
// sixteen times it the bytes of its text array) but for an entry larger
// than that: 4,096 partners are 96 KiB, past the collector's small-object
// sizes. The first arrays are smaller (nextChunk).
const slabChunk = 4096

// keep returns a copy of gp cut from the slabs; gp is left as it is.
// The copy holds no maps yet: toLocal builds them on first use.
func (sl *partnerSlabs) keep(gp *globalPartners) *globalPartners {
	k := &takeFrom(&sl.gps, 1, nextChunk(cap(sl.gps), slabChunk/8))[:1][0]
	k.ps = keepSlice(&sl.ps, gp.ps)
	k.df = keepSlice(&sl.df, gp.df)
	if len(gp.texts) > 0 {
		k.texts = takeFrom(&sl.texts, len(gp.texts), nextChunk(cap(sl.texts), slabChunk))
		for _, t := range gp.texts {
			k.texts = append(k.texts, sl.str(t))
		}
	}
	if gp.local != nil {
		k.local = takeFrom(&sl.segs, len(gp.local), nextChunk(cap(sl.segs), slabChunk))
		for _, ls := range gp.local {
			k.local = append(k.local, keepSlice(&sl.local, ls))
		}
	}
	return k
}

// nextChunk is the size of the array that follows one of capacity c:
// twice c up to most, so that a cache holding a few words (a new view's,
// or one emptied often) allocates little, and a full one few arrays.
func nextChunk(c, most int) int { return min(max(2*c, 16), most) }

// keepSlice returns a copy of s cut from *buf, nil when s is empty (as
// the appends that built s leave it).
func keepSlice[T any](buf *[]T, s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(takeFrom(buf, len(s), nextChunk(cap(*buf), slabChunk)), s...)
}

// str returns a copy of s in the text array. The array's bytes are never
// written again once cut, so the string stays what it was.
func (sl *partnerSlabs) str(s string) string {
	if s == "" {
		return ""
	}
	b := append(takeFrom(&sl.bytes, len(s), nextChunk(cap(sl.bytes), 16*slabChunk)), s...)
	return unsafe.String(unsafe.SliceData(b), len(b))
}
