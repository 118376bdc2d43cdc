package engine

import (
	"sync"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Brute is the reference matcher: it checks every record against the query
// with the rules written out as plainly as possible. It is the yardstick
// for Index in tests and benchmarks, not a production path. Records are
// tokenised once, up front, so that it measures matching without an index
// rather than tokenising.
type Brute struct {
	recs []bruteRecord
	// toks are the name tokens with the records holding each, for
	// scored mode.
	toks   []bruteToken
	df     map[string]int // toks by text, for the weights of a query's words
	dfOnce sync.Once
}

// bruteRecord is a record with its name strings and search_all bag
// tokenised.
type bruteRecord struct {
	rec   *record.Record
	names []bruteName
	bag   bag
}

type bruteName struct {
	NameString
	normalize.Name
}

func newBruteRecord(r *record.Record) bruteRecord {
	br := bruteRecord{rec: r, bag: recordBag(r)}
	legal := usesLegalForms(r.EntityType)
	for _, ns := range NameStrings(r) {
		br.names = append(br.names, bruteName{NameString: ns, Name: normalize.RecordName(ns.Text, legal)})
	}
	return br
}

// NewBrute returns a brute-force matcher over recs, which it shares.
func NewBrute(recs []*record.Record) *Brute {
	b := &Brute{recs: make([]bruteRecord, len(recs))}
	for i, r := range recs {
		b.recs[i] = newBruteRecord(r)
	}
	return b
}

// Search answers q by checking every record.
func (b *Brute) Search(q query.Query) (*Result, error) {
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	if c.Match == query.Scored {
		return b.searchScored(c), nil
	}
	res := &Result{}
	for i := range b.recs {
		br := &b.recs[i]
		if !passesFilters(c, br.rec) {
			continue
		}
		if m, ok := matchRecord(c, br); ok {
			res.Hits = append(res.Hits, m.hit(br.rec))
		}
	}
	res.Total = len(res.Hits)
	res.Hits = rankHits(res.Hits, c.limit)
	return res, nil
}

// passesFilters applies entity type, source, dob, gender and citizenship;
// scored mode weighs the last two instead.
func passesFilters(c *compiled, r *record.Record) bool {
	if !query.KindAllows(c.Kind, r.EntityType) {
		return false
	}
	if c.Sources != nil && !c.Sources[r.SourceID] {
		return false
	}
	if c.hasDOB && !query.DOBAllows(c.dob, r.DateOfBirth) {
		return false
	}
	if c.Match == query.Scored {
		return true // gender and citizenship are evidence (scored_evidence.go)
	}
	return query.GenderAllows(c.gender, r.Gender) && query.CitizenshipAllows(c.cit, r.Citizenship)
}

// Pair is one query token and the record token it was paired with.
type Pair struct {
	Query, Token string
	Edits        int
}

// Match explains how a record matched: the best name string and the pairs.
type Match struct {
	Field string // name string field, or "search_all"
	Text  string // the name string as written in the record
	score
	Pairs []Pair
}

func (m *Match) hit(r *record.Record) Hit {
	return Hit{ID: r.ID, Record: r, Exact: m.exact, Edits: m.edits, Extra: m.extra, Field: m.Field}
}

// Explain tells why r matches q (the best name string and the token pairs),
// for readable output; ok is false when it does not match by name, whatever
// the filters say.
func Explain(q query.Query, r *record.Record) (m Match, ok bool, err error) {
	c, err := compile(q)
	if err != nil {
		return Match{}, false, err
	}
	br := newBruteRecord(r)
	m, ok = matchRecord(c, &br)
	return m, ok, nil
}

// matchRecord finds the best way r matches the query's text.
func matchRecord(c *compiled, br *bruteRecord) (best Match, found bool) {
	if c.onlyLegal {
		return Match{}, false
	}
	legal := usesLegalForms(br.rec.EntityType)
	variants := c.raw
	if legal {
		variants = c.legal
	}
	consider := func(m Match) {
		if !found || m.score.better(best.score) {
			best, found = m, true
		}
	}
	if c.searchAll {
		tokens := append(append([]string(nil), br.bag.names...), br.bag.others...)
		for _, v := range variants {
			pairs, edits, ok := bestPairing(v, tokens, len(br.bag.names), c.Fuzzy)
			if ok {
				consider(Match{Field: "search_all", score: score{edits: edits, extra: max(0, len(tokens)-len(v))}, Pairs: pairs})
			}
		}
		return best, found
	}
	for _, name := range br.names {
		for _, v := range variants {
			pairs, edits, ok := bestPairing(v, name.Tokens, len(name.Tokens), c.Fuzzy)
			if !ok {
				continue
			}
			consider(Match{
				Field: name.Field,
				Text:  name.Text,
				score: score{
					exact: edits == 0 && sameWords(v, name.Tokens[:name.Base]),
					edits: edits,
					extra: max(0, name.Base-len(v)),
				},
				Pairs: pairs,
			})
		}
	}
	return best, found
}

// bestPairing pairs every query token with a different record token, at
// the least total edits. Record tokens at positions ≥ fuzzyUpTo pair only
// exactly (search_all's non-name fields). It tries every assignment, which
// is clear and what a reference is for, within bruteStepBudget steps; past
// them (a long query of repeated words) it answers with the Hungarian
// method, whose least total is the same.
func bestPairing(query, tokens []string, fuzzyUpTo, fuzzy int) (pairs []Pair, edits int, ok bool) {
	if len(tokens) < len(query) {
		return nil, 0, false
	}
	// dist[i][j] is the edits of pairing query[i] with tokens[j], -1 when
	// they may not pair.
	dist := make([][]int, len(query))
	for i, q := range query {
		dist[i] = make([]int, len(tokens))
		for j, t := range tokens {
			limit := 0
			if j < fuzzyUpTo {
				limit = allowedEdits(fuzzy, q, t)
			}
			d := -1
			switch {
			case q == t:
				d = 0
			case limit > 0:
				if e, ok := editsWithin(q, t, limit); ok {
					d = e
				}
			}
			dist[i][j] = d
		}
	}
	used := make([]bool, len(tokens))
	cur := make([]Pair, len(query))
	bestEdits, steps := -1, 0
	var rec func(i, sum int)
	rec = func(i, sum int) {
		steps++
		if bruteStepBudget >= 0 && steps > bruteStepBudget {
			return
		}
		if bestEdits >= 0 && sum >= bestEdits {
			return
		}
		if i == len(query) {
			bestEdits = sum
			pairs = append(pairs[:0], cur...)
			return
		}
		for j, t := range tokens {
			if used[j] || dist[i][j] < 0 {
				continue
			}
			used[j] = true
			cur[i] = Pair{Query: query[i], Token: t, Edits: dist[i][j]}
			rec(i+1, sum+dist[i][j])
			used[j] = false
		}
	}
	if bruteStepBudget != 0 {
		rec(0, 0)
	}
	if bruteStepBudget == 0 || bruteStepBudget > 0 && steps > bruteStepBudget {
		n, m := len(query), len(tokens)
		cost := make([]int, n*m)
		for i := range n {
			for j := range m {
				cost[i*m+j] = forbidden
				if dist[i][j] >= 0 {
					cost[i*m+j] = dist[i][j]
				}
			}
		}
		col := make([]int, n)
		var a assigner
		total, ok := a.solve(n, m, cost, col)
		if !ok {
			return nil, 0, false
		}
		pairs = make([]Pair, n)
		for i, j := range col {
			pairs[i] = Pair{Query: query[i], Token: tokens[j], Edits: dist[i][j]}
		}
		return pairs, total, true
	}
	if bestEdits < 0 {
		return nil, 0, false
	}
	return pairs, bestEdits, true
}

// editsWithin returns the edits between q and t when they are at most
// limit. Words whose lengths differ by more than limit are that many
// edits apart at least, so they are not compared letter by letter: most
// of a name's pairs with another name's words.
func editsWithin(q, t string, limit int) (int, bool) {
	if n, m := utf8.RuneCountInString(q), utf8.RuneCountInString(t); n-m > limit || m-n > limit {
		return 0, false
	}
	e := dict.EditDistance(q, t)
	return e, e <= limit
}

// Edits returns the total edits of the match.
func (m *Match) Edits() int { return m.edits }

// Exact reports whether the query's words are exactly the name string's.
func (m *Match) Exact() bool { return m.exact }
