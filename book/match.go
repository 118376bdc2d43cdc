package book

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// Match is one customer a changed record matches.
type Match struct {
	CustomerID string   `json:"customer_id"`
	RecordID   string   `json:"record_id"`
	Reason     string   `json:"reason"`
	Field      string   `json:"matched_field"`
	Name       string   `json:"matched_name"`
	Score      *float64 `json:"score,omitempty"` // scored mode only
}

// Result is the outcome of matching a change set against the book.
type Result struct {
	Matches []Match
	// Skipped counts the customers the screener rejects (a date or a
	// country it no longer accepts, a name it cannot search): they are
	// left out, never the change set. SkippedIDs are the first of them,
	// by id.
	Skipped    int
	SkippedIDs []string
}

// maxSkippedIDs bounds Result.SkippedIDs.
const maxSkippedIDs = 20

// matcher matches change sets against one state of the book, keeping the
// reverse indexes it builds for the next change set.
type matcher struct {
	customers []Customer
	cfg       Config
	mu        sync.Mutex
	rv        *reverse       // strict mode's, built on first use
	srv       *scoredReverse // scored mode's, built on first use
}

func newMatcher(customers []Customer, cfg Config) (*matcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &matcher{customers: customers, cfg: cfg}, nil
}

func (m *matcher) strictReverse() *reverse {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rv == nil {
		m.rv = newReverse(m.customers, m.cfg.Fuzzy)
	}
	return m.rv
}

func (m *matcher) scoredReverse(sc *batch.Screener) *scoredReverse {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.srv == nil {
		m.srv = newScoredReverse(m.customers, sc)
	}
	return m.srv
}

// match returns the matches of the changed records (the records a
// change set added or updated, as they are after it) against customers in
// the book's configuration, sorted by customer id and record id. sources
// is the store's catalogue and version its version; db is the index of the
// whole database, whose word statistics scored mode weighs words with
// (nil: those of the changed records, see below).
//
// Strict mode builds an engine index over the changed records, as batch
// --since does, and screens with batch's per-customer rules only the
// customers an index of the customers' names finds for the changed
// records (candidates: the reverse direction, which loses no match).
// Scored mode finds its candidates by a reverse index of its own
// (scoredReverse) and scores each against the changed records it may
// pair, with db's statistics: a customer and a record score what a full
// batch over db gives them, whatever the size of the change set. Without
// db a scored book weighs words among the changed records only, as batch
// --since does, and keeps the strict rule's matches too, so that a small
// change set (where every word is rare) cannot hide an identical name.
//
// A customer the screener rejects is skipped and counted, never an error.
// The cost does not depend on the size of the database.
func (m *matcher) match(changed []*record.Record, sources []record.Source, version string, db *engine.Index) (Result, error) {
	if len(changed) == 0 || len(m.customers) == 0 {
		return Result{}, nil
	}
	if m.cfg.Match == "scored" && db != nil {
		return m.matchScored(changed, db)
	}
	res, err := m.matchStrictRules(m.cfg, changed, sources, version)
	if err != nil || m.cfg.Match == "strict" {
		return res, err
	}
	// Scored without the database's statistics: the strict rule at the
	// book's fuzziness needs no weights, so its matches are kept too.
	strict, err := m.matchStrictRules(Config{Match: "strict", Fuzzy: m.cfg.Fuzzy}, changed, sources, version)
	if err != nil {
		return Result{}, err
	}
	res.Matches = unionMatches(res.Matches, strict.Matches)
	return res, nil
}

