package monitor

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// profileIndex finds the profiles a changed record matches without trying
// every profile. Profiles are queries; each of a query's token lists (one
// per spelling of its hyphenated compounds, raw for individual records and
// with legal forms canonicalised for the others: the engine's variants) is
// a variant, posted under one anchor token: the one fewest profiles shared
// when it was added, so that common names do not make long lists.
//
// A record is probed by looking its tokens up in the dictionary of profile
// tokens (fuzzily, within the widest radius any fuzzy_search allows),
// noting for every profile token hit the least distance to a record token.
// A variant posted under a hit token is a candidate when every one of its
// tokens was hit close enough for that profile's fuzzy_search. That is a
// necessary condition of the engine's rule (every query token pairs with a
// different token of one name string), so no match is missed; each
// candidate is then verified with the engine's own matcher, so nothing
// that a check would not return is reported.
type profileIndex struct {
	dict      *tokenDict
	slots     []*slot // nil once removed or replaced
	byKey     map[string]uint32
	variants  []variant
	vtoks     []uint32   // tokens of variant v: vtoks[v.off : v.off+v.ntok]
	freq      []uint32   // token id → variants holding it, for anchor choice
	postNames [][]uint32 // anchor token id → variants of names profiles
	postAll   [][]uint32 // anchor token id → variants of search_all profiles
	maxFuzzy  int
	hasAll    bool // some profile uses search_all: records need their bags
	live      int
	dead      int
	// work counts the profiles tried against a record state (verified or
	// scored) since the index was built: the work a change set costs,
	// which the cost limits bound.
	work atomic.Int64
	// scored are the slots of scored profiles. They have no variants: a
	// score depends on the whole list's word counts, so every changed
	// record is scored against each of them with the list's index
	// (matchScored): each profile's query prepared once per change set.
	scored []uint32
}

// slot is one indexed profile.
type slot struct {
	p  *Profile
	cq *engine.CompiledQuery // nil for a scored profile
	q  query.Query           // the query of a scored profile
}

// variant is one token list of a profile's query.
type variant struct {
	slot  uint32
	off   uint32 // first token in vtoks
	ntok  uint16 // distinct tokens
	fuzzy uint8
	kind  query.Kind
	// indiv: the list applies to INDIVIDUAL records (raw tokens); other:
	// to every other record (legal forms canonicalised).
	indiv, other bool
}

func newProfileIndex() *profileIndex {
	return &profileIndex{dict: newTokenDict(), byKey: map[string]uint32{}}
}

func indexKey(owner, id string) string { return owner + "\x00" + id }

// put indexes p, replacing an earlier version of it. A profile whose query
// cannot match anything (only legal forms) is kept but has no variants.
func (ix *profileIndex) put(p *Profile) error {
	// A profile stored before the cost limits: too many repeats of a word
	// can match nothing until registered again, a threshold below the
	// floor is raised to it.
	if err := p.checkRepeats(); err != nil {
		return err
	}
	if p.Match == query.Scored {
		q := p.Query()
		if err := query.Validate(q); err != nil {
			return err
		}
		if q.MinScore != 0 && q.MinScore < MinProfileScore {
			q.MinScore = MinProfileScore
		}
		ix.remove(p.Owner, p.ID)
		id := uint32(len(ix.slots))
		ix.slots = append(ix.slots, &slot{p: p, q: q})
		ix.byKey[indexKey(p.Owner, p.ID)] = id
		ix.live++
		ix.scored = append(ix.scored, id)
		return nil
	}
	cq, err := engine.CompileQuery(p.Query())
	if err != nil {
		return err
	}
	ix.remove(p.Owner, p.ID)
	id := uint32(len(ix.slots))
	ix.slots = append(ix.slots, &slot{p: p, cq: cq})
	ix.byKey[indexKey(p.Owner, p.ID)] = id
	ix.live++

	text, all := p.Names, false
	if text == "" {
		text, all = p.SearchAll, true
	}
	raw := normalize.QueryVariants(text, false)
	legal := normalize.QueryVariants(text, true)
	if onlyLegalForms(legal) {
		return nil
	}
	type acc struct {
		toks         []string
		indiv, other bool
	}
	var lists []*acc
	seen := map[string]*acc{}
	addList := func(toks []string, indiv bool) {
		d := slices.Clone(toks)
		slices.Sort(d)
		d = slices.Compact(d)
		k := joinTokens(d)
		a := seen[k]
		if a == nil {
			a = &acc{toks: d}
			seen[k] = a
			lists = append(lists, a)
		}
		if indiv {
			a.indiv = true
		} else {
			a.other = true
		}
	}
	if p.Kind != query.Entity {
		// Only individual checks return INDIVIDUAL records.
		for _, v := range raw {
			addList(v, true)
		}
	}
	for _, v := range legal {
		addList(v, false)
	}
	for _, a := range lists {
		if len(a.toks) == 0 || len(a.toks) > 65535 {
			continue
		}
		ix.addVariant(id, p, a.toks, a.indiv, a.other, all)
	}
	ix.maxFuzzy = max(ix.maxFuzzy, p.Fuzzy)
	ix.hasAll = ix.hasAll || all
	return nil
}

