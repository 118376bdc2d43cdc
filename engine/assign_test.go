package engine

import (
	"math/rand/v2"
	"testing"
)

// TestAssignerAgreesWithEnumeration compares the Hungarian method with
// trying every assignment, on random small cost matrices with forbidden
// pairs (infeasible ones included).
func TestAssignerAgreesWithEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var a assigner
	for range 5000 {
		n := rng.IntN(6)
		m := n + rng.IntN(4)
		cost := make([]int, n*m)
		for i := range cost {
			switch rng.IntN(5) {
			case 0, 1:
				cost[i] = forbidden
			default:
				cost[i] = rng.IntN(3)
			}
		}
		want, wantOK := enumerate(n, m, cost)
		col := make([]int, n)
		got, ok := a.solve(n, m, cost, col)
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("n=%d m=%d cost=%v: got %d %v, want %d %v", n, m, cost, got, ok, want, wantOK)
		}
		if ok {
			seen, sum := map[int]bool{}, 0
			for i, j := range col {
				if seen[j] {
					t.Fatalf("column %d used twice", j)
				}
				seen[j] = true
				sum += cost[i*m+j]
			}
			if sum != got {
				t.Fatalf("assignment costs %d, total says %d", sum, got)
			}
		}
	}
}

func enumerate(n, m int, cost []int) (int, bool) {
	used := make([]bool, m)
	best := -1
	var rec func(i, sum int)
	rec = func(i, sum int) {
		if i == n {
			if best < 0 || sum < best {
				best = sum
			}
			return
		}
		for j := range m {
			if !used[j] && cost[i*m+j] < forbidden {
				used[j] = true
				rec(i+1, sum+cost[i*m+j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best, best >= 0
}
