package monitor

import (
	"strings"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
)

// tokenDict is the dictionary of every token of every profile's query, with
// a bigram index for fuzzy look-ups. It runs the engine's index backwards:
// there the query token is looked up among record tokens, here a changed
// record's tokens are looked up among profile tokens. Distances are
// symmetric, so the same bound finds the same pairs.
type tokenDict struct {
	ids   map[string]uint32
	toks  []string
	runes []uint8 // rune length, capped at 255
	// rr holds each fuzzy-matchable token as runes, so that verifying a
	// candidate converts nothing.
	rr [][]rune
	// capEdits is the most edits the fuzzy_search of any profile holding
	// the token allows it (never more than the length cap: 0 for 1–2
	// runes and legal forms, 1 for 3–5, 2 for longer).
	capEdits []uint8
	// grams maps a padded bigram and a token length to the tokens of that
	// length holding it; byLen lists tokens by length, for look-ups too
	// short to filter on bigrams.
	grams map[uint64][]uint32
	byLen [][]uint32
}

func newTokenDict() *tokenDict {
	return &tokenDict{ids: map[string]uint32{}, grams: map[uint64][]uint32{}}
}

// intern returns the id of tok, adding it when new.
func (d *tokenDict) intern(tok string) uint32 {
	if id, ok := d.ids[tok]; ok {
		return id
	}
	id := uint32(len(d.toks))
	d.ids[tok] = id
	d.toks = append(d.toks, tok)
	d.runes = append(d.runes, uint8(min(255, utf8.RuneCountInString(tok))))
	d.capEdits = append(d.capEdits, 0)
	d.rr = append(d.rr, nil)
	return id
}

// allowFuzzy records that a profile with fuzzy_search f holds token id:
// the token may now pair within min(f, cap) edits, and the first time it
// may pair fuzzily at all it joins the bigram index. Tokens of exact
// profiles stay out of it, so their look-ups cost a map access.
func (d *tokenDict) allowFuzzy(id uint32, f int) {
	tok := d.toks[id]
	c := uint8(engine.MaxEdits(f, tok)) // 0 for legal forms and short tokens
	if c <= d.capEdits[id] {
		return
	}
	first := d.capEdits[id] == 0
	d.capEdits[id] = c
	if !first {
		return
	}
	n := int(d.runes[id])
	for len(d.byLen) <= n {
		d.byLen = append(d.byLen, nil)
	}
	d.byLen[n] = append(d.byLen[n], id)
	d.rr[id] = []rune(tok)
	forEachGram(tok, func(a, b rune) {
		k := gramKey(a, b, n)
		l := d.grams[k]
		if len(l) == 0 || l[len(l)-1] != id {
			d.grams[k] = append(l, id)
		}
	})
}

// Sentinels past the last code point pad a token for its bigrams.
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

// hit is a profile token a record token may pair with, and their distance.
type hit struct {
	tok  uint32
	dist uint8
}

// lookupScratch is one goroutine's counters for lookup.
type lookupScratch struct {
	n       []uint16
	touched []uint32
	qr      []rune
}

// lookup appends to dst every profile token within radius edits of q that
// some fuzzy_search could pair with it (distance at most the token's
// capEdits), q itself included when present. An edit destroys at most two
// of q's padded bigrams, so a candidate within r edits shares at least
// distinct(q) − 2r of them; r is taken per candidate length (short tokens
// allow fewer edits, so their filter is tighter), and survivors are
// verified with a bounded Levenshtein distance.
func (d *tokenDict) lookup(dst []hit, q string, radius int, s *lookupScratch) []hit {
	if id, ok := d.ids[q]; ok {
		dst = append(dst, hit{tok: id})
	}
	if radius == 0 || normalize.IsLegalForm(q) {
		return dst
	}
	if len(s.n) < len(d.toks) {
		s.n = make([]uint16, len(d.toks))
	}
	s.qr = append(s.qr[:0], []rune(q)...)
	L := len(s.qr)
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
	verify := func(id uint32, r int) {
		if d.toks[id] == q {
			return // already added as the exact hit
		}
		r = min(r, int(d.capEdits[id]))
		if r == 0 {
			return
		}
		if dist := engine.BoundedDistance(s.qr, d.rr[id], r); dist <= r {
			dst = append(dst, hit{tok: id, dist: uint8(dist)})
		}
	}
	for l := max(1, L-radius); l <= L+radius && l < len(d.byLen); l++ {
		// A token of l runes pairs within min(radius, cap(l)) edits.
		r := min(radius, capByLen[min(l, len(capByLen)-1)])
		if r == 0 || abs(l-L) > r {
			continue
		}
		threshold := len(grams) - 2*r
		if threshold <= 0 {
			for _, id := range d.byLen[l] {
				verify(id, r)
			}
			continue
		}
		s.touched = s.touched[:0]
		for _, g := range grams {
			for _, id := range d.grams[gramKey(g[0], g[1], l)] {
				if s.n[id] == 0 {
					s.touched = append(s.touched, id)
				}
				s.n[id]++
			}
		}
		for _, id := range s.touched {
			if int(s.n[id]) >= threshold {
				verify(id, r)
			}
			s.n[id] = 0
		}
	}
	return dst
}

// capByLen is the engine's length cap on edits by token length in runes,
// taken from the engine rather than restated.
var capByLen = func() []int {
	c := make([]int, 16)
	for l := range c {
		c[l] = engine.MaxEdits(2, strings.Repeat("x", l))
	}
	return c
}()

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
