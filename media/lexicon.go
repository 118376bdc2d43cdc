package media

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/amlscreen/amlscreen/normalize"
)

// lexiconData is the built-in multilingual lexicon; see lexicon.txt for the
// format and the choices behind it.
//
//go:embed lexicon.txt
var lexiconData string

// Lexicon classifies articles into adverse-media categories from their
// words. Entries are words, stems (a word ending in *) and phrases of them,
// in any language; they pass through the same normaliser as article text,
// so "Geldwäsche" is geldwasche and "отмывание" is otmyvanie, and a Russian
// stem matches transliterated text.
//
// Each entry carries a weight for one or more categories: 2 (a strong cue,
// enough on its own), 1 (a weak cue) or c (context: "charged", "minister",
// "regulator", which says nothing alone). An article gets a category when
// the distinct entries it matches for that category weigh 2 or more, or 1
// with a context entry; a pattern counts once however often it occurs, and
// the same pattern in two languages counts once. Overlapping matches
// resolve most specific first (more words, then more letters), so
// "anti-money laundering" (a compliance term) suppresses "money
// laundering" (a crime) inside it, and "Geldwäscheprävention*" beats
// "Geldwäsch*".
//
// A Lexicon is immutable and safe for concurrent use.
type Lexicon struct {
	entries []lexEntry
	// exact indexes entries by their first word when it is a whole word;
	// byPrefix by the first prefixLen bytes of their first word when it is
	// a stem. Stems must be at least prefixLen bytes long.
	exact    map[string][]int
	byPrefix map[string][]int
	cats     []string // category names, in file order
	order    []int    // indexes into cats: standard categories first
}

type lexWord struct {
	text string
	stem bool
}

type lexEntry struct {
	words []lexWord
	size  int // letters in the pattern: among matches of one span, the most specific wins
	// pattern numbers distinct patterns: the same word listed for two
	// languages ("cartel", "cártel") is one cue, not two.
	pattern int
	weight  int8   // 1 or 2; 0 for context
	cats    []int8 // indexes into Lexicon.cats
}

const prefixLen = 4

var (
	defaultLexicon     *Lexicon
	defaultLexiconErr  error
	defaultLexiconOnce sync.Once
)

// DefaultLexicon returns the built-in lexicon. Its validity is pinned down
// by the package tests; a broken lexicon is a build defect, hence the
// panic.
func DefaultLexicon() *Lexicon {
	defaultLexiconOnce.Do(func() {
		defaultLexicon, defaultLexiconErr = ParseLexicon(lexiconData)
	})
	if defaultLexiconErr != nil {
		panic("media: embedded lexicon: " + defaultLexiconErr.Error())
	}
	return defaultLexicon
}

// ParseLexicon reads a lexicon in the format of lexicon.txt: a section line
// "[cat1 cat2 ...]" names the categories of the entries below it; an entry
// line is a weight (2, 1 or c) and a pattern of words, a trailing * making a
// word a stem. # starts a comment.
//
// It is one loop over the lines, whose cases (section, entry, comment)
// share the current section and the line number for messages.
func ParseLexicon(data string) (*Lexicon, error) {
	l := &Lexicon{exact: map[string][]int{}, byPrefix: map[string][]int{}}
	var cur []int8
	patterns := map[string]int{}
	for n, line := range strings.Split(data, "\n") {
		lineNo := n + 1
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if !strings.HasSuffix(line, "]") {
				return nil, fmt.Errorf("line %d: unterminated section %q", lineNo, line)
			}
			cur = cur[:0:0]
			for _, c := range strings.Fields(line[1 : len(line)-1]) {
				name, err := NormalizeCategory(c)
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", lineNo, err)
				}
				idx := slices.Index(l.cats, name)
				if idx < 0 {
					idx = len(l.cats)
					l.cats = append(l.cats, name)
				}
				cur = append(cur, int8(idx))
			}
			if len(cur) == 0 {
				return nil, fmt.Errorf("line %d: section names no category", lineNo)
			}
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: entry before the first [category] section", lineNo)
		}
		w, pattern, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: %q has no pattern after its weight", lineNo, line)
		}
		e := lexEntry{cats: cur}
		switch w {
		case "2":
			e.weight = 2
		case "1":
			e.weight = 1
		case "c":
			e.weight = 0
		default:
			return nil, fmt.Errorf("line %d: weight %q is not 2, 1 or c", lineNo, w)
		}
		for _, f := range strings.Fields(pattern) {
			stem := strings.HasSuffix(f, "*")
			words := normalize.Tokenize(strings.TrimSuffix(f, "*")).Words
			if len(words) == 0 {
				return nil, fmt.Errorf("line %d: %q has no letters", lineNo, f)
			}
			for i, t := range words {
				e.words = append(e.words, lexWord{text: t, stem: stem && i == len(words)-1})
				e.size += len(t)
			}
		}
		key := fmt.Sprint(e.words)
		if _, ok := patterns[key]; !ok {
			patterns[key] = len(patterns)
		}
		e.pattern = patterns[key]
		first := e.words[0]
		idx := len(l.entries)
		if first.stem {
			if len(first.text) < prefixLen {
				return nil, fmt.Errorf("line %d: stem %q is shorter than %d letters; write the words out", lineNo, first.text, prefixLen)
			}
			k := first.text[:prefixLen]
			l.byPrefix[k] = append(l.byPrefix[k], idx)
		} else {
			l.exact[first.text] = append(l.exact[first.text], idx)
		}
		l.entries = append(l.entries, e)
	}
	if len(l.entries) == 0 {
		return nil, fmt.Errorf("no entries")
	}
	for _, c := range StandardCategories {
		if i := slices.Index(l.cats, c); i >= 0 {
			l.order = append(l.order, i)
		}
	}
	for i, c := range l.cats {
		if !slices.Contains(StandardCategories, c) {
			l.order = append(l.order, i)
		}
	}
	return l, nil
}

