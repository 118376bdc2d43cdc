package engine

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
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
//	      − γ · (record words without a partner − 1)   when every query
//	                 word (two or more) is paired and the record has two more
//	      − σ · min(query miss, record miss)   when a name that is not an
//	                 individual's leaves one word unpaired on each side
//	      + λ · s_min²   when every word on both sides is paired
//	      + ρ · λ · s_min²   instead, when every query word (two or
//	                 more) is paired and an individual's name has one more
//	      − λ + c
//	score = 1 / (1 + e^(−logit/T))             (1 for the very same words)
//
// where s is how closely the two words agree (1 for the same word, 0.92
// or more for two spellings of one name, the weighted edit similarity of
// scored_sim.go otherwise) and w how rare the query word is in the list:
// w = ln((N+1)/(F+1)) for N live records and F the records holding a word
// the query word pairs with, at most ln(1/share) for a very common name
// borne by that share of its culture (normalize/commonnames.txt: Kim,
// Wang, Nguyen). A rare word is strong evidence, a common one (al,
// company, muhammad, kim) weak. λ = ln(N+1) is the prior: one record
// among N is the one asked about, so a match must bring about that much
// evidence before it counts. A complete match (every word paired) earns
// it back: a listed name matched word for word is a hit however common
// its words. Legal forms neither count towards completeness nor bring
// evidence: two different legal forms cost a little (Ltd against LLC), a
// missing one less.

// modelParams are the model's constants. They were set on development
// data (bench/README.md, "Scored mode"), never on the evaluation sets.
type modelParams struct {
	// PairSlope (K) is what a pair's dissimilarity costs: a pair at
	// similarity s brings w·s − K·(1 − s).
	PairSlope float64
	// QueryMiss and QueryMissRare (α) make the cost of a query word
	// without a partner: QueryMiss + QueryMissRare·w/λ, so a missing
	// common word (de, group) costs less than a missing rare one.
	QueryMiss, QueryMissRare float64
	// QueryMissUnknown is the cost of a query word without a partner that
	// no listed name holds: the list says nothing about how common it is,
	// and a middle name a customer gives and the list lacks is usual.
	QueryMissUnknown float64
	// RecordMiss and RecordMissRare (β) are the same for a record word
	// without a partner; lists spell names out in full (patronymics,
	// tribal names), so they cost less than query words.
	RecordMiss, RecordMissRare float64
	// RecordExtra is what each record word without a partner beyond the
	// first costs more when every query word of two or more is paired:
	// a query that gives a given and a family name is complete, and a
	// listed name with two words more (John Smith against John Robert
	// Edward Smith) names someone more than it does. One word more (a
	// middle name the query leaves out) costs only RecordMiss, and earns
	// an individual's name NearComplete.
	RecordExtra float64
	// NearComplete is the share of the completeness term an individual's
	// name earns when every query word of two or more is paired and the
	// name has one word more: a middle name or patronymic the query
	// leaves out (Mohammad Chaghazardy against CHAGHAZARDY, Mohammad
	// Kazem) is usual, and without a share of the term two words must
	// weigh the whole prior on their own, which a common given name and
	// a family name seldom do. Only the same words, two spellings of one
	// name and joined words earn it (nearSim): a word left out and a word
	// spelled otherwise are two differences (Жуев Игорь is not Зуев Игорь
	// Петрович). A company's extra word (International
	// Pacific Trading) names another company more often, so it earns
	// none.
	NearComplete float64
	// Substitute scales what a name that is not an individual's pays when
	// one word on each side is left without a partner, every other word
	// paired: the cheaper of the two miss costs, once more times
	// Substitute. A company or vessel whose distinctive word is swapped
	// for another (Berliner Motoren Werke, Bayerische Motoren Werke) is
	// another company, which a word missing on one side (Pacific Trading,
	// International Pacific Trading) need not be. Names further apart
	// score low already, and an alias differing in several words is often
	// the same company in other words (bench/README.md). People's names
	// are spared: one person's aliases often spell one word past pairing
	// (a second transliteration, a nickname).
	Substitute float64
	// CompletePower is the power of the least pair similarity in the
	// completeness term: only close pairs earn the prior back.
	CompletePower float64
	// CompleteEditCost is what each edit of a pair within the edit radius
	// takes off its similarity for the completeness term at most
	// (completeSim).
	CompleteEditCost float64
	// JoinMinSim is the least similarity of a word paired with two words
	// joined.
	JoinMinSim float64
	// Intercept (c) shifts every logit.
	Intercept float64
}

