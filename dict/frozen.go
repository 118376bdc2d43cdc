package dict

import (
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// Frozen is a dictionary that never changes, held in flat arrays rather
// than maps, so that it can live in a file and be used where it lies (the
// engine's persisted segments map it into memory): no map of millions of
// strings is built when it is opened, and it costs the garbage collector
// nothing.
//
// Tokens are sorted, and a token's id is its rank: ID is a binary search,
// Token a slice of the blob. The bigram index is keyed like Dict's, by
// padded bigram and rune length (GramKey), as sorted keys with an offset
// into one array of ids; the tokens of each rune length are listed for
// look-ups too short to filter by bigrams. Lookup applies exactly Dict's
// rule (see Dict.Lookup).
//
// The arrays are the caller's and must not change. A Frozen is safe for
// concurrent use.
type Frozen struct {
	Arrays
	counters sync.Pool
	// masks holds every token's letter mask (letterMask), built on the
	// first fuzzy look-up: the look-up tests the mask of every candidate,
	// and computing it there was a quarter of the look-up's time.
	masksOnce sync.Once
	masks     []uint64
}

// Arrays are the flat arrays of a Frozen dictionary, as FreezeTokens and
// BuildGrams make them and a file stores them.
type Arrays struct {
	// TokOff has one entry per token and one more: token i is
	// TokBlob[TokOff[i]:TokOff[i+1]]. Tokens are sorted and distinct.
	TokOff  []uint32
	TokBlob []byte
	// Runes holds each token's length in runes, capped at 255.
	Runes []uint8
	// Indexed is a bitset of the tokens in the bigram index (those that may
	// pair fuzzily): bit i%64 of word i/64.
	Indexed []uint64
	// GramKeys are the distinct keys of the bigram index, ascending;
	// the ids of key k are GramIDs[GramOff[k]:GramOff[k+1]], ascending.
	GramKeys []uint64
	GramOff  []uint32
	GramIDs  []uint32
	// The indexed tokens of rune length l are LenIDs[LenOff[l]:LenOff[l+1]],
	// ascending; LenOff has an entry per length up to the longest and one
	// more.
	LenOff []uint32
	LenIDs []uint32
}

// Len returns the number of tokens.
func (f *Frozen) Len() int { return len(f.Runes) }

// Token returns the token of id. The string shares the dictionary's
// memory: it is valid only as long as the arrays are.
func (f *Frozen) Token(id uint32) string {
	b := f.TokBlob[f.TokOff[id]:f.TokOff[id+1]]
	return unsafeString(b)
}

// TokenBytes returns the token of id as bytes of the dictionary's memory.
func (f *Frozen) TokenBytes(id uint32) []byte { return f.TokBlob[f.TokOff[id]:f.TokOff[id+1]] }

// ID returns the id of tok, if it is in the dictionary.
func (f *Frozen) ID(tok string) (uint32, bool) {
	n := f.Len()
	i := sort.Search(n, func(i int) bool { return f.Token(uint32(i)) >= tok })
	if i < n && f.Token(uint32(i)) == tok {
		return uint32(i), true
	}
	return 0, false
}

// RuneLen returns the length of token id in runes, capped at 255.
func (f *Frozen) RuneLen(id uint32) int { return int(f.Runes[id]) }

// IsIndexed reports whether token id is in the bigram index.
func (f *Frozen) IsIndexed(id uint32) bool { return f.Indexed[id/64]&(1<<(id%64)) != 0 }

// Lookup calls fn for every indexed token within radius edits of q, with
// its distance: Dict.Lookup's rule over the frozen arrays.
func (f *Frozen) Lookup(q string, radius int, fn func(id uint32, dist int)) {
	if radius == 0 {
		if id, ok := f.ID(q); ok && f.IsIndexed(id) {
			fn(id, 0)
		}
		return
	}
	f.masksOnce.Do(func() {
		f.masks = make([]uint64, f.Len())
		for id := range f.masks {
			f.masks[id] = letterMask(f.Token(uint32(id)))
		}
	})
	lookup(q, radius, f.Len(), &f.counters, f.gram, f.byLen,
		func(id uint32) (string, uint64) { return f.Token(id), f.masks[id] }, fn)
}

// gram returns the ids of key. The keys of one bigram for every length are
// neighbours in GramKeys, and a look-up asks for them in rising length, so
// cursor (one per bigram, 0 at first) keeps where the bigram's keys begin:
// one binary search per bigram, then a step or two per length.
func (f *Frozen) gram(key uint64, cursor *int) []uint32 {
	i := *cursor - 1
	if i < 0 {
		i, _ = slices.BinarySearch(f.GramKeys, key)
	}
	for i < len(f.GramKeys) && f.GramKeys[i] < key {
		i++
	}
	*cursor = i + 1
	if i == len(f.GramKeys) || f.GramKeys[i] != key {
		return nil
	}
	return f.GramIDs[f.GramOff[i]:f.GramOff[i+1]]
}

func (f *Frozen) byLen(l int) []uint32 {
	if l+1 >= len(f.LenOff) {
		return nil
	}
	return f.LenIDs[f.LenOff[l]:f.LenOff[l+1]]
}

// BuildGrams builds the bigram-index arrays (GramKeys, GramOff, GramIDs,
// LenOff, LenIDs) over n tokens, given by token(i) in id order, of which
// those with indexed(i) are indexed. Memory: the distinct keys and one id
// per distinct (bigram, token) pair, nothing per token beyond that.
func BuildGrams(n int, token func(i uint32) []byte, indexed func(i uint32) bool, runes func(i uint32) int) (keys []uint64, off, ids, lenOff, lenIDs []uint32) {
	// First pass: count every key's ids and every length's tokens.
	count := map[uint64]uint32{}
	var lenCount []uint32
	var buf []uint64
	forEach := func(fn func(id uint32, key uint64)) {
		for i := range uint32(n) {
			if !indexed(i) {
				continue
			}
			l := runes(i)
			buf = buf[:0]
			forEachGram(unsafeString(token(i)), func(a, b rune) { buf = append(buf, gramKey(a, b, l)) })
			// A token with a repeated bigram is listed once per key.
			slices.Sort(buf)
			for _, key := range slices.Compact(buf) {
				fn(i, key)
			}
		}
	}
	for i := range uint32(n) {
		if !indexed(i) {
			continue
		}
		l := runes(i)
		for len(lenCount) <= l {
			lenCount = append(lenCount, 0)
		}
		lenCount[l]++
	}
	forEach(func(_ uint32, key uint64) { count[key]++ })
	keys = make([]uint64, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	off = make([]uint32, len(keys)+1)
	pos := make(map[uint64]uint32, len(keys))
	total := uint32(0)
	for i, k := range keys {
		off[i] = total
		pos[k] = total
		total += count[k]
	}
	off[len(keys)] = total
	clear(count)
	// Second pass: fill. Ids come in ascending order, so every list is
	// sorted.
	ids = make([]uint32, total)
	forEach(func(id uint32, key uint64) {
		p := pos[key]
		ids[p] = id
		pos[key] = p + 1
	})
	lenOff = make([]uint32, len(lenCount)+1)
	for l, c := range lenCount {
		lenOff[l+1] = lenOff[l] + c
	}
	lenIDs = make([]uint32, lenOff[len(lenCount)])
	next := slices.Clone(lenOff[:len(lenCount)])
	for i := range uint32(n) {
		if indexed(i) {
			l := runes(i)
			lenIDs[next[l]] = i
			next[l]++
		}
	}
	return keys, off, ids, lenOff, lenIDs
}

// unsafeString views b as a string without copying; b must not change
// while the string is used.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
