package media

import (
	"sync"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
)

// vocab is an n-gram index over the corpus's terms, for fuzzy look-ups: the
// terms within a few edits of a query token are found without comparing it
// to every term. It follows the engine's dictionary: an edit destroys at
// most two of a token's padded bigrams, so a term within r edits shares at
// least distinct(q) − 2r of them; survivors are verified with a bounded
// Levenshtein distance. Legal-form tokens are left out: they pair exactly.
type vocab struct {
	terms []string
	runes []uint8 // rune length, capped at 255
	byLen [][]uint32
	grams map[uint64][]uint32
	// scratch holds *[]uint16, bigram hits per term for one look-up, so
	// that concurrent look-ups need no lock.
	scratch sync.Pool
}

func newVocab() *vocab { return &vocab{grams: make(map[uint64][]uint32)} }

const (
	padStart = rune(0x110001)
	padEnd   = rune(0x110002)
)

func gramKey(a, b rune, length int) uint64 {
	return uint64(a)<<29 | uint64(b)<<8 | uint64(min(length, 255))
}

func forEachGram(s string, fn func(a, b rune)) {
	prev := padStart
	for _, r := range s {
		fn(prev, r)
		prev = r
	}
	fn(prev, padEnd)
}

// add indexes a term the vocabulary does not hold yet.
func (v *vocab) add(t string) {
	if normalize.IsLegalForm(t) {
		return
	}
	id := uint32(len(v.terms))
	n := min(255, utf8.RuneCountInString(t))
	v.terms = append(v.terms, t)
	v.runes = append(v.runes, uint8(n))
	for len(v.byLen) <= n {
		v.byLen = append(v.byLen, nil)
	}
	v.byLen[n] = append(v.byLen[n], id)
	forEachGram(t, func(a, b rune) {
		k := gramKey(a, b, n)
		l := v.grams[k]
		if len(l) == 0 || l[len(l)-1] != id {
			v.grams[k] = append(l, id)
		}
	})
}

// lookup calls fn for every term that query token q may pair with under
// fuzzy_search=fuzzy (engine.AllowedEdits), q itself excluded. Look-ups
// may run concurrently with each other, not with add.
func (v *vocab) lookup(q string, fuzzy int, fn func(term string)) {
	radius := engine.MaxEdits(fuzzy, q)
	if radius == 0 {
		return
	}
	sp, _ := v.scratch.Get().(*[]uint16)
	if sp == nil {
		sp = new([]uint16)
	}
	defer v.scratch.Put(sp)
	if len(*sp) < len(v.terms) {
		*sp = make([]uint16, len(v.terms)+len(v.terms)/4)
	}
	count := *sp
	qr := []rune(q)
	L := len(qr)
	var gramBuf [64][2]rune
	grams := gramBuf[:0]
	forEachGram(q, func(a, b rune) {
		for _, g := range grams {
			if g[0] == a && g[1] == b {
				return
			}
		}
		grams = append(grams, [2]rune{a, b})
	})
	threshold := len(grams) - 2*radius
	var tr []rune
	verify := func(id uint32) {
		t := v.terms[id]
		if t == q {
			return
		}
		tr = append(tr[:0], []rune(t)...)
		allowed := engine.AllowedEdits(fuzzy, q, t)
		if allowed > 0 && engine.BoundedDistance(qr, tr, allowed) <= allowed {
			fn(t)
		}
	}
	var touched []uint32
	for l := max(1, L-radius); l <= L+radius; l++ {
		if threshold <= 0 {
			if l < len(v.byLen) {
				for _, id := range v.byLen[l] {
					verify(id)
				}
			}
			continue
		}
		touched = touched[:0]
		for _, g := range grams {
			for _, id := range v.grams[gramKey(g[0], g[1], l)] {
				if count[id] == 0 {
					touched = append(touched, id)
				}
				count[id]++
			}
		}
		for _, id := range touched {
			if int(count[id]) >= threshold {
				verify(id)
			}
			count[id] = 0
		}
	}
}