var model = modelParams{
	PairSlope:        8,
	QueryMiss:        0.5,
	QueryMissRare:    2,
	QueryMissUnknown: 1.5,
	RecordMiss:       0.2,
	RecordMissRare:   1,
	RecordExtra:      0.5,
	NearComplete:     0.18,
	Substitute:       2,
	CompletePower:    6,
	CompleteEditCost: 0.1,
	JoinMinSim:       0.88,
	Intercept:        1,
}

const (
	// optionalMissCost is the cost of an optional word (a legal form or
	// an initial, tokInfo.optional) on one side only.
	optionalMissCost = 0.3
	// optionalMaxValue caps what two equal optional words bring.
	optionalMaxValue = 1.0
	// joinSim multiplies the similarity of a word matched against two
	// joined words (Aliakbar, Ali Akbar).
	joinSim = 0.97
	// scoreTemperature (T) spreads the logits over the score range.
	scoreTemperature = 2.0
	// maxScoredWords is the most words of a name string that scored mode
	// pairs (the rest are neither paired nor counted), and of a query
	// (which compile holds to MaxTextWords).
	maxScoredWords = 32
)

// A query never has more words than scored mode pairs.
const _ = uint(maxScoredWords - query.MaxTextWords)

// pairValue is what a word pair of similarity s brings when the query word
// weighs w.
func pairValue(w, s float64) float64 { return w*s - model.PairSlope*(1-s) }

// wordWeight is the weight of a word held by f records, in a list of n:
// the evidence that a chance name does not hold it.
func wordWeight(f, n int) float64 {
	return math.Log(float64(n+1) / float64(min(f, n)+1))
}

// shareWeight is the most a word borne by share of its culture's people
// may weigh (normalize.Common): ln(1/share) + shareWeightFloor, unbounded
// for a word the table does not hold. However rare Kim is in a list, a
// fifth of Korea bears it. The floor keeps a common family name evidence
// enough that a name with its middle name left out still hits; a whole
// nat more lets Kim and one loose syllable (김종은, Kim Jong Un) hit again
// (bench/README.md).
func shareWeight(share float64) float64 {
	if share <= 0 {
		return math.Inf(1)
	}
	return max(-math.Log(share), 0) + shareWeightFloor
}

// shareWeightFloor is what shareWeight adds to ln(1/share).
const shareWeightFloor = 0.5

// tokenWeight is the weight of word t, held by f records of n: its
// rarity in the list, at most what its share of a culture allows.
func tokenWeight(t *tokInfo, f, n int) float64 {
	return min(wordWeight(f, n), shareWeight(t.share))
}

// queryMiss is the cost of query word t, held by df listed records and of
// weight w, left unpaired.
func queryMiss(t *tokInfo, df int, w, lambda float64) float64 {
	switch {
	case t.optional:
		return optionalMissCost
	case df == 0:
		return model.QueryMissUnknown
	}
	return model.QueryMiss + model.QueryMissRare*w/lambda
}

// recordMiss is the cost of record word t of weight w left unpaired.
func recordMiss(t string, w, lambda float64) float64 {
	if optionalWord(t) {
		return optionalMissCost
	}
	return model.RecordMiss + model.RecordMissRare*w/lambda
}

