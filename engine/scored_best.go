package engine

import "slices"

// bestSet holds the best name string of each record a scored check keeps,
// by key (segment << 32 | ordinal), in two parallel slices kept in the
// search's scratch. It replaces a map: a check of thousands of hits
// rehashed entries of about a hundred bytes as the map grew.
//
// Candidates come in runs (one segment and query variant each) of
// ascending name strings, hence ascending records, and two runs never
// hold the same record (one segment each, and a segment's variants select
// records of different kinds). Within a run a record's name strings are
// next to each other, so finding a record is a look at the last entry; a
// run out of order still answers right, by a binary search and an insert.
type bestSet struct {
	keys []uint64
	bs   []scoredBest
	run  int // where the current run starts
}

// maxKeptBests is the most entries a pooled set keeps the memory of.
const maxKeptBests = 1 << 14

// reset empties the set for another check, giving up the memory of a
// large one so that a pooled scratch does not keep it.
func (s *bestSet) reset() {
	if cap(s.keys) > maxKeptBests {
		s.keys, s.bs = nil, nil
	}
	s.keys, s.bs, s.run = s.keys[:0], s.bs[:0], 0
}

// startRun begins another run of ascending keys.
func (s *bestSet) startRun() { s.run = len(s.keys) }

// find returns where key is in the current run, or where it belongs.
func (s *bestSet) find(key uint64) (i int, found bool) {
	n := len(s.keys)
	if n == s.run || s.keys[n-1] < key {
		return n, false
	}
	if s.keys[n-1] == key {
		return n - 1, true
	}
	i, found = slices.BinarySearch(s.keys[s.run:], key)
	return s.run + i, found
}

// put stores b as the entry of key at i, as find returned them.
func (s *bestSet) put(i int, found bool, key uint64, b scoredBest) {
	switch {
	case found:
		s.bs[i] = b
	case i == len(s.keys):
		s.keys = append(s.keys, key)
		s.bs = append(s.bs, b)
	default:
		s.keys = slices.Insert(s.keys, i, key)
		s.bs = slices.Insert(s.bs, i, b)
	}
}

// len is the number of records the set holds.
func (s *bestSet) len() int { return len(s.keys) }

// keep keeps the entries whose drop is false, in their order.
func (s *bestSet) keep(drop []bool) {
	n := 0
	for i := range s.keys {
		if !drop[i] {
			s.keys[n], s.bs[n] = s.keys[i], s.bs[i]
			n++
		}
	}
	s.keys, s.bs = s.keys[:n], s.bs[:n]
}
