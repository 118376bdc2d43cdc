package media

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// chainMentions is the former search of mentions, kept as the reference:
// it grows every chain of token sets and is exponential in repeated
// words, so tests run it on small k only.
func chainMentions(events []event, k int) bool {
	events = slices.Clone(events)
	sort.Slice(events, func(a, b int) bool { return events[a].pos < events[b].pos })
	full := uint32(1)<<k - 1
	type chain struct{ mask, last uint32 }
	var chains, grown []chain
	for _, e := range events {
		n := 0
		for _, ch := range chains {
			if e.pos-ch.last <= MaxGap {
				chains[n] = ch
				n++
			}
		}
		chains = chains[:n]
		grown = grown[:0]
		for m := e.mask; m != 0; m &= m - 1 {
			bit := m & -m
			if bit == full {
				return true
			}
			grown = append(grown, chain{bit, e.pos})
			for _, ch := range chains {
				if ch.mask&bit != 0 || ch.last >= e.pos {
					continue
				}
				if ch.mask|bit == full {
					return true
				}
				grown = append(grown, chain{ch.mask | bit, e.pos})
			}
		}
		for _, g := range grown {
			if !slices.Contains(chains, g) {
				chains = append(chains, g)
			}
		}
	}
	return false
}

// TestMentionsAgreesWithChains: on random events (few terms, each standing
// for some tokens, often for the same ones) the programme answers as the
// reference.
func TestMentionsAgreesWithChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 28))
	for n := range 4000 {
		k := 1 + rng.IntN(6)
		terms := make([]uint32, 1+rng.IntN(4))
		for i := range terms {
			terms[i] = uint32(rng.IntN(1<<k-1) + 1)
		}
		var evs []event
		pos := uint32(0)
		for range rng.IntN(14) {
			pos += uint32(rng.IntN(5))
			evs = append(evs, event{pos: pos, mask: terms[rng.IntN(len(terms))]})
		}
		want := chainMentions(evs, k)
		if got := mentions(slices.Clone(evs), k); got != want {
			t.Fatalf("case %d: k %d events %v: %v, want %v", n, k, evs, got, want)
		}
	}
}

// TestMentionsWorkBound: one word repeated 16 times, against an article
// of that word only, costs steps linear in the positions, not 2^16 chains.
func TestMentionsWorkBound(t *testing.T) {
	const k = MaxQueryWords
	for _, n := range []int{k - 1, k, 1000} {
		evs := make([]event, n)
		for i := range evs {
			evs[i] = event{pos: uint32(i), mask: 1<<k - 1}
		}
		m := newMentionMatcher([]uint32{1<<k - 1}, k)
		got := m.mentions(evs)
		if got != (n >= k) {
			t.Errorf("%d positions: %v", n, got)
		}
		// Per position: the empty chain and at most k+1 states, one group.
		if bound := n * 2 * (k + 2); m.steps > bound {
			t.Errorf("%d positions: %d steps, more than %d", n, m.steps, bound)
		}
	}
	// Two words 8 times each: 9×9 states at most.
	evs := make([]event, 200)
	for i := range evs {
		evs[i] = event{pos: uint32(i), mask: 0xff << (8 * (i % 2))}
	}
	m := newMentionMatcher([]uint32{0xff, 0xff00}, 16)
	if !m.mentions(evs) {
		t.Error("alternating words: no mention")
	}
	if bound := len(evs) * 3 * 82; m.steps > bound {
		t.Errorf("alternating words: %d steps, more than %d", m.steps, bound)
	}
}

// TestRepeatedWordSearchIsBounded: search_all of "the" 16 times at fuzzy 2
// over articles full of "the" is answered, with work bounded by the
// positions and within the bound of maxMentionSteps.
func TestRepeatedWordSearchIsBounded(t *testing.T) {
	c := New(Options{})
	var arts []*Article
	for i := range 50 {
		body := strings.Repeat("the quick brown fox jumps over ", 50)
		if i%10 == 0 {
			body += strings.Repeat("the ", 20)
		}
		arts = append(arts, &Article{ID: fmt.Sprint("a", i), Timestamp: time.Unix(int64(i), 0), Language: "en",
			Body: "<p>" + body + "</p>", Categories: []string{}})
	}
	if _, err := c.Add(arts...); err != nil {
		t.Fatal(err)
	}
	for _, fuzzy := range []int{0, 2} {
		nq, err := compileName(strings.TrimSpace(strings.Repeat("the ", MaxQueryWords)), query.Any, fuzzy)
		if err != nil {
			t.Fatal(err)
		}
		c.mu.RLock()
		docs, err := c.matchingDocs(context.Background(), nq)
		c.mu.RUnlock()
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 5 {
			t.Errorf("fuzzy %d: %d articles, want the 5 with 16 \"the\" in a row", fuzzy, len(docs))
		}
		t.Logf("fuzzy %d: %d steps", fuzzy, nq.steps)
		// 50 articles of at most 70 "the" each: the empty chain and at
		// most k+1 states per position.
		if bound := 50 * 70 * (MaxQueryWords + 2); nq.steps > bound {
			t.Errorf("fuzzy %d: %d steps, more than %d", fuzzy, nq.steps, bound)
		}
	}
}