// weighPartners sets the weight of each partner of one query unit: the
// weight of the records holding a partner at least as close, at most the
// share weight of the most common name among the query unit (qShare) and
// those partners (share). A close partner of a word whose loose
// neighbours are common is still strong evidence; a loose partner is weak
// evidence wherever it is; a very common name is weak evidence however
// rare it is in the list.
func weighPartners(ps []*partner, df func(i int) int, share func(i int) float64, qShare float64, n int) {
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ps[b].sim, ps[a].sim) })
	f := 0
	sh := qShare
	for i := 0; i < len(order); {
		k := i
		for k < len(order) && ps[order[k]].sim == ps[order[i]].sim {
			f += df(order[k])
			sh = max(sh, share(order[k]))
			k++
		}
		w := min(wordWeight(f, n), shareWeight(sh))
		for ; i < k; i++ {
			ps[order[i]].w = w
		}
	}
}

// prior is λ for a list of n records.
func prior(n int) float64 { return math.Log(float64(n + 1)) }

// edge is one way a query word (or two or three adjacent ones) pairs with
// a record word (or two or three adjacent ones).
type edge struct {
	q0, q1 int8 // query words covered: q0 to q1; q1 < 0 for one word
	k0, k1 int8 // record words covered: k0 to k1; k1 < 0 for one word
	kind   uint8
	edits  uint8
	sim    float64
	weight float64
	value  float64
}

// spanMask marks words a to b (a alone when b < 0).
func spanMask(a, b int8) uint64 {
	if b < a {
		return uint64(1) << a
	}
	return (uint64(1)<<(b-a+1) - 1) << a
}

func (e *edge) qmask() uint64 { return spanMask(e.q0, e.q1) }

func (e *edge) kmask() uint64 { return spanMask(e.k0, e.k1) }

// qWords is the number of query words e covers.
func (e *edge) qWords() int {
	if e.q1 < 0 {
		return 1
	}
	return int(e.q1-e.q0) + 1
}

// share is what e is worth to each query word it covers in a bound: its
// value, divided among them when negative, so that the bounds of the words
// add up to no less than the edge.
func (e *edge) share() float64 {
	if n := e.qWords(); n > 1 && e.value < 0 {
		return e.value / float64(n)
	}
	return e.value
}

// nameShape is what assignmentLogit needs of a query and a name string
// besides the chosen edges.
type nameShape struct {
	m, n       int    // query words, record words (each ≤ maxScoredWords)
	qOpt, kOpt uint64 // which of them are optional (tokInfo.optional)
	// person: the name string is an individual's, whose middle name a
	// query may leave out (modelParams.NearComplete); kSyl marks its
	// words that are romanised Chinese or Korean syllables, which are no
	// middle names (Shi Mei is not Sun Shi Mei).
	person       bool
	kSyl         uint64
	qMiss, kMiss []float64
	lambda       float64
}

// completeSim is how a pair counts towards the completeness term: its
// similarity, except that a pair within the edit radius counts at least
// 1 − CompleteEditCost per edit. A typing error in a short word is as likely as in a
// long one, and a name typed with one such error must stay a hit.
func completeSim(e *edge) float64 {
	if e.kind == kindEdit {
		return max(e.sim, 1-model.CompleteEditCost*float64(e.edits))
	}
	return e.sim
}

// syllableMask marks the words of an individual's name string (text(k)
// of n) that are one romanised Chinese or Korean syllable each
// (nameShape.kSyl): two pinyin syllables make Western words (re-za).
func syllableMask(n int, text func(k int) string) uint64 {
	var m uint64
	for k := range n {
		if normalize.IsRomanSyllable(text(k)) {
			m |= 1 << k
		}
	}
	return m
}

// nearSim is how a pair counts towards the share of the completeness
// term a name with one word more earns (modelParams.NearComplete): its
// similarity for the same word, two spellings of one name or joined
// words, 0 for a pair by edits, sound or skeleton.
func nearSim(e *edge) float64 {
	switch e.kind {
	case kindEdit, kindSound, kindSkeleton:
		return 0
	}
	return e.sim
}

