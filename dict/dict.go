// Package dict is a token dictionary with a bigram index for fuzzy
// look-ups: every distinct token gets a compact id, and the tokens within a
// few edits of a query token are found without comparing it to every
// token. The engine (record tokens), monitoring (profile tokens) and the
// media index (article terms) each keep one.
package dict

import (
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"
)

// Dict is the dictionary. Tokens are interned with Intern; those that may
// pair fuzzily are added to the bigram index with Index. Look-ups may run
// concurrently with each other, not with Intern or Index.
type Dict struct {
	ids   map[string]uint32
	toks  []string
	runes []uint8 // rune length, capped at 255
	// letters has bit r%64 set for every rune r of the token: a cheap
	// lossless test before Distance (see letterBound).
	letters []uint64
	// indexed marks the tokens in grams and byLen.
	indexed []bool
	// grams maps a padded bigram and a token length to the ids of the name
	// tokens of that length holding the bigram. Keying by length too means
	// a look-up reads only the lengths within its edit radius.
	grams map[uint64][]uint32
	byLen [][]uint32 // indexed token ids by rune length
	// counters holds *counters, one look-up's scratch, so that concurrent
	// look-ups need no lock.
	counters sync.Pool
}

// New returns an empty dictionary.
func New() *Dict {
	return &Dict{ids: make(map[string]uint32), grams: make(map[uint64][]uint32)}
}

// Len returns the number of tokens.
func (d *Dict) Len() int { return len(d.toks) }

// ID returns the id of tok, if it is in the dictionary.
func (d *Dict) ID(tok string) (uint32, bool) {
	id, ok := d.ids[tok]
	return id, ok
}

// Token returns the token of id.
func (d *Dict) Token(id uint32) string { return d.toks[id] }

// Runes returns the length of token id in runes, capped at 255.
func (d *Dict) Runes(id uint32) int { return int(d.runes[id]) }

// Indexed reports whether token id is in the bigram index.
func (d *Dict) Indexed(id uint32) bool { return d.indexed[id] }

// Intern returns the id of tok, adding it when new.
func (d *Dict) Intern(tok string) uint32 {
	if id, ok := d.ids[tok]; ok {
		return id
	}
	// A token may be a substring of a record's text: keep a copy of its
	// own, so the dictionary does not pin the record's memory.
	tok = strings.Clone(tok)
	id := uint32(len(d.toks))
	d.ids[tok] = id
	d.toks = append(d.toks, tok)
	d.runes = append(d.runes, uint8(min(255, utf8.RuneCountInString(tok))))
	d.letters = append(d.letters, letterMask(tok))
	d.indexed = append(d.indexed, false)
	return id
}

// Sentinel runes pad a token for its bigrams: they lie just past the last
// Unicode code point, so no text contains them.
const (
	padStart = rune(0x110001)
	padEnd   = rune(0x110002)
)

func gramKey(a, b rune, length int) uint64 {
	return uint64(a)<<29 | uint64(b)<<8 | uint64(min(length, 255))
}

// Index adds token id to the bigram index, once: Lookup finds only indexed
// tokens.
func (d *Dict) Index(id uint32) {
	if d.indexed[id] {
		return
	}
	d.indexed[id] = true
	n := int(d.runes[id])
	for len(d.byLen) <= n {
		d.byLen = append(d.byLen, nil)
	}
	d.byLen[n] = append(d.byLen[n], id)
	forEachGram(d.toks[id], func(a, b rune) {
		k := gramKey(a, b, n)
		l := d.grams[k]
		// A token with a repeated bigram is listed once per bigram.
		if len(l) == 0 || l[len(l)-1] != id {
			d.grams[k] = append(l, id)
		}
	})
}

// forEachGram calls fn for every padded bigram of s, in order, repeats
// included.
func forEachGram(s string, fn func(a, b rune)) {
	prev := padStart
	for _, r := range s {
		fn(prev, r)
		prev = r
	}
	fn(prev, padEnd)
}

// letterMask sets bit r%64 for every rune r of s.
func letterMask(s string) uint64 {
	var m uint64
	for _, r := range s {
		m |= 1 << (uint(r) & 63)
	}
	return m
}