// lexMatch is one entry found at words [start, end) of a unit.
type lexMatch struct {
	entry      int
	unit       int
	start, end int
}

func (l *Lexicon) classifyUnits(units []tokenUnit) []string {
	var matches []lexMatch
	for ui, u := range units {
		words := u.toks.Words
		for i, w := range words {
			matches = l.appendMatchesAt(matches, ui, words, i, w)
			// Elided French articles and pronouns are joined to the next
			// word by the tokenizer (l'escroquerie → lescroquerie); look at
			// the word without them too.
			if rest := elided(w); rest != "" {
				matches = l.appendMatchesAt(matches, ui, words, i, rest)
			}
		}
	}
	if len(matches) == 0 {
		return nil
	}
	// Most specific first: more words, then more letters in the pattern
	// (the stem geldwäscheprävention* beats geldwäsch* on the same word).
	// A match is kept unless a more specific kept match overlaps it.
	l.sortMatches(matches)
	kept := matches[:0]
	for _, m := range matches {
		ok := true
		for _, k := range kept {
			if k.unit == m.unit && k.start < m.end && m.start < k.end && l.moreSpecific(k, m) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, m)
		}
	}
	score := make([]int, len(l.cats))
	context := make([]bool, len(l.cats))
	// Each pattern counts once per category, however often it occurs.
	seen := make(map[[2]int]bool, len(kept))
	for _, m := range kept {
		e := &l.entries[m.entry]
		for _, c := range e.cats {
			k := [2]int{e.pattern, int(c)}
			if seen[k] {
				continue
			}
			seen[k] = true
			if e.weight == 0 {
				context[c] = true
			} else {
				score[c] += int(e.weight)
			}
		}
	}
	var out []string
	for _, c := range l.order {
		if score[c] >= 2 || score[c] >= 1 && context[c] {
			out = append(out, l.cats[c])
		}
	}
	return out
}

func (l *Lexicon) moreSpecific(a, b lexMatch) bool {
	la, lb := a.end-a.start, b.end-b.start
	if la != lb {
		return la > lb
	}
	return l.entries[a.entry].size > l.entries[b.entry].size
}

func (l *Lexicon) sortMatches(m []lexMatch) {
	sort.SliceStable(m, func(i, j int) bool { return l.moreSpecific(m[i], m[j]) })
}

// appendMatchesAt appends the entries that match words at i, the word
// there read as first.
func (l *Lexicon) appendMatchesAt(dst []lexMatch, unit int, words []string, i int, first string) []lexMatch {
	try := func(idx int) {
		e := &l.entries[idx]
		if !e.words[0].matches(first) || i+len(e.words) > len(words) {
			return
		}
		for k := 1; k < len(e.words); k++ {
			if !e.words[k].matches(words[i+k]) {
				return
			}
		}
		dst = append(dst, lexMatch{entry: idx, unit: unit, start: i, end: i + len(e.words)})
	}
	for _, idx := range l.exact[first] {
		try(idx)
	}
	if len(first) >= prefixLen {
		for _, idx := range l.byPrefix[first[:prefixLen]] {
			try(idx)
		}
	}
	return dst
}

func (w lexWord) matches(t string) bool {
	if w.stem {
		return strings.HasPrefix(t, w.text)
	}
	return t == w.text
}

// elided returns w without a leading French elision (l', d', qu', j', n',
// s', c', m', t', which the tokenizer joined to the word), or "" when w
// does not look like one: what is left must be a plausible word.
func elided(w string) string {
	if len(w) < 6 {
		return ""
	}
	if strings.HasPrefix(w, "qu") {
		return w[2:]
	}
	switch w[0] {
	case 'l', 'd', 'j', 'n', 's', 'c', 'm', 't':
		switch w[1] {
		case 'a', 'e', 'i', 'o', 'u', 'y', 'h':
			return w[1:]
		}
	}
	return ""
}
