package dict

import (
	"sort"
	"testing"
)

func TestDistance(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "putin", "puttin", "vladimir", "wladimir", "vladimirovich", "ivanova", "ivnaova", "kitten", "sitting", "мария", "марья", "ab", "ba", "abcdef", "azced"}
	for _, a := range words {
		for _, b := range words {
			want := levenshteinRunes([]rune(a), []rune(b))
			for max := 0; max <= 3; max++ {
				got := Distance([]rune(a), []rune(b), max)
				exp := want
				if exp > max {
					exp = max + 1
				}
				if got != exp {
					t.Errorf("Distance(%q, %q, %d) = %d, want %d", a, b, max, got, exp)
				}
			}
		}
	}
}

// levenshteinRunes is the textbook full-matrix distance.
func levenshteinRunes(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
		}
	}
	return d[len(a)][len(b)]
}

// TestLookupFindsExactlyTheTokensWithinRadius compares Lookup with a scan of
// every token: the bigram filter must never drop a token within the radius.
func TestLookupFindsExactlyTheTokensWithinRadius(t *testing.T) {
	words := []string{"putin", "puttin", "putina", "butin", "vladimir", "wladimir", "vladimirovich", "ivan", "ivanov", "ivanova",
		"ivnaov", "aaaa", "aaab", "ab", "ba", "abc", "мария", "марья", "li", "lee", "jo", "joe", "x", "anna", "hanna"}
	d := New()
	for _, w := range words {
		d.Index(d.Intern(w))
	}
	d.Intern("notindexed")
	for _, q := range append(words, "putn", "vladimr", "ivanoff", "aa", "zzz", "notindexed") {
		for r := 0; r <= 2; r++ {
			var got []string
			d.Lookup(q, r, func(id uint32, dist int) {
				if want := levenshteinRunes([]rune(q), []rune(d.Token(id))); dist != want {
					t.Errorf("Lookup(%q): %q at distance %d, want %d", q, d.Token(id), dist, want)
				}
				got = append(got, d.Token(id))
			})
			var want []string
			for _, w := range words {
				if levenshteinRunes([]rune(q), []rune(w)) <= r {
					want = append(want, w)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) {
				t.Errorf("Lookup(%q, %d) = %v, want %v", q, r, got, want)
				continue
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("Lookup(%q, %d) = %v, want %v", q, r, got, want)
					break
				}
			}
		}
	}
}
