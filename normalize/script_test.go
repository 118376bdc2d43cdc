package normalize

import "testing"

// The script tests pin down each romanisation two ways: what a name folds
// to, and whether real name pairs (the name in its script, the same person
// as Latin lists write them) find each other under the strict rule, and at
// which fuzzy level. Pairs of different people must not.

// notFound marks a pair that the strict rule must not match at any fuzzy
// level.
const notFound = -1

type scriptPair struct {
	script, latin string
	fuzzy         int // the lowest fuzzy level that finds the pair, or notFound
}

// strictFinds reports whether a query finds a record name string under the
// strict rule of SEMANTICS.md: every word of one of the query's variants
// pairs with a different word of the name within min(fuzzy, cap) edits,
// cap taken on the shorter word (0 for 1–2 runes, 1 for 3–5, 2 for more).
func strictFinds(query, name string, fuzzy int) bool {
	rec := RecordName(name, false).Tokens
	for _, v := range QueryVariants(query, false) {
		if len(v) > 0 && assignWords(v, rec, make([]bool, len(rec)), fuzzy) {
			return true
		}
	}
	return false
}

func assignWords(q, rec []string, used []bool, fuzzy int) bool {
	if len(q) == 0 {
		return true
	}
	for i, t := range rec {
		if used[i] {
			continue
		}
		a, b := []rune(q[0]), []rune(t)
		limit := 0
		if fuzzy > 0 {
			switch n := min(len(a), len(b)); {
			case n <= 2:
			case n <= 5:
				limit = min(fuzzy, 1)
			default:
				limit = min(fuzzy, 2)
			}
		}
		if osaDistance(a, b) <= limit {
			used[i] = true
			if assignWords(q[1:], rec, used, fuzzy) {
				return true
			}
			used[i] = false
		}
	}
	return false
}

// lowestFuzzy is the lowest fuzzy level at which either name, as a query,
// finds the other, or notFound.
func lowestFuzzy(a, b string) int {
	for f := 0; f <= 2; f++ {
		if strictFinds(a, b, f) && strictFinds(b, a, f) {
			return f
		}
	}
	return notFound
}

func checkPairs(t *testing.T, pairs []scriptPair) {
	t.Helper()
	for _, p := range pairs {
		if got := lowestFuzzy(p.script, p.latin); got != p.fuzzy {
			t.Errorf("%q (%s) and %q: found from fuzzy %d, want %d", p.script, Fold(p.script), p.latin, got, p.fuzzy)
		}
	}
}

func checkFold(t *testing.T, tests map[string]string) {
	t.Helper()
	for in, want := range tests {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