// evaluation is the worth of one pairing.
type evaluation struct {
	logit    float64
	bonus    float64 // the completeness term
	complete bool    // every word that is not a legal form is paired, both sides
	exact    bool    // the very same words
	// script is what comparing the two names in their shared script
	// took off the logit (inScript), 0 or less.
	script float64
	// swap is what a company's one swapped word took off the logit
	// (modelParams.Substitute), 0 or less.
	swap float64
}

// assignmentLogit evaluates the pairing chosen, a set of edges that cover
// no word twice, in a fixed order so that the same set gives the same
// float wherever it is evaluated.
func assignmentLogit(sh *nameShape, chosen []edge) evaluation {
	slices.SortFunc(chosen, func(a, b edge) int { return cmp.Compare(a.q0, b.q0) })
	var qCov, kCov uint64
	logit := 0.0
	sMin, sMinNear := 1.0, 1.0
	allExact := true
	for i := range chosen {
		e := &chosen[i]
		logit += e.value
		qCov |= e.qmask()
		kCov |= e.kmask()
		if sh.qOpt&e.qmask() == 0 {
			sMin = min(sMin, completeSim(e))
			sMinNear = min(sMinNear, nearSim(e))
		}
		if e.kind != kindExact || e.q1 >= 0 || e.k1 >= 0 {
			allExact = false
		}
	}
	complete := true
	qWords := 0
	for j := 0; j < sh.m; j++ {
		if sh.qOpt&(1<<j) == 0 {
			qWords++
		}
		if qCov&(1<<j) != 0 {
			continue
		}
		logit -= sh.qMiss[j]
		if sh.qOpt&(1<<j) != 0 {
			allExact = false
		} else {
			complete = false
		}
	}
	queryComplete := complete
	qMissed, qLeft := 0.0, 0
	for j := 0; j < sh.m; j++ {
		if qCov&(1<<j) == 0 && sh.qOpt&(1<<j) == 0 {
			qMissed += sh.qMiss[j]
			qLeft++
		}
	}
	kMissed := 0.0
	extra := 0
	var extraSyl bool
	for k := 0; k < sh.n; k++ {
		if kCov&(1<<k) != 0 {
			continue
		}
		logit -= sh.kMiss[k]
		if sh.kOpt&(1<<k) != 0 {
			allExact = false
		} else {
			complete = false
			extra++
			extraSyl = extraSyl || sh.kSyl&(1<<k) != 0
			kMissed += sh.kMiss[k]
		}
	}
	swap := 0.0
	if !sh.person && qLeft == 1 && extra == 1 {
		swap = -model.Substitute * min(qMissed, kMissed)
		logit += swap
	}
	if queryComplete && qWords >= 2 && extra >= 2 {
		logit -= model.RecordExtra * float64(extra-1)
	}
	bonus := 0.0
	switch {
	case complete:
		bonus = sh.lambda * math.Pow(sMin, model.CompletePower)
	case sh.person && queryComplete && qWords >= 2 && extra == 1 && !extraSyl:
		bonus = model.NearComplete * sh.lambda * math.Pow(sMinNear, model.CompletePower)
	}
	logit += bonus + model.Intercept - sh.lambda
	return evaluation{logit: logit, bonus: bonus, swap: swap, complete: complete, exact: complete && allExact && sh.m == sh.n}
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

// optionalValue is what two equal optional words bring: little, since a
// legal form or an initial says little about whom a name names.
func optionalValue(w float64) float64 { return min(w, optionalMaxValue) }

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
	twin   []int  // the last earlier query word whose edges are j's, or -1
	pick   []int  // per query word, the rank of its chosen edge (unpaired: noPick)
	ub     []float64
	stack  []edge
	best   []edge
	bestEv evaluation
	found  bool
	scr    []edge
	steps  int // calls of dfs in the last run, which tests bound
}