// addVariant indexes one token list of profile p, stored at slot: its
// tokens, their frequencies and the posting of its anchor, the rarest of
// them. all says it is a search_all profile.
func (ix *profileIndex) addVariant(slot uint32, p *Profile, toks []string, indiv, other, all bool) {
	vid := uint32(len(ix.variants))
	off := uint32(len(ix.vtoks))
	anchor := uint32(0)
	for i, t := range toks {
		tid := ix.dict.intern(t)
		for len(ix.freq) <= int(tid) {
			ix.freq = append(ix.freq, 0)
			ix.postNames = append(ix.postNames, nil)
			ix.postAll = append(ix.postAll, nil)
		}
		ix.dict.allowFuzzy(tid, p.Fuzzy)
		ix.vtoks = append(ix.vtoks, tid)
		if i == 0 || ix.rarer(tid, anchor) {
			anchor = tid
		}
	}
	for _, tid := range ix.vtoks[off:] {
		ix.freq[tid]++
	}
	ix.variants = append(ix.variants, variant{
		slot: slot, off: off, ntok: uint16(len(toks)), fuzzy: uint8(p.Fuzzy),
		kind: p.Kind, indiv: indiv, other: other,
	})
	if all {
		ix.postAll[anchor] = append(ix.postAll[anchor], vid)
	} else {
		ix.postNames[anchor] = append(ix.postNames[anchor], vid)
	}
}

// rarer reports whether token a makes a better anchor than b: fewer
// variants hold it, or as many and it is longer (long tokens are rarer
// among records too, and pair fuzzily with fewer of them).
func (ix *profileIndex) rarer(a, b uint32) bool {
	if ix.freq[a] != ix.freq[b] {
		return ix.freq[a] < ix.freq[b]
	}
	return ix.dict.Runes(a) > ix.dict.Runes(b)
}