// letterBound reports whether tokens with letter masks a and b can be
// within radius edits. An insertion, deletion or substitution makes at
// most one rune of a string disappear from it, and a swap none, so at most
// radius distinct runes of one token are missing from a token within
// radius edits; each mask bit that only one of them sets stands for at
// least one such rune. (Runes sharing a bit only make the test pass more
// often, never fail wrongly.)
func letterBound(a, b uint64, radius int) bool {
	return bits.OnesCount64(a&^b) <= radius && bits.OnesCount64(b&^a) <= radius
}

// maxGramsLost is the most padded-bigram occurrences one edit destroys: a
// swap of two adjacent runes (see Lookup).
const maxGramsLost = 3

// gramsLost is the most distinct padded bigrams of a query that tokens
// within radius edits of it and delta runes longer (shorter when delta is
// negative) may lack: the threshold of Lookup at each token length. The
// length fixes how the edits split: delta > 0 takes delta insertions (one
// bigram lost each) and leaves radius − delta edits of any kind (a swap
// loses three), 3·radius − 2·delta in all; delta < 0 takes −delta deletions
// (two each) and leaves radius + delta, 3·radius + delta. At delta 0 it is
// maxGramsLost·radius, the bound of every length before.
func gramsLost(radius, delta int) int {
	if delta >= 0 {
		return maxGramsLost*radius - 2*delta
	}
	return maxGramsLost*radius + delta
}

// counters is scratch space for one look-up: a hit count per token id and
// the ids touched, so that resetting costs only what was used.
type counters struct {
	n       []uint16
	touched []uint32
	runes   [2][]rune
	cursors []int
}

// Lookup calls fn for every indexed token within radius edits of q (q
// itself included when it is indexed), with its distance. Edits are those
// of Distance: insertions, deletions, substitutions and swaps of two
// adjacent runes.
//
// Candidates come from the bigram index, and the filter is lossless. Pad q
// with a start and an end sentinel; its padded bigrams are the pairs of
// neighbouring runes, len(q)+1 occurrences. One edit destroys at most three
// of those occurrences and leaves every other one in place:
//
//   - an insertion between x and y destroys the occurrence (x, y): 1;
//   - a deletion of y in x y z destroys (x, y) and (y, z): 2;
//   - a substitution of y in x y z destroys (x, y) and (y, z): 2;
//   - a swap of y and z in x y z w destroys (x, y), (y, z) and (z, w): 3.
//
// (The occurrences it creates can only help.) A distinct bigram of q is
// missing from a token t only when every one of its occurrences was
// destroyed on the way from q to t, so at most 3r distinct bigrams of q are
// missing from a token within r edits: it shares at least
// distinct(q) − 3r of them. A token of another length than q needs some
// insertions or deletions among its edits, which lose fewer, so each
// length has its own threshold (gramsLost). Tokens sharing fewer are never
// within radius; survivors are checked with letterBound, then verified
// with Distance.
func (d *Dict) Lookup(q string, radius int, fn func(id uint32, dist int)) {
	if radius == 0 {
		if id, ok := d.ids[q]; ok && d.indexed[id] {
			fn(id, 0)
		}
		return
	}
	lookup(q, radius, len(d.toks), &d.counters, func(key uint64, _ *int) []uint32 { return d.grams[key] },
		func(l int) []uint32 {
			if l < len(d.byLen) {
				return d.byLen[l]
			}
			return nil
		},
		func(id uint32) (string, uint64) { return d.toks[id], d.letters[id] }, fn)
}

