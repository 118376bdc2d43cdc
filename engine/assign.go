package engine

// This file finds the least-cost pairing of query tokens with record
// tokens in polynomial time. A depth-first search over the query tokens
// is quicker for the handful of words a name has, and both matchers try it
// first; but it is exponential in the number of query words at worst (32
// copies of one word against a name holding 31 of them tries every
// arrangement before it fails), so past a step budget they switch to the
// Hungarian method, which is O(n²·m) for n query tokens and m record
// tokens. Both find the least total, so answers do not depend on which
// ran.

// pairStepBudget is how many steps the depth-first search of a pairing
// may take before the Hungarian method takes over: far more than any
// real name needs, far less than a millisecond. Tests set it to 0 (the
// Hungarian method always) or to -1 (no budget) to compare the two.
var pairStepBudget = 4096

// bruteStepBudget is pairStepBudget for the reference matcher, larger: it
// should enumerate whenever that is affordable.
var bruteStepBudget = 1 << 16

// forbidden is the cost of a pair that may not be made. It exceeds any
// total of allowed pairs (at most 2 edits each), so a least total at or
// above it means no complete pairing exists.
const forbidden = 1 << 20

// assigner is the scratch space of the Hungarian method, reused between
// calls.
type assigner struct {
	u, v, minv []int
	p, way     []int
	used       []bool
}

// solve returns the least total cost of assigning each of n rows a
// different one of m columns (n ≤ m), where cost[i*m+j] is the cost of row
// i in column j (forbidden for a pair that may not be made), and ok false
// when every assignment needs a forbidden pair. col, when not nil, gets
// the column of each row (len n).
//
// It is the shortest-augmenting-path form of the Hungarian method with
// potentials (u for rows, v for columns): each row in turn is added along
// a path of least reduced cost, Dijkstra-like over the columns.
func (a *assigner) solve(n, m int, cost []int, col []int) (total int, ok bool) {
	if n == 0 {
		return 0, true
	}
	if n > m {
		return 0, false
	}
	const inf = 1 << 62
	a.u = resize(a.u, n+1)
	a.v = resize(a.v, m+1)
	a.p = resize(a.p, m+1)
	a.way = resize(a.way, m+1)
	a.minv = resize(a.minv, m+1)
	if cap(a.used) < m+1 {
		a.used = make([]bool, m+1)
	}
	used := a.used[:m+1]
	u, v, p, way, minv := a.u, a.v, a.p, a.way, a.minv
	// Rows and columns count from 1; column 0 is the path's start.
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = inf
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			row := cost[(i0-1)*m:]
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := row[j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	for j := 1; j <= m; j++ {
		if i := p[j]; i != 0 {
			total += cost[(i-1)*m+j-1]
			if col != nil {
				col[i-1] = j - 1
			}
		}
	}
	return total, total < forbidden
}

// resize returns s with length n and every element zero, reusing its
// memory when it can.
func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	s = s[:n]
	clear(s)
	return s
}
