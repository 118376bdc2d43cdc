package book

import (
	"runtime"
	"slices"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// scoredReverse is the reverse index of a book in scored mode: the words
// of each customer's scored check, posted under the keys scored mode pairs
// words by (engine.WordKeys: the word itself, its variant class, its
// sound key and consonant skeleton, the n-grams of the edit look-up), with
// each adjacent pair of words joined (Ali Akbar against Aliakbar) and the
// pieces of each word split (Aliakbar against Ali Akbar). It holds no word
// statistics, so it lasts as long as the book: which words of a customer
// a hit cannot do without (engine.ScoredStats.Essential) is asked of the
// serving index at each change set.
//
// A changed record finds the customers one of whose words, joined pairs
// or pieces may pair with one of its words; a customer is scored against
// it only when such a word is essential. Every scored hit pairs an
// essential word of its query with a word of the record, so no match is
// lost (TestScoredCandidatesLoseNoMatch checks it against scoring every
// customer).
type scoredReverse struct {
	n, fuzzy int
	d        *dict.Dict // customer words and joined pairs; the edit look-up
	// words: the dict ids of each customer's two token lists (raw, then
	// legal), from off[2i] to off[2i+1] and off[2i+1] to off[2i+2]. A
	// customer whose check cannot be made has none (bad).
	words []uint32
	off   []uint32
	bad   []int32
	// post: dict id -> entries (entry), for words and joined pairs.
	post  [][]uint32
	class map[int32][]uint32 // variant class -> dict ids
	sound map[string][]uint32
	skel  map[string][]uint32
	// Pieces of split words, by the keys a piece pairs by, to the dict
	// ids of the whole words.
	pieceText  map[string][]uint32
	pieceClass map[int32][]uint32
	pieceSound map[string][]uint32
}

// An entry of a posting list: the customer, whether the word is of its
// legal list, whether it is a joined pair, and the position of the
// (first) word.
const (
	entryPos    = 0x1f
	entryLegal  = 1 << 5
	entryJoined = 1 << 6
	entryShift  = 7
)

// newScoredReverse indexes the customers' scored checks as sc builds
// them.
func newScoredReverse(customers []Customer, sc *batch.Screener) *scoredReverse {
	workers := max(1, runtime.GOMAXPROCS(0))
	type lists struct {
		raw, legal []string
		ok         bool
	}
	ls := make([]lists, len(customers))
	parallel(len(customers), workers, func(i int) {
		q, rej := sc.Query(customers[i].Row())
		if rej != nil {
			return
		}
		raw, legal, err := engine.ScoredWords(q)
		if err != nil {
			return
		}
		ls[i] = lists{raw: raw, legal: legal, ok: true}
	})
	rv := &scoredReverse{n: len(customers), fuzzy: sc.Fuzzy, d: dict.New(),
		class: map[int32][]uint32{}, sound: map[string][]uint32{}, skel: map[string][]uint32{},
		pieceText: map[string][]uint32{}, pieceClass: map[int32][]uint32{}, pieceSound: map[string][]uint32{},
		off: make([]uint32, 0, 2*len(customers)+1)}
	d := rv.d
	// intern adds a word or joined pair the first time it is seen, with
	// its keys; a word's pieces the first time it is seen as a word.
	var split []bool
	intern := func(w string, joined bool) uint32 {
		n := d.Len()
		id := d.Intern(w)
		if d.Len() > n {
			rv.post = append(rv.post, nil)
			split = append(split, false)
			rv.key(id, w)
		}
		if !joined && !split[id] {
			split[id] = true
			engine.ScoredSplits(w, func(a, _ string) {
				rv.pieceText[a] = append(rv.pieceText[a], id)
				pk := engine.ScoredWordKeys(a)
				if pk.Class != 0 {
					rv.pieceClass[pk.Class] = append(rv.pieceClass[pk.Class], id)
				}
				if rv.fuzzy > 0 && pk.Sound != "" {
					rv.pieceSound[pk.Sound] = append(rv.pieceSound[pk.Sound], id)
				}
			})
		}
		return id
	}
	for i := range ls {
		rv.off = append(rv.off, uint32(len(rv.words)))
		if !ls[i].ok {
			rv.bad = append(rv.bad, int32(i))
			rv.off = append(rv.off, uint32(len(rv.words)))
			continue
		}
		post := func(list []string, flag uint32) {
			for j, w := range list {
				id := intern(w, false)
				rv.words = append(rv.words, id)
				e := uint32(i)<<entryShift | flag | uint32(j)
				if p := rv.post[id]; len(p) == 0 || p[len(p)-1] != e {
					rv.post[id] = append(p, e)
				}
				if j+1 < len(list) {
					a, b := engine.ScoredWordKeys(w), engine.ScoredWordKeys(list[j+1])
					if !a.Optional && !b.Optional {
						jid := intern(w+list[j+1], true)
						rv.post[jid] = append(rv.post[jid], e|entryJoined)
					}
				}
			}
		}
		post(ls[i].raw, 0)
		rv.off = append(rv.off, uint32(len(rv.words)))
		if !slices.Equal(ls[i].raw, ls[i].legal) {
			post(ls[i].legal, entryLegal)
		}
		ls[i] = lists{}
	}
	rv.off = append(rv.off, uint32(len(rv.words)))
	return rv
}

// key posts dict id, word w, under its pairing keys.
func (rv *scoredReverse) key(id uint32, w string) {
	k := engine.ScoredWordKeys(w)
	if k.Legal {
		return
	}
	if k.Class != 0 {
		rv.class[k.Class] = append(rv.class[k.Class], id)
	}
	if rv.fuzzy == 0 {
		return
	}
	rv.d.Index(id)
	if k.Sound != "" {
		rv.sound[k.Sound] = append(rv.sound[k.Sound], id)
	}
	if k.Skel != "" {
		rv.skel[k.Skel] = append(rv.skel[k.Skel], id)
	}
}

// customerWords returns the token list (legal or raw) of customer i.
func (rv *scoredReverse) customerWords(i int, legal bool) []string {
	lo, hi := rv.off[2*i], rv.off[2*i+1]
	if legal {
		lo, hi = rv.off[2*i+1], rv.off[2*i+2]
		if lo == hi {
			return rv.customerWords(i, false)
		}
	}
	out := make([]string, 0, hi-lo)
	for _, id := range rv.words[lo:hi] {
		out = append(out, rv.d.Token(id))
	}
	return out
}

// scoredPairs returns, for each customer that may score a hit against one
// of the changed records under the word statistics st, the records to
// score it against (indices into changed, ascending), by customer index,
// ascending. minScore is the books' threshold (0: the default).
func (rv *scoredReverse) scoredPairs(changed []*record.Record, st *engine.ScoredStats, minScore float64) (custs []int32, recs [][]int32) {
	workers := max(1, runtime.GOMAXPROCS(0))
	d, fuzzy := rv.d, rv.fuzzy
	// The changed records' distinct words, and the records holding each.
	tokID := map[string]int32{}
	var toks []string
	var holders [][]int32
	for ri, r := range changed {
		legal := r.EntityType != record.EntityIndividual
		for _, ns := range engine.NameStrings(r) {
			for _, t := range normalize.RecordName(ns.Text, legal).Tokens {
				id, ok := tokID[t]
				if !ok {
					id = int32(len(toks))
					tokID[t] = id
					toks = append(toks, t)
					holders = append(holders, nil)
				}
				if h := holders[id]; len(h) == 0 || h[len(h)-1] != int32(ri) {
					holders[id] = append(h, int32(ri))
				}
			}
		}
	}
	// The customer words (dict ids) each record word may pair with.
	partners := make([][]uint32, len(toks))
	parallel(len(toks), workers, func(i int) {
		t := toks[i]
		in := map[uint32]bool{}      // found
		checked := map[uint32]bool{} // related (or not) as a word
		var found []uint32
		try := func(id uint32, check bool) {
			if in[id] {
				return
			}
			if check {
				if checked[id] {
					return
				}
				checked[id] = true
				if !engine.ScoredRelated(d.Token(id), t, fuzzy) {
					return
				}
			}
			in[id] = true
			found = append(found, id)
		}
		if id, ok := d.ID(t); ok {
			try(id, false)
		}
		k := engine.ScoredWordKeys(t)
		if !k.Legal {
			if k.Class != 0 {
				for _, id := range rv.class[k.Class] {
					try(id, true)
				}
			}
			if fuzzy > 0 {
				d.Lookup(t, fuzzy, func(id uint32, _ int) { try(id, true) })
				if k.Sound != "" {
					for _, id := range rv.sound[k.Sound] {
						try(id, true)
					}
				}
				if k.Skel != "" {
					for _, id := range rv.skel[k.Skel] {
						try(id, true)
					}
				}
			}
		}
		// A record word may pair with a piece of a customer's word:
		// equal, of one class, or (fuzzy) of one sound.
		pieces := rv.pieceText[t]
		if !k.Legal && !k.Digit {
			if k.Class != 0 {
				pieces = append(slices.Clip(pieces), rv.pieceClass[k.Class]...)
			}
			if fuzzy > 0 && k.Sound != "" {
				pieces = append(slices.Clip(pieces), rv.pieceSound[k.Sound]...)
			}
		}
		for _, id := range pieces {
			try(id, false)
		}
		partners[i] = found
	})
	// The records each customer word is reached by.
	reach := map[uint32][]int32{}
	for i, ps := range partners {
		for _, id := range ps {
			reach[id] = append(reach[id], holders[i]...)
		}
	}
	ids := make([]uint32, 0, len(reach))
	for id, rs := range reach {
		slices.Sort(rs)
		reach[id] = slices.Compact(rs)
		ids = append(ids, id)
	}
	slices.Sort(ids)
	// The customers those words reach, and which of their words are
	// essential under st, asked once per customer.
	const (
		unseen = iota
		todo
		done
	)
	state := make([]uint8, rv.n)
	var touched []int32
	for _, id := range ids {
		for _, e := range rv.post[id] {
			if c := e >> entryShift; state[c] == unseen {
				state[c] = todo
				touched = append(touched, int32(c))
			}
		}
	}
	masks := make([][2]uint64, rv.n)
	parallel(len(touched), workers, func(k int) {
		c := int(touched[k])
		masks[c][0] = st.Essential(rv.customerWords(c, false), minScore)
		masks[c][1] = st.Essential(rv.customerWords(c, true), minScore)
	})
	// Each customer with the records that reach one of its essential
	// words.
	type pair struct{ cust, rec int32 }
	var pairs []pair
	for _, id := range ids {
		rs := reach[id]
		for _, e := range rv.post[id] {
			c := e >> entryShift
			m := masks[c][0]
			if e&entryLegal != 0 {
				m = masks[c][1]
			}
			bits := uint64(1) << (e & entryPos)
			if e&entryJoined != 0 {
				bits |= bits << 1
			}
			if m&bits == 0 {
				continue
			}
			for _, r := range rs {
				pairs = append(pairs, pair{int32(c), r})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.cust != b.cust {
			return int(a.cust - b.cust)
		}
		return int(a.rec - b.rec)
	})
	pairs = slices.Compact(pairs)
	for i := 0; i < len(pairs); {
		k := i
		var rs []int32
		for ; k < len(pairs) && pairs[k].cust == pairs[i].cust; k++ {
			rs = append(rs, pairs[k].rec)
		}
		custs, recs = append(custs, pairs[i].cust), append(recs, rs)
		i = k
	}
	return custs, recs
}