// lookup is the fuzzy look-up of Lookup over any form of the bigram index
// (Dict's maps, Frozen's sorted arrays), so that both apply one rule:
// grams returns the ids of the indexed tokens of a (bigram, length) key,
// ascending; byLen the indexed tokens of a rune length; token a token's
// text and letter mask. n is the number of tokens (ids are below it).
// grams is asked for the keys of each bigram in rising order of length,
// with a cursor of that bigram's own (0 at first) that it may use to
// resume where its last answer for the bigram was.
func lookup(q string, radius, n int, pool *sync.Pool, grams func(key uint64, cursor *int) []uint32, byLen func(l int) []uint32,
	token func(id uint32) (string, uint64), fn func(id uint32, dist int)) {
	c, _ := pool.Get().(*counters)
	if c == nil {
		c = new(counters)
	}
	defer pool.Put(c)
	if len(c.n) < n {
		c.n = make([]uint16, n+n/4)
	}
	c.runes[0] = append(c.runes[0][:0], []rune(q)...)
	qr := c.runes[0]
	L := len(qr)

	// Distinct bigrams of q.
	var gramBuf [64][2]rune
	gs := gramBuf[:0]
	forEachGram(q, func(a, b rune) {
		for _, g := range gs {
			if g[0] == a && g[1] == b {
				return
			}
		}
		gs = append(gs, [2]rune{a, b})
	})
	c.cursors = c.cursors[:0]
	for range gs {
		c.cursors = append(c.cursors, 0)
	}

	qLetters := letterMask(q)
	verify := func(id uint32) {
		tok, letters := token(id)
		if !letterBound(qLetters, letters, radius) {
			return
		}
		c.runes[1] = append(c.runes[1][:0], []rune(tok)...)
		if dist := Distance(qr, c.runes[1], radius); dist <= radius {
			fn(id, dist)
		}
	}
	for l := max(1, L-radius); l <= L+radius; l++ {
		threshold := len(gs) - gramsLost(radius, l-L)
		if threshold <= 0 {
			// Too few bigrams to filter on: verify every token of the length.
			for _, id := range byLen(l) {
				verify(id)
			}
			continue
		}
		c.touched = c.touched[:0]
		for gi, g := range gs {
			for _, id := range grams(gramKey(g[0], g[1], l), &c.cursors[gi]) {
				if c.n[id] == 0 {
					c.touched = append(c.touched, id)
				}
				c.n[id]++
			}
		}
		for _, id := range c.touched {
			if int(c.n[id]) >= threshold {
				verify(id)
			}
			c.n[id] = 0
		}
	}
}

// Distance returns the edit distance of a and b (in runes) when it is at
// most max, and max+1 otherwise. The distance is Damerau–Levenshtein in its
// optimal-string-alignment form (docs/MATCHING.md "Name matching"): an
// insertion, a deletion, a substitution or a swap of two adjacent runes is
// one edit, and no rune is edited twice ("schmitd"→"schmidt" is 1,
// "schmtid"→"schmidt" is 2), as Elasticsearch's fuzzy queries count.
//
// Only a band of width 2·max+1 of the dynamic-programming matrix is
// computed, three rows of it at a time, and it stops as soon as a whole row
// of the band exceeds max: a swap reaches back two rows, but a cell two
// rows up plus one edit is never below the diagonal cell it would skip
// (a substitution costs at most one edit too), so no later row can come
// back under max. It allocates nothing for tokens of up to 63 runes.
func Distance(a, b []rune, max int) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > max {
		return max + 1
	}
	if max == 0 {
		for i := range a {
			if a[i] != b[i] {
				return 1
			}
		}
		return 0
	}
	var buf [3][64]int
	var prev2, prev, cur []int
	if len(b)+1 <= 64 {
		prev2, prev, cur = buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	} else {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	big := max + 1
	for j := range prev {
		prev[j] = min(j, big)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := i-max, i+max
		if lo < 1 {
			lo = 1
		}
		if hi > len(b) {
			hi = len(b)
		}
		if lo > 1 {
			cur[lo-1] = big
		} else {
			cur[0] = min(i, big)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost
			if u := prev[j] + 1; u < v && j <= i-1+max {
				v = u
			}
			if l := cur[j-1] + 1; l < v {
				v = l
			}
			// A swap: a[i-2] a[i-1] against b[j-1] b[j-2]. Row i-2's band
			// holds column j-2 whenever row i's holds j.
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				if t := prev2[j-2] + 1; t < v {
					v = t
				}
			}
			if v > big {
				v = big
			}
			cur[j] = v
			if v < rowMin {
				rowMin = v
			}
		}
		if hi < len(b) {
			cur[hi+1] = big
		}
		if rowMin > max {
			return big
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(b)] > max {
		return big
	}
	return prev[len(b)]
}

// EditDistance is Distance without a bound, written out plainly over the
// whole matrix: the rule for code that counts edits outside a look-up
// (reference matchers, quality benchmarks, typo generators). It allocates.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
