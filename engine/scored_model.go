package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/amlscreen/amlscreen/record"
)

// This file is the scoring model of scored mode: what a pairing of query
// words with the words of one name string is worth. The index and the
// brute-force reference both evaluate pairings with assignmentLogit, so
// the same pairing has the same score, to the bit, in both.
//
// The model is a log-odds sum in the spirit of record linkage
// (Fellegi–Sunter): the evidence that a name string names the person or
// company asked about, in natural-log units ("nats").
//
//	logit = Σ pairs  w·s − K·(1 − s)            a pair of words agrees
//	      − α · (query words without a partner)
//	      − β · (record words without a partner)
//	      + λ · s_min²   when every word on both sides is paired
//	      − λ + c
//	score = 1 / (1 + e^(−logit/T))             (1 for the very same words)
//
// where s is how closely the two words agree (1 for the same word, 0.92
// or more for two spellings of one name, the weighted edit similarity of
// scored_sim.go otherwise) and w how rare the query word is in the list:
// w = ln((N+1)/(F+1)) for N live records and F the records holding a word
// the query word pairs with. A rare word is strong evidence, a common one
// (al, company, muhammad) weak. λ = ln(N+1) is the prior: one record
// among N is the one asked about, so a match must bring about that much
// evidence before it counts. A complete match (every word paired) earns
// it back: a listed name matched word for word is a hit however common
// its words. Legal forms neither count towards completeness nor bring
// evidence: two different legal forms cost a little (Ltd against LLC), a
// missing one less.

// Model constants. They were set on development data (bench/README.md,
// "Scored mode"), never on the evaluation sets.
const (
	// pairSlope (K) is what a pair's dissimilarity costs: a pair at
	// similarity 0.9 brings w·0.9 − 0.4.
	pairSlope = 4.0
	// queryMissCost (α) is the cost of a query word without a partner: a
	// middle name the list does not carry is common in true matches.
	queryMissCost = 2.0
	// recordMissCost (β) is the cost of a record word without a partner:
	// lists spell names out in full (patronymics, tribal names).
	recordMissCost = 0.5
	// legalMismatchCost is the cost of two different legal forms paired.
	legalMismatchCost = 1.0
	// legalMissCost is the cost of a legal form on one side only.
	legalMissCost = 0.3
	// legalMaxValue caps what two equal legal forms bring.
	legalMaxValue = 1.0
	// joinSim multiplies the similarity of a word matched against two
	// joined words (Aliakbar, Ali Akbar).
	joinSim = 0.97
	// scoreIntercept (c) shifts every logit.
	scoreIntercept = 1.0
	// scoreTemperature (T) spreads the logits over the score range.
	scoreTemperature = 2.0
	// maxScoredWords is the most words of a query, or of a name string,
	// that scored mode pairs; the rest are neither paired nor counted.
	maxScoredWords = 32
)

// pairValue is what a word pair of similarity s brings when the query word
// weighs w.
func pairValue(w, s float64) float64 { return w*s - pairSlope*(1-s) }

// wordWeight is the weight of a query word that pairs with words held by
// f records, in a list of n.
func wordWeight(f, n int) float64 {
	return math.Log(float64(n+1) / float64(min(f, n)+1))
}

// prior is λ for a list of n records.
func prior(n int) float64 { return math.Log(float64(n + 1)) }

// edge is one way a query word (or two adjacent ones) pairs with a record
// word (or two adjacent ones).
type edge struct {
	q0, q1 int8 // query words covered; q1 < 0 for one word
	k0, k1 int8 // record words covered; k1 < 0 for one word
	kind   uint8
	edits  uint8
	sim    float64
	weight float64
	value  float64
}

func (e *edge) qmask() uint64 {
	m := uint64(1) << e.q0
	if e.q1 >= 0 {
		m |= 1 << e.q1
	}
	return m
}

func (e *edge) kmask() uint64 {
	m := uint64(1) << e.k0
	if e.k1 >= 0 {
		m |= 1 << e.k1
	}
	return m
}

// nameShape is what assignmentLogit needs of a query and a name string
// besides the chosen edges.
type nameShape struct {
	m, n           int    // query words, record words (each ≤ maxScoredWords)
	qLegal, kLegal uint64 // which of them are legal forms
	lambda         float64
}

// evaluation is the worth of one pairing.
type evaluation struct {
	logit    float64
	bonus    float64 // the completeness term
	complete bool    // every word that is not a legal form is paired, both sides
	exact    bool    // the very same words
}

