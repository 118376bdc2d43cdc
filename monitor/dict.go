package monitor

import (
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
)

// tokenDict is the dictionary of every token of every profile's query, with
// the bigram index of package dict for fuzzy look-ups. It runs the engine's
// index backwards: there the query token is looked up among record tokens,
// here a changed record's tokens are looked up among profile tokens.
// Distances are symmetric, so the same bound finds the same pairs.
type tokenDict struct {
	*dict.Dict
	// capEdits is the most edits the fuzzy_search of any profile holding
	// the token allows it (never more than the length cap: 0 for 1–2
	// runes and legal forms, 1 for 3–5, 2 for longer).
	capEdits []uint8
}

func newTokenDict() *tokenDict { return &tokenDict{Dict: dict.New()} }

// intern returns the id of tok, adding it when new.
func (d *tokenDict) intern(tok string) uint32 {
	id := d.Intern(tok)
	for len(d.capEdits) <= int(id) {
		d.capEdits = append(d.capEdits, 0)
	}
	return id
}

// allowFuzzy records that a profile with fuzzy_search f holds token id:
// the token may now pair within min(f, cap) edits, and the first time it
// may pair fuzzily at all it joins the bigram index. Tokens of exact
// profiles stay out of it, so their look-ups cost a map access.
func (d *tokenDict) allowFuzzy(id uint32, f int) {
	c := uint8(engine.MaxEdits(f, d.Token(id))) // 0 for legal forms and short tokens
	if c <= d.capEdits[id] {
		return
	}
	d.capEdits[id] = c
	d.Index(id)
}

// hit is a profile token a record token may pair with, and their distance.
type hit struct {
	tok  uint32
	dist uint8
}

// lookup appends to dst every profile token within radius edits of q that
// some fuzzy_search could pair with it (distance at most the token's
// capEdits), q itself included when present.
func (d *tokenDict) lookup(dst []hit, q string, radius int) []hit {
	exact, ok := d.ID(q)
	if ok {
		dst = append(dst, hit{tok: exact})
	}
	// A pair's edits are capped by the shorter token's length, so q's own
	// cap bounds the search (and keeps the bigram filter tight).
	radius = engine.MaxEdits(radius, q) // 0 for legal forms
	if radius == 0 {
		return dst
	}
	d.Lookup(q, radius, func(id uint32, dist int) {
		if dist > 0 && dist <= int(d.capEdits[id]) {
			dst = append(dst, hit{tok: id, dist: uint8(dist)})
		}
	})
	return dst
}
