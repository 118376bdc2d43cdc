package dict

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// freeze builds a Frozen over the tokens of d, as a segment file holds
// them: sorted, ids by rank.
func freeze(d *Dict) (*Frozen, []uint32) {
	order := make([]uint32, d.Len())
	for i := range order {
		order[i] = uint32(i)
	}
	sort.Slice(order, func(a, b int) bool { return d.Token(order[a]) < d.Token(order[b]) })
	var a Arrays
	a.TokOff = []uint32{0}
	a.Indexed = make([]uint64, (len(order)+63)/64)
	for rank, id := range order {
		a.TokBlob = append(a.TokBlob, d.Token(id)...)
		a.TokOff = append(a.TokOff, uint32(len(a.TokBlob)))
		a.Runes = append(a.Runes, uint8(d.Runes(id)))
		if d.Indexed(id) {
			a.Indexed[rank/64] |= 1 << (rank % 64)
		}
	}
	f := NewFrozen(a)
	f.GramKeys, f.GramOff, f.GramIDs, f.LenOff, f.LenIDs = BuildGrams(f.Len(), f.TokenBytes, f.IsIndexed, f.RuneLen)
	return f, order
}

// TestFrozenLookupEqualsDict holds the frozen dictionary to the map one:
// the same tokens at the same distances for every query and radius.
func TestFrozenLookupEqualsDict(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := []rune("abcdeilmnorstuvаоп")
	word := func() string {
		n := 1 + rng.IntN(9)
		r := make([]rune, n)
		for i := range r {
			r[i] = letters[rng.IntN(len(letters))]
		}
		return string(r)
	}
	d := New()
	for range 3000 {
		id := d.Intern(word())
		if rng.IntN(5) > 0 {
			d.Index(id)
		}
	}
	d.Index(d.Intern("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab")) // repeated bigrams, over 64 of them
	f, order := freeze(d)
	if f.Len() != d.Len() {
		t.Fatalf("Len %d, want %d", f.Len(), d.Len())
	}
	for rank, id := range order {
		if got, ok := f.ID(d.Token(id)); !ok || got != uint32(rank) {
			t.Fatalf("ID(%q) = %d %v, want %d", d.Token(id), got, ok, rank)
		}
	}
	if _, ok := f.ID("not-a-token"); ok {
		t.Fatal("ID found a token that is not there")
	}
	queries := 2000
	if raceEnabled {
		queries = 300 // one goroutine: the plain run checks 2,000
	}
	for q := range queries {
		query := word()
		if q == 0 {
			query = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"
		}
		for radius := range 3 {
			var want, got []string
			d.Lookup(query, radius, func(id uint32, dist int) { want = append(want, fmt.Sprint(d.Token(id), dist)) })
			f.Lookup(query, radius, func(id uint32, dist int) { got = append(got, fmt.Sprint(f.Token(id), dist)) })
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("Lookup(%q, %d):\n frozen %v\n dict   %v", query, radius, got, want)
			}
		}
	}
}