// assignmentLogit evaluates the pairing chosen, a set of edges that cover
// no word twice, in a fixed order so that the same set gives the same
// float wherever it is evaluated.
func assignmentLogit(sh *nameShape, chosen []edge) evaluation {
	slices.SortFunc(chosen, func(a, b edge) int { return cmp.Compare(a.q0, b.q0) })
	var qCov, kCov uint64
	logit := 0.0
	sMin := 1.0
	allExact := true
	for i := range chosen {
		e := &chosen[i]
		logit += e.value
		qCov |= e.qmask()
		kCov |= e.kmask()
		if e.kind != kindLegal && !(e.kind == kindExact && sh.qLegal&e.qmask() != 0) {
			sMin = min(sMin, e.sim)
		}
		if e.kind != kindExact || e.q1 >= 0 || e.k1 >= 0 {
			allExact = false
		}
	}
	complete := true
	for j := 0; j < sh.m; j++ {
		if qCov&(1<<j) != 0 {
			continue
		}
		if sh.qLegal&(1<<j) != 0 {
			logit -= legalMissCost
			allExact = false
			continue
		}
		logit -= queryMissCost
		complete = false
	}
	for k := 0; k < sh.n; k++ {
		if kCov&(1<<k) != 0 {
			continue
		}
		if sh.kLegal&(1<<k) != 0 {
			logit -= legalMissCost
			allExact = false
			continue
		}
		logit -= recordMissCost
		complete = false
	}
	bonus := 0.0
	if complete {
		bonus = sh.lambda * sMin * sMin
	}
	logit += bonus + scoreIntercept - sh.lambda
	return evaluation{logit: logit, bonus: bonus, complete: complete, exact: complete && allExact && sh.m == sh.n}
}

// scoreOf turns an evaluation into the score in [0, 1], rounded to six
// decimals so that it reads the same everywhere it is shown.
func scoreOf(ev evaluation) float64 {
	if ev.exact {
		return 1
	}
	s := 1 / (1 + math.Exp(-ev.logit/scoreTemperature))
	return math.Round(s*1e6) / 1e6
}

