package engine

// This file exports the fuzzy-matching rule of docs/MATCHING.md "Name matching"
// for other matchers (monitoring's profile index, the adverse-media index), so that fuzzy_search means
// the same number of edits everywhere without a copy of the rule.

// AllowedEdits is the most edits (dict.Distance: a swap of adjacent letters
// counts one) a query token q may be from a
// text token t under fuzzy_search=fuzzy: min(fuzzy, cap) where cap depends
// on the shorter token's rune length (0 for 1–2 runes, 1 for 3–5, 2 for 6
// or more). Canonical legal-form tokens pair exactly only.
func AllowedEdits(fuzzy int, q, t string) int { return allowedEdits(fuzzy, q, t) }

// MaxEdits is AllowedEdits of q against the longest possible token: the
// radius a dictionary look-up for q must search.
func MaxEdits(fuzzy int, q string) int { return maxAllowed(fuzzy, q) }
