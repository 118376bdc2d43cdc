package engine

import "testing"

// TestNameMemoTellsCollidingNamesApart keeps names of different words and
// kinds under one hash, past the table's first doubling, and checks that
// each is found as its own entry and that a name not kept is not found.
func TestNameMemoTellsCollidingNamesApart(t *testing.T) {
	for _, hash := range []func([]uint32, bool) uint64{
		func([]uint32, bool) uint64 { return 7 }, // every name collides
		memoHash,
	} {
		var m nameMemo
		m.reset()
		m.slots = make([]int32, minMemoSlots)
		type name struct {
			words  []uint32
			person bool
		}
		var names []name
		for a := uint32(0); a < 200; a++ {
			names = append(names, name{[]uint32{a}, false}, name{[]uint32{a}, true}, name{[]uint32{a, a + 1}, false})
		}
		for k, n := range names {
			h := hash(n.words, n.person)
			if _, _, found := m.find(n.words, n.person, h); found {
				t.Fatalf("%v (individual %v) found before it was kept", n.words, n.person)
			}
			_, slot, _ := m.find(n.words, n.person, h)
			if i := m.add(n.words, n.person, h, slot); int(i) != k {
				t.Fatalf("%v kept as entry %d, want %d", n.words, i, k)
			}
		}
		if len(m.slots) <= minMemoSlots {
			t.Fatalf("%d slots for %d names: the table did not grow", len(m.slots), len(names))
		}
		for k, n := range names {
			i, _, found := m.find(n.words, n.person, hash(n.words, n.person))
			if !found || int(i) != k {
				t.Errorf("%v (individual %v): found %v as entry %d, want %d", n.words, n.person, found, i, k)
			}
		}
		if _, _, found := m.find([]uint32{1, 3}, false, hash([]uint32{1, 3}, false)); found {
			t.Error("a name never kept was found")
		}
	}
}
