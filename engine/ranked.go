package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
)

// This file is the optional ranked matcher of issue 9. It is not a /v1
// check and does not change SEMANTICS.md: the /v1 rule makes every query
// word pair with a different word of one name string, which rejects an
// alias with one word more or one word different. Ranked mode scores
// partial matches instead, weighting each word by how rare it is, so that
// "Martin de Jesus Romo Lopez" still finds "Romo Lopez, Martin" while
// "Muhammad Ali" alone does not find every record holding a Muhammad.
//
// The score of a name string for a query is
//
//	score = Σ w(q)·sim(q, t) / Σ w(q)  ×  (1 − ExtraPenalty · extra/base)
//
// where the sum runs over query tokens q, each paired with a different
// token t of the name string (greedily, best weighted similarity first);
// sim(q, t) = 1 − edits/max(runes) for tokens within the fuzzy radius of
// SEMANTICS.md "Name matching" (min(fuzzy, length cap) edits), 0 beyond it;
// w(q) = ln(1 + N/df(q)), N the live records, df(q) the live records holding
// a token within q's radius; extra is the name string's words left without
// a partner and base its word count. The second factor is a mild penalty:
// between two records that cover the query equally, the one that says
// less besides ranks first, and a short common query does not reach a
// long name that merely contains it.
//
// Edit similarity rather than Jaro-Winkler: it reuses the dictionary's
// bounded look-up (the same pairs the strict matcher sees), so the ranked
// candidates at fuzzy f are exactly the name strings the strict matcher
// would consider, and a typo costs the same in both modes.

// Defaults of RankedQuery.
const (
	// DefaultMinScore keeps the false-hit rate of ranked mode at fuzzy 2
	// on the OFAC SDN list at or below that of strict fuzzy 2
	// (bench/README.md says how it was chosen).
	DefaultMinScore = 0.61
	// MaxRankedCandidates bounds the name strings scored per query, so a
	// query made of common words cannot make a search scan the database.
	MaxRankedCandidates = 20000
	// ExtraPenalty is the most a name string's unpaired words take off its
	// score: all of them unpaired (impossible once one word pairs) would
	// multiply it by 1 − ExtraPenalty. Tuned with DefaultMinScore on the
	// OFAC SDN list: 0.2 and 0.35 gave nearly the same recall at the same
	// false-hit rate, 0.35 slightly more.
	ExtraPenalty = 0.35
)

// RankedQuery is a ranked-mode name check.
type RankedQuery struct {
	Kind  Kind
	Names string
	// Fuzzy is the radius within which a query token pairs with a record
	// token (0, 1 or 2, capped by length as for Query.Fuzzy). Unlike the
	// other fields it has no default, because 0 is a meaningful radius.
	Fuzzy int
	// MinScore is the least score a record needs to be returned, in (0, 1];
	// 0 means DefaultMinScore.
	MinScore float64
	// Limit caps the returned hits; 0 means DefaultLimit.
	Limit int
}

// Ranked answers q in ranked mode: every record with a name string scoring
// at least q.MinScore, best score first (ties: exact, fewer edits, fewer
// extra words, record id). Hit.Score holds the score, Hit.Edits the edits
// and Hit.Extra the unpaired words of the best name string. Invalid
// parameters give a *ParamError, as for Search.
func (ix *Index) Ranked(q RankedQuery) (*Result, error) {
	return ix.RankedContext(context.Background(), q)
}

