package book

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// reverse is the index of candidates over a book's customers, built once
// for any number of change sets. Its look-ups may run concurrently.
type reverse struct {
	n      int // customers
	fuzzy  int
	d      *dict.Dict
	vars   []revVariant
	vtoks  []uint32
	post   [][]uint32 // anchor token id -> variants
	always []int      // customers that are always candidates
}

// revVariant is one token list of a customer's name.
type revVariant struct {
	cust   int32
	off, n uint32
}

// newReverse indexes the customers' names for strict mode at fuzzy.
func newReverse(customers []Customer, fuzzy int) *reverse {
	workers := max(1, runtime.GOMAXPROCS(0))
	lists := make([][][]string, len(customers))
	parallel(len(customers), workers, func(i int) {
		name := customers[i].Name
		lists[i] = append(normalize.QueryVariants(name, false), normalize.QueryVariants(name, true)...)
	})
	freq := map[string]int32{}
	for _, ls := range lists {
		for _, l := range ls {
			for _, t := range l {
				freq[t]++
			}
		}
	}
	rv := &reverse{n: len(customers), fuzzy: fuzzy, d: dict.New()}
	d := rv.d
	for i, ls := range lists {
		for _, l := range ls {
			if len(l) == 0 {
				if k := len(rv.always); k == 0 || rv.always[k-1] != i {
					rv.always = append(rv.always, i)
				}
				continue
			}
			v := revVariant{cust: int32(i), off: uint32(len(rv.vtoks)), n: uint32(len(l))}
			anchor := l[0]
			for _, t := range l {
				if freq[t] < freq[anchor] || freq[t] == freq[anchor] && len(t) > len(anchor) {
					anchor = t
				}
				id := d.Intern(t)
				rv.vtoks = append(rv.vtoks, id)
				if engine.MaxEdits(fuzzy, t) > 0 {
					d.Index(id)
				}
			}
			aid, _ := d.ID(anchor)
			for len(rv.post) < d.Len() {
				rv.post = append(rv.post, nil)
			}
			rv.post[aid] = append(rv.post[aid], uint32(len(rv.vars)))
			rv.vars = append(rv.vars, v)
		}
		lists[i] = nil
	}
	return rv
}

// candidates returns, ascending, the indices of the customers that may
// match one of the changed records in strict mode at rv's fuzziness:
// the reverse direction of a check, as monitoring's profile index runs it. Each
// customer's name is tokenised as the engine tokenises a query (one token
// list per spelling of its hyphenated compounds, raw and with legal forms
// canonicalised: the variants of individual and of other records), and
// each list is posted under one anchor token, the one fewest customers
// hold. The changed records' name-string tokens are then looked up among
// the customers' tokens, within the edits the engine would allow the pair,
// and a customer is a candidate when, for one name string, every token of
// one of its lists (anchor first) has a partner among the string's tokens.
//
// Strict mode pairs every query token with a different token of one name
// string (docs/MATCHING.md), so a customer that matches passes that test:
// no match is lost. A candidate is then
// screened with batch's rules, so nothing batch would not report is
// reported. A customer with a token list the engine could not anchor (an
// empty one) is always a candidate.
func (rv *reverse) candidates(changed []*record.Record) []int {
	workers := max(1, runtime.GOMAXPROCS(0))
	toks, names := recordTokens(changed)
	partners := rv.tokenPartners(toks, workers)
	always := make([]bool, rv.n)
	for _, i := range rv.always {
		always[i] = true
	}
	for _, mine := range rv.markCandidates(names, partners, workers) {
		for i, m := range mine {
			always[i] = always[i] || m
		}
	}
	var out []int
	for i, c := range always {
		if c {
			out = append(out, i)
		}
	}
	return out
}

// recordTokens returns the changed records' distinct tokens and their
// name strings, tokenised as the engine tokenises records (name string ->
// its tokens, as indices into toks).
func recordTokens(changed []*record.Record) (toks []string, names [][]int32) {
	tokID := map[string]int32{}
	for _, r := range changed {
		legal := r.EntityType != record.EntityIndividual
		for _, ns := range engine.NameStrings(r) {
			var ids []int32
			for _, t := range normalize.RecordName(ns.Text, legal).Tokens {
				id, ok := tokID[t]
				if !ok {
					id = int32(len(toks))
					tokID[t] = id
					toks = append(toks, t)
				}
				ids = append(ids, id)
			}
			names = append(names, ids)
		}
	}
	return toks, names
}

// tokenPartners returns the customer tokens each record token may pair
// with.
func (rv *reverse) tokenPartners(toks []string, workers int) [][]uint32 {
	d, fuzzy := rv.d, rv.fuzzy
	partners := make([][]uint32, len(toks))
	parallel(len(toks), workers, func(i int) {
		t := toks[i]
		var found []uint32
		if id, ok := d.ID(t); ok {
			found = append(found, id)
		}
		if radius := engine.MaxEdits(fuzzy, t); radius > 0 {
			d.Lookup(t, radius, func(id uint32, dist int) {
				if dist > 0 && dist <= engine.MaxEdits(fuzzy, d.Token(id)) {
					found = append(found, id)
				}
			})
		}
		partners[i] = found
	})
	return partners
}

// markCandidates marks, one slice per worker, the customers with a token
// list every token of which has a partner in one name string: looked at
// for the lists posted under the anchors a name string hits.
func (rv *reverse) markCandidates(names [][]int32, partners [][]uint32, workers int) [][]bool {
	d, post, vars, vtoks := rv.d, rv.post, rv.vars, rv.vtoks
	marks := make([][]bool, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			mine := make([]bool, rv.n)
			stamp := make([]uint32, d.Len()) // name string number + 1 that hit the token
			for {
				k := int(next.Add(1)) - 1
				if k >= len(names) {
					break
				}
				gen := uint32(k + 1)
				for _, ti := range names[k] {
					for _, id := range partners[ti] {
						stamp[id] = gen
					}
				}
				for _, ti := range names[k] {
					for _, id := range partners[ti] {
						if int(id) >= len(post) {
							continue
						}
					variants:
						for _, vi := range post[id] {
							v := vars[vi]
							if mine[v.cust] {
								continue
							}
							for _, t := range vtoks[v.off : v.off+v.n] {
								if stamp[t] != gen {
									continue variants
								}
							}
							mine[v.cust] = true
						}
					}
				}
			}
			marks[w] = mine
		})
	}
	wg.Wait()
	return marks
}

// parallel calls fn for every index below n, on workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				fn(i)
			}
		})
	}
	wg.Wait()
}