// orderEdges puts edges in the order the pairing search tries them: by
// query word, and for one word the most valuable first, so that a good
// pairing is found early and bounds prune the rest. The index and the
// brute-force reference order them alike, so that of two pairings of one
// logit both keep the same.
func orderEdges(edges []edge) {
	slices.SortStableFunc(edges, func(a, b edge) int {
		if a.q0 != b.q0 {
			return cmp.Compare(a.q0, b.q0)
		}
		return cmp.Compare(b.value, a.value)
	})
}

// quickBound is an upper bound of the logit of any pairing of the edges,
// read off the best edge of each word: the search can be skipped when it
// falls short of the threshold. A record word no edge touches is left
// unpaired by every pairing, so its cost (sh.kMiss) is always paid: a
// name string of common words beside words the query lacks ("Royal
// Trading Ltd" for "Royal Limited") is then dropped without the search.
func quickBound(sh *nameShape, edges []edge) float64 {
	var best [maxScoredWords]float64
	var has uint64
	var kTouched uint64
	for i := range edges {
		e := &edges[i]
		v := e.share()
		for j := e.q0; j < e.q0+int8(e.qWords()); j++ {
			if has&(1<<j) == 0 || v > best[j] {
				best[j] = v
			}
			has |= 1 << j
		}
		kTouched |= e.kmask()
	}
	b := model.Intercept - sh.lambda
	for j := 0; j < sh.m; j++ {
		if has&(1<<j) != 0 {
			b += max(best[j], -sh.qMiss[j])
		} else {
			b -= sh.qMiss[j]
		}
	}
	for k := range sh.kMiss {
		if kTouched&(1<<k) == 0 {
			b -= sh.kMiss[k]
		}
	}
	all := uint64(1)<<sh.m - 1
	kAll := uint64(1)<<sh.n - 1
	if left := bits.OnesCount64(^(kTouched | sh.kOpt) & kAll); (has|sh.qOpt)&all == all && (left == 0 || left == 1 && sh.person) {
		b += maxBonus(sh.lambda) // one word left earns a share of it
	}
	return b
}

// run searches the pairing; it returns false when no edge exists.
func (ps *pairSearch) run(sh *nameShape, edges []edge) bool {
	ps.sh = sh
	ps.edges = edges
	orderEdges(ps.edges)
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
	// when negative).
	ps.ub = ps.ub[:0]
	for j := 0; j < sh.m; j++ {
		ps.ub = append(ps.ub, -sh.qMiss[j])
	}
	for i := range edges {
		e := &edges[i]
		v := e.share()
		for j := e.q0; j < e.q0+int8(e.qWords()); j++ {
			ps.ub[j] = max(ps.ub[j], v)
		}
	}
	for j := sh.m - 2; j >= 0; j-- {
		ps.ub[j] += ps.ub[j+1]
	}
	ps.ub = append(ps.ub, 0)
	ps.findTwins()
	ps.stack = ps.stack[:0]
	ps.found = false
	ps.steps = 0
	ps.dfs(0, 0, 0, 0, true)
	return len(edges) > 0
}

// noPick is the rank of "left unpaired", which the search tries last.
const noPick = math.MaxInt32

// findTwins marks the query words that are interchangeable: the same
// edges to the same record words, the same miss cost and optionality, and
// no joined edge. Swapping the record words of two twins changes no term
// of the logit, so the search keeps only the pairings in which a twin's
// edge ranks after its earlier twin's. That is the first of each set of
// swaps the search would reach anyway, so it returns what the full search
// returns, while a query that repeats a word ("al al al …") costs
// combinations instead of permutations.
func (ps *pairSearch) findTwins() {
	sh := ps.sh
	var joined uint64
	for i := range ps.edges {
		if e := &ps.edges[i]; e.q1 >= 0 {
			joined |= e.qmask()
		}
	}
	ps.twin = ps.twin[:0]
	ps.pick = ps.pick[:0]
	for j := 0; j < sh.m; j++ {
		ps.twin = append(ps.twin, -1)
		ps.pick = append(ps.pick, noPick)
		if joined&(1<<j) != 0 {
			continue
		}
		for t := j - 1; t >= 0; t-- {
			if joined&(1<<t) == 0 && ps.sameEdges(t, j) {
				ps.twin[j] = t
				break
			}
		}
	}
}