// logitFloor is the least logit whose score can reach minScore: every
// pairing scoring below it falls short. It errs low, so that bounds built
// on it never drop a hit.
func logitFloor(minScore float64) float64 {
	p := minScore - 1e-6
	if p <= 0 {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	return scoreTemperature*math.Log(p/(1-p)) - 1e-9
}

// legalValue is what an edge between legal forms brings: little when they
// agree, a small cost when they differ.
func legalValue(kind uint8, w float64) float64 {
	if kind == kindLegal {
		return -legalMismatchCost
	}
	return min(w, legalMaxValue)
}

// maxBonus is the most the completeness term can add.
func maxBonus(lambda float64) float64 { return lambda }

// bestPairing finds the pairing of the highest logit among the edges: a
// depth-first search over the query words in order, each left unpaired or
// given one of its edges whose record words are free, pruned when even the
// best remaining edges could not beat the best pairing so far. chosen is
// scratch space; the best pairing is returned in best (sorted by query
// word).
type pairSearch struct {
	sh     *nameShape
	edges  []edge // sorted by q0
	start  []int  // edges of query word j: edges[start[j]:start[j+1]]
	ub     []float64
	stack  []edge
	best   []edge
	bestEv evaluation
	found  bool
	scr    []edge
}

// run searches the pairing; it returns false when no edge exists.
func (ps *pairSearch) run(sh *nameShape, edges []edge) bool {
	ps.sh = sh
	ps.edges = edges
	slices.SortStableFunc(ps.edges, func(a, b edge) int { return cmp.Compare(a.q0, b.q0) })
	ps.start = ps.start[:0]
	k := 0
	for j := 0; j <= sh.m; j++ {
		for k < len(edges) && int(edges[k].q0) < j {
			k++
		}
		ps.start = append(ps.start, k)
	}
	// ub[j]: the most words j.. can still add: each its best edge or its
	// miss cost, concatenated edges counted whole for both words (at half
	// when negative), plus the completeness bonus.
	ps.ub = ps.ub[:0]
	for j := 0; j < sh.m; j++ {
		miss := -queryMissCost
		if sh.qLegal&(1<<j) != 0 {
			miss = -legalMissCost
		}
		ps.ub = append(ps.ub, miss)
	}
	for i := range edges {
		e := &edges[i]
		v := e.value
		if e.q1 >= 0 && v < 0 {
			v /= 2
		}
		ps.ub[e.q0] = max(ps.ub[e.q0], v)
		if e.q1 >= 0 {
			ps.ub[e.q1] = max(ps.ub[e.q1], v)
		}
	}
	for j := sh.m - 2; j >= 0; j-- {
		ps.ub[j] += ps.ub[j+1]
	}
	ps.ub = append(ps.ub, 0)
	ps.stack = ps.stack[:0]
	ps.found = false
	ps.dfs(0, 0, 0, 0)
	return len(edges) > 0
}

func (ps *pairSearch) dfs(j int, qCov, kCov uint64, partial float64) {
	sh := ps.sh
	if ps.found && !ps.bestEv.exact {
		// The record words left unpaired only lower the logit, and the
		// bonus adds at most λ.
		if partial+ps.ub[j]+maxBonus(sh.lambda)+scoreIntercept-sh.lambda < ps.bestEv.logit-1e-9 {
			return
		}
	} else if ps.found {
		return
	}
	if j == sh.m {
		ps.scr = append(ps.scr[:0], ps.stack...)
		ev := assignmentLogit(sh, ps.scr)
		if !ps.found || ev.exact && !ps.bestEv.exact || ev.logit > ps.bestEv.logit && !ps.bestEv.exact {
			ps.found = true
			ps.bestEv = ev
			ps.best = append(ps.best[:0], ps.scr...)
		}
		return
	}
	if qCov&(1<<j) != 0 { // covered by the previous word's joined edge
		ps.dfs(j+1, qCov, kCov, partial)
		return
	}
	for i := ps.start[j]; i < ps.start[j+1]; i++ {
		e := &ps.edges[i]
		if e.kmask()&kCov != 0 || e.q1 >= 0 && qCov&(1<<e.q1) != 0 {
			continue
		}
		ps.stack = append(ps.stack, *e)
		ps.dfs(j+1, qCov|e.qmask(), kCov|e.kmask(), partial+e.value)
		ps.stack = ps.stack[:len(ps.stack)-1]
	}
	miss := -queryMissCost
	if sh.qLegal&(1<<j) != 0 {
		miss = -legalMissCost
	}
	ps.dfs(j+1, qCov, kCov, partial+miss)
}

// buildReason writes the pairing best of a name string for people and
// programs: qWords and kWords are the query's and the name string's words.
func buildReason(sh nameShape, ev evaluation, best []edge, qWords, kWords []string, field, name string) *ScoreReason {
	r := &ScoreReason{
		Field: field, Name: name, Pairs: []ScorePair{},
		Complete: round4(ev.bonus), Prior: round4(-sh.lambda), Offset: scoreIntercept,
		Logit: round4(ev.logit), Score: scoreOf(ev),
	}
	var qCov, kCov uint64
	for i := range best {
		e := &best[i]
		qCov |= e.qmask()
		kCov |= e.kmask()
		q := ShowToken(qWords[e.q0])
		if e.q1 >= 0 {
			q += " " + ShowToken(qWords[e.q1])
		}
		k := ShowToken(kWords[e.k0])
		if e.k1 >= 0 {
			k += " " + ShowToken(kWords[e.k1])
		}
		r.Pairs = append(r.Pairs, ScorePair{Query: q, Record: k, Kind: kindName(e.kind), Edits: int(e.edits),
			Similarity: round4(e.sim), Weight: round4(e.weight), Contribution: round4(e.value)})
	}
	for j := 0; j < sh.m; j++ {
		if qCov&(1<<j) == 0 {
			c := -queryMissCost
			if sh.qLegal&(1<<j) != 0 {
				c = -legalMissCost
			}
			r.UnpairedQuery = append(r.UnpairedQuery, ScoreWord{Word: ShowToken(qWords[j]), Contribution: c})
		}
	}
	for k := 0; k < sh.n; k++ {
		if kCov&(1<<k) == 0 {
			c := -recordMissCost
			if sh.kLegal&(1<<k) != 0 {
				c = -legalMissCost
			}
			r.UnpairedRecord = append(r.UnpairedRecord, ScoreWord{Word: ShowToken(kWords[k]), Contribution: c})
		}
	}
	return r
}

func wordTexts(ws []tokInfo) []string {
	out := make([]string, len(ws))
	for i := range ws {
		out[i] = ws[i].text
	}
	return out
}

// nameText returns the text of name string slot of r.
func nameText(r *record.Record, slot uint16) string {
	ns := NameStrings(r)
	if int(slot) < len(ns) {
		return ns[slot].Text
	}
	return r.Name
}