// matchStrictRules screens customers with batch's screener over an index
// of the changed records: in strict mode the candidates of the reverse
// index, in scored mode (without the database's statistics) every
// customer.
func (m *matcher) matchStrictRules(cfg Config, changed []*record.Record, sources []record.Source, version string) (Result, error) {
	sc, err := cfg.Screener(screen.New(changed, sources, version).Index())
	if err != nil {
		return Result{}, err
	}
	customers := m.customers
	all := sc.Match != query.Strict
	var todo []int
	n := len(customers)
	workers := max(1, runtime.GOMAXPROCS(0))
	if !all {
		todo = m.strictReverse().candidates(changed)
		n = len(todo)
		// Each changed record is tokenised once for the explanations of
		// its hits, not once per customer it matches.
		prepared := make([]*engine.PreparedRecord, len(changed))
		parallel(len(changed), workers, func(i int) { prepared[i] = engine.PrepareRecord(changed[i]) })
		sc.Prepared = make(map[string]*engine.PreparedRecord, len(changed))
		for _, p := range prepared {
			sc.Prepared[p.Record().ID] = p
		}
	}
	parts := make([][]Match, workers)
	skips := make([][]string, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < n; k += workers {
				i := k
				if !all {
					i = todo[k]
				}
				c := &customers[i]
				s, err := sc.Screen(c.Row())
				if err != nil {
					errs[w] = fmt.Errorf("customer %s: %w", c.ID, err)
					return
				}
				if s.Reject != nil {
					skips[w] = append(skips[w], c.ID)
					continue
				}
				for _, h := range s.Hits {
					parts[w] = append(parts[w], Match{CustomerID: c.ID, RecordID: h.RecordID, Reason: h.Reason,
						Field: h.MatchedField, Name: h.MatchedName, Score: h.Score})
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	return collect(parts, skips), nil
}

// matchScored scores the candidates of the scored reverse index against
// the changed records they may pair, with db's word statistics.
func (m *matcher) matchScored(changed []*record.Record, db *engine.Index) (Result, error) {
	sc, err := m.cfg.Screener(nil)
	if err != nil {
		return Result{}, err
	}
	rv := m.scoredReverse(sc)
	workers := max(1, runtime.GOMAXPROCS(0))
	// The scorer weighs the changed records' words once, and keeps of each
	// customer word's partners those among them. It needs nothing of the
	// candidates, so it is built while they are found: building it (the
	// records' own index) runs mostly on one goroutine, as do parts of
	// finding the candidates, and the two overlap.
	var scorer *engine.ChangeSetScorer
	built := make(chan struct{})
	go func() {
		defer close(built)
		prepared := make([]*engine.PreparedRecord, len(changed))
		parallel(len(changed), workers, func(i int) { prepared[i] = engine.PrepareRecord(changed[i]) })
		scorer = db.ChangeSetScorer(prepared)
	}()
	st := db.ScoredStats()
	custs, recs, marked := rv.scoredPairsMarked(changed, st, sc.MinScore)
	st.Release()
	<-built
	defer scorer.Release()
	// The scorer need not look the customers' words up among the changed
	// records' words: the reverse look-up found those they pair with.
	scorer.SetPaired(func(w string) (bool, bool) { return rv.paired(marked, w) })
	parts := make([][]Match, workers)
	skips := make([][]string, workers)
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			// Each worker looks up the words its customers share once.
			prep := scorer.Preparer()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(custs) {
					return
				}
				c := &m.customers[custs[k]]
				// Prepare parses the check and returns a bad parameter as
				// a *query.ParamError, skipped below as Query would reject
				// it: one parse of each candidate instead of two.
				q, rej := sc.QueryUnchecked(c.Row())
				if rej != nil {
					skips[w] = append(skips[w], c.ID)
					continue
				}
				pq, err := prep.Prepare(q)
				if err != nil {
					var pe *query.ParamError
					if errors.As(err, &pe) {
						skips[w] = append(skips[w], c.ID)
						continue
					}
					errs[w] = fmt.Errorf("customer %s: %w", c.ID, err)
					return
				}
				for _, r := range recs[k] {
					h, ok := pq.Score(int(r))
					if !ok {
						continue
					}
					score := h.Score
					mt := Match{CustomerID: c.ID, RecordID: changed[r].ID, Field: h.Field, Score: &score}
					if h.Reason != nil {
						mt.Field, mt.Name, mt.Reason = h.Reason.Field, h.Reason.Name, h.Reason.Summary()
					}
					parts[w] = append(parts[w], mt)
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	// The customers whose check cannot be made are skipped whether or not
	// a record reached them.
	for _, i := range rv.bad {
		skips[0] = append(skips[0], m.customers[i].ID)
	}
	return collect(parts, skips), nil
}

// collect sorts the matches of the workers and counts the skipped. Each
// worker's part is sorted on its own goroutine (a scored worker's part is
// most often sorted already), then the parts are merged: sorting hundreds
// of thousands of matches on one core was a serial tail of a change set.
func collect(parts [][]Match, skips [][]string) Result {
	var res Result
	var ids []string
	for _, s := range skips {
		ids = append(ids, s...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	res.Skipped, res.SkippedIDs = len(ids), ids[:min(len(ids), maxSkippedIDs)]
	parallel(len(parts), len(parts), func(i int) {
		if !slices.IsSortedFunc(parts[i], compareMatches) {
			slices.SortFunc(parts[i], compareMatches)
		}
	})
	res.Matches = mergeMatches(parts)
	return res
}

// compareMatches orders matches by customer id, then record id.
func compareMatches(a, b Match) int {
	return cmp.Or(cmp.Compare(a.CustomerID, b.CustomerID), cmp.Compare(a.RecordID, b.RecordID))
}

// mergeMatches merges parts, each sorted by compareMatches, into one
// sorted slice.
func mergeMatches(parts [][]Match) []Match {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return nil
	}
	out := make([]Match, 0, n)
	heads := make([]int, len(parts))
	for len(out) < n {
		best := -1
		for i, p := range parts {
			if heads[i] < len(p) && (best < 0 || compareMatches(p[heads[i]], parts[best][heads[best]]) < 0) {
				best = i
			}
		}
		out = append(out, parts[best][heads[best]])
		heads[best]++
	}
	return out
}

// watcher matches change sets against the book, keeping the customers and
// their reverse indexes from one change set to the next while the book
// stays as it was (its bucket's sequence, which every import and removal
// advances, is the same). Change sets are applied one at a time, but the
// lock keeps it safe however it is called.
type watcher struct {
	mu     sync.Mutex
	seq    uint64
	loaded bool
	m      *matcher
	shard  Shard // the customers screened: the whole book when zero (shard.go)
}

func (w *watcher) match(tx *store.Tx, a *store.Applied, db *engine.Index) (Result, error) {
	var changed []*record.Record
	for i := range a.Changes {
		if c := &a.Changes[i]; c.After != nil && (c.Effect == store.EffectAdd || c.Effect == store.EffectUpdate) {
			changed = append(changed, c.After)
		}
	}
	b := store.BookCustomers.Bucket(tx)
	if len(changed) == 0 || b == nil {
		return Result{}, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.loaded || w.seq != b.Sequence() {
		customers, cfg, err := LoadTx(tx)
		if err != nil {
			return Result{}, err
		}
		for i := range customers {
			customers[i].Extra = nil // not screened; the alerts read the stored customer
		}
		m, err := newMatcher(w.shard.keep(customers), cfg)
		if err != nil {
			return Result{}, err
		}
		w.seq, w.loaded, w.m = b.Sequence(), true, m
	}
	return w.m.match(changed, nil, a.Version, db)
}

// unionMatches adds to a the matches of b on a (customer, record) pair a
// lacks, sorted as matcher.match sorts.
func unionMatches(a, b []Match) []Match {
	type pair struct{ customer, record string }
	seen := make(map[pair]bool, len(a))
	for _, m := range a {
		seen[pair{m.CustomerID, m.RecordID}] = true
	}
	for _, m := range b {
		if !seen[pair{m.CustomerID, m.RecordID}] {
			a = append(a, m)
		}
	}
	slices.SortFunc(a, func(x, y Match) int {
		return cmp.Or(cmp.Compare(x.CustomerID, y.CustomerID), cmp.Compare(x.RecordID, y.RecordID))
	})
	return a
}