// RankedContext is Ranked giving up with ctx's error (wrapped) once ctx is
// done, checked as SearchContext checks it; heavy queries wait for an
// admission slot as they do there.
func (ix *Index) RankedContext(ctx context.Context, q RankedQuery) (*Result, error) {
	minScore := q.MinScore
	if minScore == 0 {
		minScore = DefaultMinScore
	}
	if minScore < 0 || minScore > 1 || math.IsNaN(minScore) {
		return nil, &ParamError{Param: "min_score", Msg: fmt.Sprintf("%v is not in (0, 1]", q.MinScore)}
	}
	c, err := compile(Query{Kind: q.Kind, Names: q.Names, Fuzzy: q.Fuzzy, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	if c.onlyLegal {
		return &Result{}, nil
	}
	s := searcherPool.Get().(*searcher)
	defer s.release()
	s.ctx = ctx
	release, err := ix.admit(s, c)
	if err != nil {
		return nil, err
	}
	defer release()
	r := ranker{s: s, minScore: minScore, best: make(map[uint64]rankedEntry)}
	if slices.EqualFunc(c.raw, c.legal, slices.Equal) {
		r.run(c.raw, anyRecord)
	} else {
		r.run(c.raw, individualsOnly)
		r.run(c.legal, legalOnly)
	}
	if s.err != nil {
		return nil, s.err
	}
	hits := make([]Hit, 0, len(r.best))
	for key, b := range r.best {
		si, ord := int(key>>32), uint32(key)
		hits = append(hits, Hit{ID: s.v.segs[si].id(ord), Exact: b.exact, Edits: b.edits, Extra: b.extra, Score: b.value,
			seg: int32(si), ord: ord, slot: b.slot})
	}
	slices.SortFunc(hits, compareRanked)
	res := &Result{Total: len(hits), Hits: hits[:min(len(hits), c.limit)]}
	if err := s.v.fill(res.Hits, true); err != nil {
		return nil, err
	}
	return res, nil
}

func compareRanked(a, b Hit) int {
	if a.Score != b.Score {
		return cmp.Compare(b.Score, a.Score)
	}
	if a.score() != b.score() {
		if a.score().better(b.score()) {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.ID, b.ID)
}

// rankedEntry is the best name string of one record so far.
type rankedEntry struct {
	score
	value float64 // the ranked score
	slot  uint16
}

// ranker holds the state of one ranked search on top of a searcher, whose
// token look-ups and posting-list unions it reuses.
type ranker struct {
	s        *searcher
	minScore float64
	best     map[uint64]rankedEntry
}

// rankedTok is one query token with what scoring needs of it.
type rankedTok struct {
	text   string
	m      map[uint32]uint8 // dictionary tokens within the radius, and their edits
	runes  int
	weight float64
	ms     []map[uint32]uint8 // m of each segment
	post   [][]uint32         // per segment: name strings holding a token of m, ascending
	size   int                // entries of post
}

func (r *ranker) run(variants [][]string, sel recordSel) {
	v := r.s.v
	n := float64(max(v.live, 1))
	for _, words := range variants {
		// Weights are of the whole index: a word's records are counted in
		// every segment.
		toks := make([]rankedTok, len(words))
		total := 0.0
		for i, t := range words {
			tk := rankedTok{text: t, runes: len([]rune(t)), post: make([][]uint32, len(v.segs)), ms: make([]map[uint32]uint8, len(v.segs))}
			df := 0
			for si := range v.segs {
				r.s.use(si)
				m := r.s.tokenMatches(t)
				tk.ms[si] = m
				if len(m) > 0 {
					var buf []uint32 // owned: the searcher's buffers are reused below
					tk.post[si] = slices.Clone(r.s.union(m, r.s.seg.postings, &buf))
					tk.size += len(tk.post[si])
					df += r.s.seg.liveRecords(tk.post[si])
				}
			}
			tk.weight = math.Log1p(n / float64(max(df, 1)))
			toks[i] = tk
			total += tk.weight
		}
		// Rarest tokens first; a name string holding none of the tokens
		// taken can score at most the weight of those left out, so tokens
		// are taken until what is left could not reach minScore.
		order := make([]int, len(toks))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(toks[a].size, toks[b].size) })
		for si := range v.segs {
			r.s.use(si)
			sv := r.s.seg
			for i := range toks {
				toks[i].m = toks[i].ms[si]
			}
			var cands []uint32
			left := total
			for _, i := range order {
				if left < r.minScore*total-1e-12 || len(cands) >= MaxRankedCandidates {
					break
				}
				left -= toks[i].weight
				cands = append(cands, toks[i].post[si]...)
			}
			slices.Sort(cands)
			cands = slices.Compact(cands)
			if len(cands) > MaxRankedCandidates {
				cands = cands[:MaxRankedCandidates]
			}
			for _, ns := range cands {
				if r.s.tick() {
					return
				}
				ord := sv.nsRec[ns]
				if sv.dead(ord) || !r.s.selects(sel, ord) || !sv.passes(r.s.c, nil, ord) {
					continue
				}
				r.scoreName(toks, total, ns, ord)
			}
		}
	}
}

// liveRecords counts the distinct live records of the sorted name-string
// ids post. A record's name strings have consecutive ids, so distinct
// records are runs; tombstoned records (left in posting lists until a
// merge) are skipped, so the weights do not depend on the history of
// updates.
func (sv *segView) liveRecords(post []uint32) int {
	n := 0
	last := ^uint32(0)
	for _, ns := range post {
		ord := sv.nsRec[ns]
		if ord != last && !sv.dead(ord) {
			n++
		}
		last = ord
	}
	return n
}

// scoreName scores name string ns against the query tokens and offers the
// result for its record.
func (r *ranker) scoreName(toks []rankedTok, total float64, ns, ord uint32) {
	sv := r.s.seg
	name := sv.nameToks(ns)
	type pair struct {
		q, t  int
		val   float64
		edits int
	}
	var pairsBuf [64]pair
	pairs := pairsBuf[:0]
	for qi := range toks {
		tk := &toks[qi]
		for ti, id := range name {
			d, ok := tk.m[id]
			if !ok {
				continue
			}
			sim := 1 - float64(d)/float64(max(tk.runes, sv.RuneLen(id)))
			pairs = append(pairs, pair{qi, ti, tk.weight * sim, int(d)})
		}
	}
	// Greedy assignment, best weighted similarity first: names have a
	// handful of words, and the greedy choice differs from the optimum
	// only when one record word is the best partner of two query words.
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.val != b.val {
			return cmp.Compare(b.val, a.val)
		}
		if a.q != b.q {
			return a.q - b.q
		}
		return a.t - b.t
	})
	var qUsed, tUsed [64]bool
	sum, edits, paired := 0.0, 0, 0
	for _, p := range pairs {
		if p.q >= len(qUsed) || p.t >= len(tUsed) || qUsed[p.q] || tUsed[p.t] {
			continue
		}
		qUsed[p.q], tUsed[p.t] = true, true
		sum += p.val
		edits += p.edits
		paired++
	}
	base := int(sv.nsBase[ns])
	extra := max(0, base-paired)
	sc := sum / total
	if base > 0 {
		sc *= 1 - ExtraPenalty*float64(extra)/float64(base)
	}
	if sc < r.minScore-1e-12 {
		return
	}
	c := rankedEntry{
		score: score{edits: edits, extra: extra, exact: edits == 0 && paired == len(toks) && base == len(toks) && r.sameBase(toks, name[:base])},
		value: sc,
		slot:  sv.nsSlot[ns],
	}
	key := r.s.key(ord)
	if old, ok := r.best[key]; ok {
		if old.value > c.value || old.value == c.value && (old.score.better(c.score) || old.score == c.score && old.slot <= c.slot) {
			return
		}
	}
	r.best[key] = c
}

// sameBase reports whether the query tokens are exactly the name's words.
func (r *ranker) sameBase(toks []rankedTok, words []uint32) bool {
	v := make([]string, len(toks))
	for i := range toks {
		v[i] = toks[i].text
	}
	return r.s.sameTokens(v, words)
}