func joinTokens(t []string) string {
	n := 0
	for _, s := range t {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range t {
		b = append(b, s...)
		b = append(b, 0)
	}
	return string(b)
}

// onlyLegalForms is the engine's rule that a query made of nothing but
// legal forms matches nothing.
func onlyLegalForms(variants [][]string) bool {
	for _, v := range variants {
		for _, t := range v {
			if !normalize.IsLegalForm(t) {
				return false
			}
		}
	}
	return true
}

// remove drops a profile from the index; its postings stay as tombstones
// until compact.
func (ix *profileIndex) remove(owner, id string) {
	k := indexKey(owner, id)
	if s, ok := ix.byKey[k]; ok {
		ix.slots[s] = nil
		delete(ix.byKey, k)
		ix.live--
		ix.dead++
	}
}

// compacted returns ix rebuilt without tombstones when they outnumber the
// live profiles, else ix itself.
func (ix *profileIndex) compacted() *profileIndex {
	if ix.dead < 1024 || ix.dead < ix.live {
		return ix
	}
	fresh := newProfileIndex()
	for _, s := range ix.slots {
		if s != nil {
			fresh.put(s.p) // compiled once before: cannot fail now
		}
	}
	return fresh
}

// probe is one record state to match against the profiles: its distinct
// name-string tokens and, when search_all profiles exist, its search_all
// words (name-field words pair fuzzily, the others only exactly), tokenised
// as the engine tokenises records.
type probe struct {
	rec      *record.Record
	names    []string
	bagNames []string
	bagOther []string
	matched  []uint32 // slots that match, filled by match
}

func newProbe(r *record.Record) *probe { return &probe{rec: r} }

// tokenize fills the probe's token lists; matchAll runs it on every core.
func (p *probe) tokenize(withBag bool) {
	r := p.rec
	legal := r.EntityType != record.EntityIndividual
	p.names = p.names[:0]
	for _, ns := range engine.NameStrings(r) {
		p.names = append(p.names, normalize.RecordName(ns.Text, legal).Tokens...)
	}
	p.names = distinct(p.names)
	if withBag {
		p.bagNames, p.bagOther = p.bagNames[:0], p.bagOther[:0]
		r.TextFields(func(f record.Field) {
			for _, v := range f.Values {
				if f.Name {
					p.bagNames = append(p.bagNames, normalize.RecordName(v, legal).Tokens...)
				} else {
					p.bagOther = normalize.AppendWords(p.bagOther, v)
				}
			}
		})
		p.bagNames = distinct(p.bagNames)
		p.bagOther = distinct(p.bagOther)
	}
}

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// matchScratch is one worker's scratch, sized to the index.
type matchScratch struct {
	best     []uint8 // per token: least distance of a partner, 255 none
	touchedT []uint32
	seen     map[uint32]bool
}

func (ix *profileIndex) newScratch() *matchScratch {
	s := &matchScratch{best: make([]uint8, ix.dict.Len()), seen: map[uint32]bool{}}
	for i := range s.best {
		s.best[i] = 255
	}
	return s
}

// fuzzyHits gives the dictionary hits of a record token that may pair
// fuzzily; the caller looked them up once per change set.
type fuzzyHits func(tok string) []hit

// match fills p.matched with the slots of the profiles p's record matches.
func (ix *profileIndex) match(p *probe, hits fuzzyHits, s *matchScratch) {
	p.matched = p.matched[:0]
	clear(s.seen)
	et := p.rec.EntityType
	indiv := et == record.EntityIndividual
	var prepared *engine.PreparedRecord
	consider := func(v *variant) {
		sl := ix.slots[v.slot]
		if sl == nil || s.seen[v.slot] {
			return
		}
		s.seen[v.slot] = true
		if !sl.p.Access.Includes(p.rec.SourceID, p.rec.SourceType) {
			return
		}
		if prepared == nil {
			prepared = engine.PrepareRecord(p.rec)
		}
		ix.work.Add(1)
		if _, ok := sl.cq.Match(prepared); ok {
			p.matched = append(p.matched, v.slot)
		}
	}
	// candidates checks the variants posted under the hit tokens: every
	// token of a variant needs a partner within its profile's fuzzy_search.
	candidates := func(post [][]uint32) {
		for _, t := range s.touchedT {
		variants:
			for _, vid := range post[t] {
				v := &ix.variants[vid]
				if indiv && !v.indiv || !indiv && !v.other || !query.KindAllows(v.kind, et) {
					continue
				}
				for _, u := range ix.vtoks[v.off : v.off+uint32(v.ntok)] {
					if int(s.best[u]) > min(int(v.fuzzy), int(ix.dict.capEdits[u])) {
						continue variants
					}
				}
				consider(v)
			}
		}
		for _, t := range s.touchedT {
			s.best[t] = 255
		}
		s.touchedT = s.touchedT[:0]
	}
	note := func(h hit) {
		if s.best[h.tok] == 255 {
			s.touchedT = append(s.touchedT, h.tok)
		}
		if h.dist < s.best[h.tok] {
			s.best[h.tok] = h.dist
		}
	}
	for _, t := range p.names {
		for _, h := range hits(t) {
			note(h)
		}
	}
	candidates(ix.postNames)
	if ix.hasAll {
		for _, t := range p.bagNames {
			for _, h := range hits(t) {
				note(h)
			}
		}
		for _, t := range p.bagOther {
			if id, ok := ix.dict.ID(t); ok {
				note(hit{tok: id})
			}
		}
		candidates(ix.postAll)
	}
	slices.Sort(p.matched)
}

// matchAll matches every probe, on every core: record tokens are looked up
// in the dictionary once per change set, then candidates are found and
// verified in parallel.
func (ix *profileIndex) matchAll(probes []*probe) {
	if ix.live == 0 || len(probes) == 0 {
		return
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	parallel(len(probes), workers, func(lo, hi int) {
		for _, p := range probes[lo:hi] {
			p.tokenize(ix.hasAll)
		}
	})
	// Distinct tokens that may pair fuzzily.
	set := map[string]struct{}{}
	for _, p := range probes {
		for _, t := range p.names {
			set[t] = struct{}{}
		}
		for _, t := range p.bagNames {
			set[t] = struct{}{}
		}
	}
	toks := make([]string, 0, len(set))
	for t := range set {
		toks = append(toks, t)
	}
	results := make([][]hit, len(toks))
	parallel(len(toks), workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if h := ix.dict.lookup(nil, toks[i], ix.maxFuzzy); len(h) > 0 {
				results[i] = h
			}
		}
	})
	table := make(map[string][]hit, len(toks))
	for i, t := range toks {
		if results[i] != nil {
			table[t] = results[i]
		}
	}
	hits := func(t string) []hit { return table[t] }
	parallel(len(probes), workers, func(lo, hi int) {
		s := ix.newScratch()
		for i := lo; i < hi; i++ {
			ix.match(probes[i], hits, s)
		}
	})
}