// sameEdges reports whether query words a and b pair alike with every
// record word, in the same order.
func (ps *pairSearch) sameEdges(a, b int) bool {
	sh := ps.sh
	if sh.qMiss[a] != sh.qMiss[b] || (sh.qOpt>>a)&1 != (sh.qOpt>>b)&1 {
		return false
	}
	ea, eb := ps.edges[ps.start[a]:ps.start[a+1]], ps.edges[ps.start[b]:ps.start[b+1]]
	if len(ea) != len(eb) {
		return false
	}
	for i := range ea {
		x, y := ea[i], eb[i]
		x.q0, y.q0 = 0, 0
		if x != y {
			return false
		}
	}
	return true
}

// dfs tries the edges of query word j onwards; canComplete is false once
// a word that is not a legal form was left unpaired, which rules the
// completeness term out.
func (ps *pairSearch) dfs(j int, qCov, kCov uint64, partial float64, canComplete bool) {
	sh := ps.sh
	ps.steps++
	if ps.found {
		if ps.bestEv.exact {
			return
		}
		// The record words left unpaired only lower the logit, and the
		// completeness term adds at most λ, and only while it can apply.
		b := partial + ps.ub[j] + model.Intercept - sh.lambda
		if canComplete {
			b += maxBonus(sh.lambda)
		}
		if b < ps.bestEv.logit-1e-9 {
			return
		}
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
		ps.dfs(j+1, qCov, kCov, partial, canComplete)
		return
	}
	first := ps.start[j]
	if t := ps.twin[j]; t >= 0 {
		if ps.pick[t] == noPick {
			first = ps.start[j+1] // the earlier twin is unpaired: so is this one
		} else {
			first += ps.pick[t] + 1
		}
	}
	for i := first; i < ps.start[j+1]; i++ {
		e := &ps.edges[i]
		if e.kmask()&kCov != 0 || e.q1 >= 0 && e.qmask()&qCov != 0 {
			continue
		}
		ps.pick[j] = i - ps.start[j]
		ps.stack = append(ps.stack, *e)
		ps.dfs(j+1, qCov|e.qmask(), kCov|e.kmask(), partial+e.value, canComplete)
		ps.stack = ps.stack[:len(ps.stack)-1]
	}
	ps.pick[j] = noPick
	ps.dfs(j+1, qCov, kCov, partial-sh.qMiss[j], canComplete && sh.qOpt&(1<<j) != 0)
}

// buildReason writes the pairing best of a name string for people and
// programs: qWords and kWords are the query's and the name string's words.
func buildReason(sh nameShape, ev evaluation, best []edge, qWords, kWords []string, field, name string) *ScoreReason {
	r := new(ScoreReason)
	writeReason(r, nil, sh, ev, best, qWords, kWords, field, name)
	return r
}

// reasonArena hands out the slices of many reasons from a few shared
// arrays: a check explaining a thousand hits made three or four slices
// for each.
type reasonArena struct {
	pairs []ScorePair
	words []ScoreWord
	// chunk is how many pairs or words each array holds (at least
	// minReasonChunk): about what the reasons still to write need.
	chunk int
}

// minReasonChunk is the fewest pairs or words an arena's array holds.
const minReasonChunk = 16

// takePairs returns an empty slice of capacity n, not nil. Its capacity
// ends where the next slice begins, so an append to it copies.
func (a *reasonArena) takePairs(n int) []ScorePair {
	if a == nil {
		return make([]ScorePair, 0, n)
	}
	return takeFrom(&a.pairs, n, max(a.chunk, minReasonChunk))
}

// takeWords is takePairs for words without a partner.
func (a *reasonArena) takeWords(n int) []ScoreWord {
	if a == nil {
		return make([]ScoreWord, 0, n)
	}
	return takeFrom(&a.words, n, max(a.chunk, minReasonChunk))
}

