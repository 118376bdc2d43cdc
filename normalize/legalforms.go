package normalize

import (
	"bufio"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// legalFormsData is the project's legal-form equivalence table: one class a
// line, "key: alias | alias | ...". See legalforms.txt for its sources.
//
//go:embed legalforms.txt
var legalFormsData string

// LegalMark starts every canonical legal-form token. It is not a word rune,
// so no tokenised text can produce it: a canonical token never collides with
// a word and is easy to recognise for exact-only matching.
const LegalMark = "~"

// LegalFormTable rewrites legal-form terms to one canonical token per
// equivalence class.
type LegalFormTable struct {
	// byFirst maps the first word of every alias to the aliases starting
	// with it, longest first, so that the longest alias wins.
	byFirst map[string][]legalAlias
	classes []string // canonical tokens, one per class
}

type legalAlias struct {
	words []string
	canon string
}

// LegalForms returns the embedded table. Its validity is pinned down by the
// package tests; a broken table is a build defect, hence the panic.
func LegalForms() *LegalFormTable { return legalForms() }

var legalForms = sync.OnceValue(func() *LegalFormTable {
	return mustParse("legal-form", ParseLegalForms, legalFormsData)
})

// mustParse parses an embedded table, which the package tests hold valid:
// a broken one is a build defect, hence the panic.
func mustParse[T any](what string, parse func(string) (T, error), data string) T {
	t, err := parse(data)
	if err != nil {
		panic("normalize: embedded " + what + " table: " + err.Error())
	}
	return t
}

// ParseLegalForms reads a table in the format of legalforms.txt. Every alias
// passes through Tokenize, so dotted, spaced, accented and Cyrillic
// spellings meet their plain forms. An alias that folds to the same words
// in two classes is an error: equivalence must be unambiguous.
func ParseLegalForms(data string) (*LegalFormTable, error) {
	t := &LegalFormTable{byFirst: make(map[string][]legalAlias)}
	owner := make(map[string]string) // joined alias words -> class key
	keys := make(map[string]bool)
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, rest, ok := strings.Cut(text, ":")
		key = strings.TrimSpace(key)
		if !ok || key == "" || !isClassKey(key) {
			return nil, fmt.Errorf("line %d: want \"key: alias | alias\" with a key of a-z and 0-9", line)
		}
		if keys[key] {
			return nil, fmt.Errorf("line %d: class %q defined twice", line, key)
		}
		keys[key] = true
		canon := LegalMark + key
		t.classes = append(t.classes, canon)
		n := 0
		for _, a := range strings.Split(rest, "|") {
			a = strings.TrimSpace(a)
			if a == "" {
				continue
			}
			words := Tokenize(a).Words
			if len(words) == 0 {
				return nil, fmt.Errorf("line %d: alias %q has no words", line, a)
			}
			id := strings.Join(words, " ")
			if prev, dup := owner[id]; dup {
				if prev == key {
					continue // the same alias spelled twice in one class
				}
				return nil, fmt.Errorf("line %d: alias %q of class %q is already in class %q", line, a, key, prev)
			}
			owner[id] = key
			la := legalAlias{words: words, canon: canon}
			t.byFirst[words[0]] = append(t.byFirst[words[0]], la)
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("line %d: class %q has no aliases", line, key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for w, l := range t.byFirst {
		sort.SliceStable(l, func(i, j int) bool { return len(l[i].words) > len(l[j].words) })
		t.byFirst[w] = l
	}
	return t, nil
}

// Canonicalize returns words with legal-form aliases replaced by their
// class's canonical token. Where aliases overlap, it picks the rewriting
// with the fewest tokens, and among those the one with the fewest words
// left as they are, so "co limited liability company" becomes ~co ~llc
// rather than ~ltd liability ~co. (A Han, kana or Hangul legal form
// written onto a name, 株式会社トヨタ, is a word of its own already: Fold
// splits it off before romanising.) words is not modified; when nothing
// changes it is returned as is.
func (t *LegalFormTable) Canonicalize(words []string) []string {
	any := false
	for _, w := range words {
		if _, ok := t.byFirst[w]; ok {
			any = true
			break
		}
	}
	if !any {
		return words
	}
	// cost[i] is the best rewriting of words[i:]: (tokens, kept words).
	n := len(words)
	type cost struct{ tokens, kept int }
	less := func(a, b cost) bool { return a.tokens < b.tokens || a.tokens == b.tokens && a.kept < b.kept }
	best := make([]cost, n+1)
	take := make([]*legalAlias, n) // alias chosen at i, nil to keep the word
	for i := n - 1; i >= 0; i-- {
		best[i] = cost{1 + best[i+1].tokens, 1 + best[i+1].kept}
		l := t.byFirst[words[i]]
		for k := range l {
			a := &l[k]
			if !hasPrefixWords(words[i:], a.words) {
				continue
			}
			c := cost{1 + best[i+len(a.words)].tokens, best[i+len(a.words)].kept}
			if less(c, best[i]) {
				best[i], take[i] = c, a
			}
		}
	}
	out := make([]string, 0, best[0].tokens)
	for i := 0; i < n; {
		if a := take[i]; a != nil {
			out = append(out, a.canon)
			i += len(a.words)
			continue
		}
		out = append(out, words[i])
		i++
	}
	return out
}

// IsLegalForm reports whether tok is a canonical legal-form token.
func IsLegalForm(tok string) bool { return strings.HasPrefix(tok, LegalMark) }

func hasPrefixWords(words, prefix []string) bool {
	if len(words) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if words[i] != p {
			return false
		}
	}
	return true
}

func isClassKey(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// cjkLegalForms returns the table's aliases written in Han, kana or Hangul
// alone, longest first. Those scripts write a legal form onto the name
// without a space (株式会社トヨタ, 中国石油天然气股份有限公司), so Fold cuts
// them off a word before romanising it (see splitCJKLegal). They are read
// from the raw table, not through Tokenize, which Fold itself serves.
func cjkLegalForms() []string {
	cjkLegalOnce.Do(func() {
		for _, line := range strings.Split(legalFormsData, "\n") {
			line = strings.TrimSpace(line)
			_, rest, ok := strings.Cut(line, ":")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			for _, a := range strings.Split(rest, "|") {
				if a = strings.TrimSpace(a); a != "" && allCJK(a) {
					cjkLegal = append(cjkLegal, a)
				}
			}
		}
		sort.SliceStable(cjkLegal, func(i, j int) bool { return len(cjkLegal[i]) > len(cjkLegal[j]) })
	})
	return cjkLegal
}

var (
	cjkLegalOnce sync.Once
	cjkLegal     []string
)

func allCJK(s string) bool {
	for _, r := range s {
		if !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return false
		}
	}
	return true
}

// splitCJKLegal cuts a legal form off the end or else the start of a Han,
// kana or Hangul word: the parts before and after it, and the form. form is
// "" when the word has none, and the whole word when it is one.
func splitCJKLegal(word string) (before, form, after string) {
	for _, f := range cjkLegalForms() {
		if word == f {
			return "", f, ""
		}
	}
	for _, f := range cjkLegalForms() {
		if len(word) > len(f) && strings.HasSuffix(word, f) {
			return word[:len(word)-len(f)], f, ""
		}
	}
	for _, f := range cjkLegalForms() {
		if len(word) > len(f) && strings.HasPrefix(word, f) {
			return "", f, word[len(f):]
		}
	}
	return "", "", word
}
