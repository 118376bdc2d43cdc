package book

import (
	"cmp"
	"slices"

	"github.com/amlscreen/amlscreen/engine"
)

// pieceKeys are the keys one piece of a split word pairs by, hashed
// (keyOf): its text, its variant class and, above fuzzy 0, its sound key;
// 0 for a key it has not. A piece pairs with a record word only when they
// are equal, of one class or of one sound key (engine.ScoredSplits), so a
// record word finds every piece it may pair with under its own keys.
type pieceKeys [3]uint64

// keyOf hashes a key of kind kind (1 text, 2 class, 3 sound, 4
// skeleton) and text s (FNV-1a), never 0. Two keys that hash alike only make a look-up return
// more splits, which relating their pieces drops.
func keyOf(kind byte, s string) uint64 {
	h := uint64(14695981039346656037)
	h ^= uint64(kind)
	h *= 1099511628211
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h | 1
}

// classKey is the key of variant class c.
func classKey(c int32) uint64 {
	return keyOf(2, string([]byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24)}))
}

// piecePostKeys returns the keys a customer word's piece p is posted
// under at fuzzy.
func piecePostKeys(p string, fuzzy int) pieceKeys {
	k := engine.ScoredWordKeys(p)
	ks := pieceKeys{keyOf(1, p)}
	if k.Class != 0 {
		ks[1] = classKey(k.Class)
	}
	if fuzzy > 0 && k.Sound != "" {
		ks[2] = keyOf(3, k.Sound)
	}
	return ks
}

// pieceFindKeys returns the keys a record word t looks pieces up by at
// fuzzy: a legal form or a word with digits pairs with a piece only when
// equal.
func pieceFindKeys(t string, fuzzy int) pieceKeys {
	k := engine.ScoredWordKeys(t)
	ks := pieceKeys{keyOf(1, t)}
	if k.Legal || k.Digit {
		return ks
	}
	if k.Class != 0 {
		ks[1] = classKey(k.Class)
	}
	if fuzzy > 0 && k.Sound != "" {
		ks[2] = keyOf(3, k.Sound)
	}
	return ks
}

// keyIndex holds values (S: dict ids, splits of customer words) under
// hashed keys (keyOf), in three arrays rather than a map of slices: keys
// are ascending and distinct; the values of keys[i] are
// sps[off[i]:off[i+1]]. A key that hashes like another only adds values,
// which the caller's comparison drops.
type keyIndex[S any] struct {
	keys []uint64
	off  []uint32
	sps  []S
}

// each calls fn with every value posted under key k.
func (pi *keyIndex[S]) each(k uint64, fn func(S)) {
	i, ok := slices.BinarySearch(pi.keys, k)
	if !ok {
		return
	}
	for _, sp := range pi.sps[pi.off[i]:pi.off[i+1]] {
		fn(sp)
	}
}

// find calls fn with every value posted under one of ks; a value may
// come more than once.
func (pi *keyIndex[S]) find(ks pieceKeys, fn func(S)) {
	for _, k := range ks {
		if k != 0 {
			pi.each(k, fn)
		}
	}
}

// keyedSplit is a value and a key it is posted under, while an index is
// built.
type keyedSplit[S any] struct {
	key uint64
	sp  S
}

// newKeyIndex returns the index of entries, which it sorts.
func newKeyIndex[S any](entries []keyedSplit[S]) keyIndex[S] {
	slices.SortFunc(entries, func(a, b keyedSplit[S]) int { return cmp.Compare(a.key, b.key) })
	pi := keyIndex[S]{sps: make([]S, len(entries))}
	for i, e := range entries {
		if i == 0 || e.key != entries[i-1].key {
			pi.keys = append(pi.keys, e.key)
			pi.off = append(pi.off, uint32(i))
		}
		pi.sps[i] = e.sp
	}
	pi.off = append(pi.off, uint32(len(entries)))
	pi.keys, pi.off = slices.Clip(pi.keys), slices.Clip(pi.off)
	return pi
}

// buildPieces indexes the splits in two and in three pieces of the
// customer words words (dict ids; token returns their text) at fuzzy. Each
// split is posted under the keys of its rarest piece only: the piece
// whose keys the fewest pieces of all the splits share, so that a common
// piece (al, ab, ma) does not make a record word reach every split
// starting with it. A pair or three adjacent record words look each of
// their words up among the splits anchored at its position, and a split
// pairs with them only when every piece pairs, its anchor included: none
// is lost.
func buildPieces(words []uint32, token func(uint32) string, fuzzy int) (two [2]keyIndex[wordSplit], three [3]keyIndex[wordSplit3]) {
	keys := map[string]pieceKeys{}
	keysOf := func(p string) pieceKeys {
		ks, ok := keys[p]
		if !ok {
			ks = piecePostKeys(p, fuzzy)
			keys[p] = ks
		}
		return ks
	}
	count2, count3 := map[uint64]int32{}, map[uint64]int32{}
	note := func(count map[uint64]int32, ks pieceKeys) {
		for _, k := range ks {
			if k != 0 {
				count[k]++
			}
		}
	}
	for _, id := range words {
		w := token(id)
		engine.ScoredSplits(w, func(a, b string) { note(count2, keysOf(a)); note(count2, keysOf(b)) })
		engine.ScoredSplits3(w, func(a, b, c string) {
			note(count3, keysOf(a))
			note(count3, keysOf(b))
			note(count3, keysOf(c))
		})
	}
	cost := func(count map[uint64]int32, ks pieceKeys) int32 {
		var n int32
		for _, k := range ks {
			if k != 0 {
				n += count[k]
			}
		}
		return n
	}
	// rarest returns the number of the piece of pieces with the least cost.
	rarest := func(count map[uint64]int32, pieces ...pieceKeys) int {
		at, least := 0, int32(-1)
		for i, ks := range pieces {
			if c := cost(count, ks); least < 0 || c < least {
				at, least = i, c
			}
		}
		return at
	}
	var e2 [2][]keyedSplit[wordSplit]
	var e3 [3][]keyedSplit[wordSplit3]
	for _, id := range words {
		w := token(id)
		engine.ScoredSplits(w, func(a, b string) {
			ka, kb := keysOf(a), keysOf(b)
			p := rarest(count2, ka, kb)
			ks := [2]pieceKeys{ka, kb}[p]
			for _, k := range ks {
				if k != 0 {
					e2[p] = append(e2[p], keyedSplit[wordSplit]{k, wordSplit{id, uint32(len(a))}})
				}
			}
		})
		engine.ScoredSplits3(w, func(a, b, c string) {
			ka, kb, kc := keysOf(a), keysOf(b), keysOf(c)
			p := rarest(count3, ka, kb, kc)
			ks := [3]pieceKeys{ka, kb, kc}[p]
			for _, k := range ks {
				if k != 0 {
					e3[p] = append(e3[p], keyedSplit[wordSplit3]{k, wordSplit3{id, uint32(len(a)), uint32(len(a) + len(b))}})
				}
			}
		})
	}
	for p := range two {
		two[p] = newKeyIndex(e2[p])
	}
	for p := range three {
		three[p] = newKeyIndex(e3[p])
	}
	return two, three
}