// takeFrom cuts an empty slice of capacity n from the end of *buf,
// starting a new array of at least chunk elements when *buf has no room.
func takeFrom[T any](buf *[]T, n, chunk int) []T {
	if cap(*buf)-len(*buf) < n || *buf == nil {
		*buf = make([]T, 0, max(n, chunk))
	}
	at := len(*buf)
	*buf = (*buf)[:at+n]
	return (*buf)[at : at : at+n]
}

// writeReason is buildReason into r, its slices taken from a (made
// apart when a is nil).
func writeReason(r *ScoreReason, a *reasonArena, sh nameShape, ev evaluation, best []edge, qWords, kWords []string, field, name string) {
	*r = reasonHead(sh.lambda, ev, field, name)
	writeReasonParts(r, a, sh, ev, best, qWords, kWords)
}

// reasonHead is the reason of a name string without its pairs and
// unpaired words: the terms of the evaluation ev.
func reasonHead(lambda float64, ev evaluation, field, name string) ScoreReason {
	return ScoreReason{
		Field: field, Name: name,
		Complete: round4(ev.bonus), Prior: round4(-lambda), Offset: model.Intercept, Script: round4(ev.script),
		Logit: round4(ev.logit), Score: scoreOf(ev),
	}
}

// writeReasonParts writes r's pairs and unpaired words, which the query
// and record words, their pairing best and ev's swap decide.
func writeReasonParts(r *ScoreReason, a *reasonArena, sh nameShape, ev evaluation, best []edge, qWords, kWords []string) {
	var qCov, kCov uint64
	for i := range best {
		qCov |= best[i].qmask()
		kCov |= best[i].kmask()
	}
	// The slices are made at their size: growing them was half of what
	// the reasons cost a check explaining a thousand hits.
	r.Pairs = a.takePairs(len(best))
	for i := range best {
		e := &best[i]
		q := ShowToken(qWords[e.q0])
		for j := e.q0 + 1; j <= e.q1; j++ {
			q += " " + ShowToken(qWords[j])
		}
		k := ShowToken(kWords[e.k0])
		for j := e.k0 + 1; j <= e.k1; j++ {
			k += " " + ShowToken(kWords[j])
		}
		r.Pairs = append(r.Pairs, ScorePair{Query: q, Record: k, Kind: kindName(e.kind), Edits: int(e.edits),
			Similarity: round4(e.sim), Weight: round4(e.weight), Contribution: round4(e.value)})
	}
	if n := sh.m - bits.OnesCount64(qCov&(1<<sh.m-1)); n > 0 {
		r.UnpairedQuery = a.takeWords(n)
	}
	for j := 0; j < sh.m; j++ {
		if qCov&(1<<j) == 0 {
			r.UnpairedQuery = append(r.UnpairedQuery, ScoreWord{Word: ShowToken(qWords[j]), Contribution: round4(-sh.qMiss[j])})
		}
	}
	if n := sh.n - bits.OnesCount64(kCov&(1<<sh.n-1)); n > 0 {
		r.UnpairedRecord = a.takeWords(n)
	}
	for k := 0; k < sh.n; k++ {
		if kCov&(1<<k) == 0 {
			c := -sh.kMiss[k]
			if sh.kOpt&(1<<k) == 0 {
				c += ev.swap // the swapped word: the one unpaired
			}
			r.UnpairedRecord = append(r.UnpairedRecord, ScoreWord{Word: ShowToken(kWords[k]), Contribution: round4(c)})
		}
	}
}

func wordTexts(ws []tokInfo) []string {
	out := make([]string, len(ws))
	for i := range ws {
		out[i] = ws[i].text
	}
	return out
}

// recordWeight is tokenWeight of record word t, which needs no tokInfo.
func recordWeight(t string, f, n int) float64 {
	return min(wordWeight(f, n), shareWeight(normalize.Common().Share(t)))
}
