package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lists sometimes write two names of one party in one name string, parted
// by a slash (Al-Qa'ida/Islamic Army; NEW PEOPLE'S ARMY / COMMUNIST PARTY
// OF THE PHILIPPINES) or by an a/k/a (FUYI SUN A/K/A FRANK SUN). Matched
// as one name, each of them carries the other's words as words the query
// lacks. NameAlternatives finds such names, so that the index can hold
// each of them as a name string of its own besides the whole.
//
// A slash also abbreviates (A/S, S/A, c/o, s/o, d/o, w/o, M/S, J/V, I/E),
// writes dates and numbers (12/05/1990, 140/14), and offers two words for
// one place in a name (IMPORT/EXPORT CORPORATION, LIBERATION
// PARTY/FRONT, ISFAHAN/ESFAHAN), none of which is two names.

// aliasMarkers are the words that introduce another name of the same
// party.
var aliasMarkers = []string{"a/k/a", "f/k/a", "n/k/a", "d/b/a", "t/a"}

// NameAlternatives returns the names a name string writes in one, or nil
// when it writes one name. It parts s
//
//   - at a slash with a space before or after it (ARMY / COMMUNIST PARTY);
//   - at an alias marker a/k/a, f/k/a, n/k/a, d/b/a or t/a written as a
//     word of its own;
//   - at a slash between two letters when the letters on each side of it
//     run for two or more (not A/S, c/o, LRM/A) and the text on each side,
//     up to the next slash, holds two words or more besides legal forms,
//     the article "the" and words in parentheses (Al-Qa'ida/Islamic Army,
//     not PARTY/FRONT, IMPORT/EXPORT CORPORATION or SYRIA/THE LEVANT).
//
// A slash next to a digit, a dot or any other sign parts nothing, nor one
// inside parentheses. Parts without a letter are dropped; each part is
// trimmed of spaces.
func NameAlternatives(s string) []string {
	if !strings.Contains(s, "/") {
		return nil
	}
	type cut struct{ from, to int } // bytes s[from:to] are dropped
	var slashes []int               // byte offsets of the slashes outside parentheses
	depth := 0
	for i, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(depth-1, 0)
		case '/':
			if depth == 0 {
				slashes = append(slashes, i)
			}
		}
	}
	var cuts []cut
	for k, i := range slashes {
		if from, to := aliasMarkerAt(s, i); to > from {
			if len(cuts) == 0 || cuts[len(cuts)-1].to <= from {
				cuts = append(cuts, cut{from, to})
			}
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		next, _ := utf8.DecodeRuneInString(s[i+1:])
		switch {
		case unicode.IsSpace(prev) || unicode.IsSpace(next):
			cuts = append(cuts, cut{i, i + 1})
		case letterRunBefore(s[:i]) >= 2 && letterRunAfter(s[i+1:]) >= 2:
			from, to := 0, len(s)
			if k > 0 {
				from = slashes[k-1] + 1
			}
			if k+1 < len(slashes) {
				to = slashes[k+1]
			}
			if nameWords(s[from:i]) >= 2 && nameWords(s[i+1:to]) >= 2 {
				cuts = append(cuts, cut{i, i + 1})
			}
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	var out []string
	start := 0
	add := func(p string) {
		p = strings.TrimSpace(p)
		if strings.IndexFunc(p, unicode.IsLetter) >= 0 {
			out = append(out, p)
		}
	}
	for _, c := range cuts {
		if c.from < start {
			continue
		}
		add(s[start:c.from])
		start = c.to
	}
	add(s[start:])
	if len(out) < 2 {
		return nil
	}
	return out
}

// aliasMarkerAt returns the bytes of the alias marker (aliasMarkers)
// holding the slash at byte i of s, written as a word of its own, or an
// empty span.
func aliasMarkerAt(s string, i int) (from, to int) {
	from = strings.LastIndexFunc(s[:i], unicode.IsSpace) + 1
	to = len(s)
	if j := strings.IndexFunc(s[i:], unicode.IsSpace); j >= 0 {
		to = i + j
	}
	w := s[from:to]
	for _, m := range aliasMarkers {
		if strings.EqualFold(w, m) {
			return from, to
		}
	}
	return 0, 0
}

// letterRunBefore counts the letters that end s.
func letterRunBefore(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !unicode.IsLetter(r) {
			break
		}
		n++
		s = s[:len(s)-size]
	}
	return n
}

// letterRunAfter counts the letters that begin s.
func letterRunAfter(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			break
		}
		n++
	}
	return n
}

// nameWords counts the words of s that say whose name it is: not legal
// forms, not the article "the", not words in parentheses.
func nameWords(s string) int {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch r {
		case '(', '[':
			depth++
			continue
		case ')', ']':
			depth = max(depth-1, 0)
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	n := 0
	for _, w := range LegalForms().Canonicalize(Tokenize(b.String()).Words) {
		if !IsLegalForm(w) && w != "the" {
			n++
		}
	}
	return n
}