// hasScored reports whether a live scored profile is indexed.
func (ix *profileIndex) hasScored() bool {
	for _, id := range ix.scored {
		if ix.slots[id] != nil {
			return true
		}
	}
	return false
}

// matchScored adds to every probe the scored profiles its record is a hit
// of: the profile's source access and query (filters, kind, threshold),
// the record scored with the word statistics of eix, the index of the
// list the change set applies to (engine.Index.ScoreUnindexed).
func (ix *profileIndex) matchScored(eix *engine.Index, probes []*probe) error {
	live := ix.scored[:0:0]
	for _, id := range ix.scored {
		if ix.slots[id] != nil {
			live = append(live, id)
		}
	}
	if len(live) == 0 || len(probes) == 0 {
		return nil
	}
	if eix == nil {
		return errors.New("scored search profiles need the list's index to score changed records (monitor.Options.Index)")
	}
	// Each profile's query is prepared once (its partners looked up in
	// the index), then every record state is scored against it.
	prepared := make([]*engine.ScoredQuery, len(live))
	errs := make([]error, len(live))
	workers := max(1, runtime.GOMAXPROCS(0))
	parallel(len(live), workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sl := ix.slots[live[i]]
			if prepared[i], errs[i] = eix.PrepareScoredQuery(sl.q); errs[i] != nil {
				errs[i] = fmt.Errorf("profile %q: %w", sl.p.ID, errs[i])
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	parallel(len(probes), workers, func(lo, hi int) {
		for _, p := range probes[lo:hi] {
			added := false
			rec := engine.PrepareRecord(p.rec)
			for i, id := range live {
				if !ix.slots[id].p.Access.Includes(p.rec.SourceID, p.rec.SourceType) {
					continue
				}
				ix.work.Add(1)
				if _, ok := prepared[i].ScorePrepared(rec); ok {
					p.matched = append(p.matched, id)
					added = true
				}
			}
			if added {
				slices.Sort(p.matched)
			}
		}
	})
	return nil
}

// parallel runs fn over [0, n) split into chunks, at most workers at once.
func parallel(n, workers int, fn func(lo, hi int)) {
	if n == 0 {
		return
	}
	chunk := max(64, (n+workers*4-1)/(workers*4))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for lo := range next {
				fn(lo, min(lo+chunk, n))
			}
		})
	}
	for lo := 0; lo < n; lo += chunk {
		next <- lo
	}
	close(next)
	wg.Wait()
}
