package engine

import (
	"slices"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/normalize"
)

// Scored mode needs of the index, beyond what strict mode keeps, how many
// live records hold each word (the word weights) and the dictionary's
// name tokens by sound key, consonant skeleton and given-name class (the
// look-ups that find spellings the edit radius misses).
//
// Both are per segment, built on the first scored search, so an index
// that only ever answers strict checks pays nothing for them. The key maps
// and the record counts of a segment never change (segKeys); the weights
// are global: a word's count is the sum over the segments of the view of
// its live records there (tombstoned ones left out), so a record scores
// the same whichever segment holds it and however the index was split
// (viewScored).

// segKeys is what scored mode keeps of one segment.
type segKeys struct {
	df    []uint32 // token id → records of the segment holding it in a name string
	sound map[string][]uint32
	skel  map[string][]uint32
	class map[int32][]uint32
}

// scoredKeys returns the segment's segKeys, building them once.
func (s *Segment) scoredKeys() *segKeys {
	s.keysOnce.Do(func() {
		n := s.Len()
		k := &segKeys{
			df:    make([]uint32, n),
			sound: make(map[string][]uint32),
			skel:  make(map[string][]uint32),
			class: make(map[int32][]uint32),
		}
		for id := range uint32(n) {
			if s.keyed(id) {
				k.key(s.Token(id), id)
			}
		}
		// Name strings are in ordinal order: a record's are adjacent.
		stamp := make([]uint32, n)
		for ns, ord := range s.nsRec {
			for _, id := range s.nameToks(uint32(ns)) {
				if stamp[id] != ord+1 {
					stamp[id] = ord + 1
					k.df[id]++
				}
			}
		}
		s.keys = k
	})
	return s.keys
}

// keyed reports whether token id is a word of a name string of the
// segment: only those pair in scored mode.
func (s *Segment) keyed(id uint32) bool { return s.postOff[id+1] > s.postOff[id] }

// key adds token tok (id) to the key maps.
func (k *segKeys) key(tok string, id uint32) {
	if normalize.IsLegalForm(tok) {
		return // pairs only exactly
	}
	if c := normalize.Variants().Class(tok); c != 0 {
		k.class[c] = append(k.class[c], id)
	}
	sound, skel := normalize.PhoneticKeys(tok)
	if sound != "" {
		k.sound[sound] = append(k.sound[sound], id)
		k.skel[skel] = append(k.skel[skel], id)
	}
}

// viewScored is what scored mode keeps of one view of the index.
type viewScored struct {
	keys []*segKeys
	// live[i] counts, by token id of segment i, its live records holding
	// the token in a name string; global[i] sums, by the same ids, those
	// of every segment: the count that weighs the word.
	live, global [][]uint32
	// words[i] holds, by token id of segment i, what a record word costs
	// unpaired and whether it is optional (recordWord), filled as checks
	// read them: both depend on the view alone, and computing them for
	// every word of every name string scored (a look-up of the word's
	// share of its culture's names among them) was a tenth of a check
	// that scores thousands.
	words [][]atomic.Uint64
	n     int // the live records the words' costs were weighed over
}

// PrepareScored builds what scored mode needs now rather than on the
// first scored search (at a million records it takes about a second), so
// that a server answers its first scored check as fast as the others.
func (ix *Index) PrepareScored() {
	v := ix.acquire()
	defer v.release()
	v.scored()
}

// scored returns the view's viewScored, building it once.
func (v *view) scored() *viewScored {
	v.scOnce.Do(func() {
		vs := &viewScored{
			keys:   make([]*segKeys, len(v.segs)),
			live:   make([][]uint32, len(v.segs)),
			global: make([][]uint32, len(v.segs)),
			words:  make([][]atomic.Uint64, len(v.segs)),
			n:      v.live,
		}
		for i := range v.segs {
			sv := &v.segs[i]
			vs.keys[i] = sv.scoredKeys()
			vs.live[i] = sv.liveDF(vs.keys[i].df)
			vs.words[i] = make([]atomic.Uint64, len(vs.live[i]))
		}
		if len(v.segs) == 1 {
			vs.global[0] = vs.live[0]
			v.sc = vs
			return
		}
		// Only words held by two segments or more differ from the
		// segment's own count, and each such word is held by a segment
		// other than the largest: reading the smaller segments' words
		// finds them all.
		largest := 0
		for i := range v.segs {
			vs.global[i] = slices.Clone(vs.live[i])
			if v.segs[i].Len() > v.segs[largest].Len() {
				largest = i
			}
		}
		local := make([]int64, len(v.segs))
		for i := range v.segs {
			if i == largest {
				continue
			}
			s := v.segs[i].Segment
			for id := range uint32(s.Len()) {
				if !s.keyed(id) {
					continue
				}
				tok := s.Token(id)
				total := uint32(0)
				for k := range v.segs {
					local[k] = -1
					if lid, ok := v.segs[k].ID(tok); ok {
						local[k] = int64(lid)
						total += vs.live[k][lid]
					}
				}
				for k := range v.segs {
					if local[k] >= 0 {
						vs.global[k][local[k]] = total
					}
				}
			}
		}
		v.sc = vs
	})
	return v.sc
}

// liveDF returns df less the records of the segment's tombstones (df
// itself when it has none).
func (sv *segView) liveDF(df []uint32) []uint32 {
	if sv.live == sv.Records() {
		return df
	}
	out := slices.Clone(df)
	n := uint32(sv.Records())
	var seen []uint32
	for ord := range n {
		if !sv.dead(ord) {
			continue
		}
		lo, _ := slices.BinarySearch(sv.nsRec, ord)
		seen = seen[:0]
		for ns := lo; ns < len(sv.nsRec) && sv.nsRec[ns] == ord; ns++ {
			for _, id := range sv.nameToks(uint32(ns)) {
				if !slices.Contains(seen, id) {
					seen = append(seen, id)
					out[id]--
				}
			}
		}
	}
	return out
}

// tokenDF returns the live records of the view holding tok in a name
// string.
func (v *view) tokenDF(vs *viewScored, tok string) int {
	n := 0
	for i := range v.segs {
		if id, ok := v.segs[i].ID(tok); ok {
			n += int(vs.live[i][id])
		}
	}
	return n
}
