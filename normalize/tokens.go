package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens is a tokenised text: its words in order and the hyphenated
// compounds among them.
type Tokens struct {
	// Words are the folded words in order. The parts of a hyphenated name
	// are separate words.
	Words []string
	// Compounds are the hyphenated runs of Words, each with its joined form
	// (Abu-Bakr: Words abu, bakr; Compound{0, 2, "abubakr"}).
	Compounds []Compound
}

// Compound is a hyphenated run Words[Start:End] and its joined spelling.
type Compound struct {
	Start, End int
	Joined     string
}

// All returns the words followed by the joined form of every compound: the
// token set a record's name string is indexed under (docs/MATCHING.md "Text normalisation").
func (t Tokens) All() []string {
	if len(t.Compounds) == 0 {
		return t.Words
	}
	out := make([]string, 0, len(t.Words)+len(t.Compounds))
	out = append(out, t.Words...)
	for _, c := range t.Compounds {
		out = append(out, c.Joined)
	}
	return out
}

// maxCompoundVariants bounds the spellings Variants tries: 2^3 covers every
// real name; a query with more hyphens gets the all-parts and all-joined
// spellings only.
const maxCompoundVariants = 3

// Variants returns the spellings of a query: the words with each compound
// either split into its parts or joined, in every combination. The first
// variant is always the all-parts spelling. A record indexed under All()
// matches a query when one of its variants matches, so "Abu-Bakr",
// "Abu Bakr" and "Abubakr" find one another.
func (t Tokens) Variants() [][]string {
	if len(t.Compounds) == 0 {
		return [][]string{t.Words}
	}
	var masks []int
	if len(t.Compounds) <= maxCompoundVariants {
		for m := 0; m < 1<<len(t.Compounds); m++ {
			masks = append(masks, m)
		}
	} else {
		masks = []int{0, 1<<len(t.Compounds) - 1}
	}
	out := make([][]string, 0, len(masks))
	for _, m := range masks {
		var v []string
		next := 0
		for i, c := range t.Compounds {
			if m&(1<<i) == 0 {
				continue
			}
			v = append(v, t.Words[next:c.Start]...)
			v = append(v, c.Joined)
			next = c.End
		}
		v = append(v, t.Words[next:]...)
		out = append(out, v)
	}
	return out
}

// Tokenize folds s and splits it into words (docs/MATCHING.md
// "Text normalisation"):
// apostrophes and dots inside a word join it (O'Brien → obrien, U.S. → us),
// hyphens inside a word make a compound, every other punctuation and space
// separates. Digits are words too. Text in other scripts is romanised by
// Fold first, which also writes the word breaks those scripts do not
// (a Chinese or Korean personal name: surname, then the given name as a
// compound, 习近平 → xi-jinping; a legal form written onto a name,
// 株式会社トヨタ → zhushihuishe toyota).
func Tokenize(s string) Tokens {
	return tokenizeFolded(Fold(s))
}

// Words returns the words of s followed by the joined forms of its
// compounds; shorthand for Tokenize(s).All().
func Words(s string) []string { return Tokenize(s).All() }

func tokenizeFolded(f string) Tokens {
	if isASCII(f) {
		return tokenizeASCII(f, nil)
	}
	return tokenizeRunes(f)
}

// AppendWords appends the words of s, then the joined form of each
// hyphenated compound, to dst: Words(s) without allocating a slice per
// call, for callers that tokenise many fields into one buffer.
func AppendWords(dst []string, s string) []string {
	f := Fold(s)
	if !isASCII(f) {
		return append(dst, tokenizeRunes(f).All()...)
	}
	n := len(dst)
	t := tokenizeASCII(f, dst)
	dst = t.Words
	t.Words = dst[n:]
	for _, c := range t.Compounds {
		dst = append(dst, c.Joined)
	}
	return dst
}

// tokenizeRunes is the general tokenizer, for any script.
func tokenizeRunes(f string) Tokens {
	var t Tokens
	var buf [64]byte
	word := buf[:0]
	inWord := false
	compoundStart := -1 // index in t.Words of the first part of a compound
	pendingHyphen := false
	endWord := func() {
		if !inWord {
			return
		}
		t.Words = append(t.Words, string(word))
		word = word[:0]
		inWord = false
	}
	closeCompound := func() {
		if compoundStart >= 0 && len(t.Words)-compoundStart > 1 {
			t.Compounds = append(t.Compounds, Compound{
				Start:  compoundStart,
				End:    len(t.Words),
				Joined: strings.Join(t.Words[compoundStart:], ""),
			})
		}
		compoundStart = -1
	}
	for _, r := range f {
		switch {
		case isWordRune(r):
			if pendingHyphen {
				pendingHyphen = false
				// The previous word is the start of (or already in) a compound.
				if compoundStart < 0 {
					compoundStart = len(t.Words) - 1
				}
			} else if !inWord {
				closeCompound()
			}
			word = utf8.AppendRune(word, r)
			inWord = true
		case isJoiner(r) && inWord:
			// Dropped: the word continues (O'Brien, U.S.).
		case isHyphen(r) && inWord:
			endWord()
			pendingHyphen = true
		default:
			endWord()
			if pendingHyphen {
				pendingHyphen = false
			}
			closeCompound()
		}
	}
	endWord()
	closeCompound()
	return t
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Mn, r)
}

func isJoiner(r rune) bool {
	switch r {
	case '.', '\'', '’', '‘', 'ʼ', '`', '´', 'ʻ', '′', '\u00ad':
		return true
	}
	return false
}

func isHyphen(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '־', '֊':
		return true
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// tokenizeASCII is tokenizeFolded for folded ASCII text, the common case:
// the same rules, but words are substrings of f (no copy) unless a joiner
// inside them has to be dropped. Words are appended to dst; the returned
// Words is all of dst, and compound positions count from len(dst).
func tokenizeASCII(f string, dst []string) Tokens {
	t := Tokens{Words: dst}
	base := len(dst)
	compoundStart := -1
	closeCompound := func() {
		if compoundStart >= 0 && len(t.Words)-compoundStart > 1 {
			t.Compounds = append(t.Compounds, Compound{
				Start:  compoundStart - base,
				End:    len(t.Words) - base,
				Joined: strings.Join(t.Words[compoundStart:], ""),
			})
		}
		compoundStart = -1
	}
	i := 0
	for i < len(f) {
		c := f[i]
		if !isASCIIWord(c) {
			i++
			continue
		}
		// A word starts at i. It runs over word bytes and joiners that
		// are followed by more of the word.
		start := i
		var joined []byte // non-nil once a joiner was dropped
		for i < len(f) {
			c := f[i]
			if isASCIIWord(c) {
				if joined != nil {
					joined = append(joined, c)
				}
				i++
				continue
			}
			if c == '.' || c == '\'' || c == '`' {
				if joined == nil {
					joined = append(make([]byte, 0, 16), f[start:i]...)
				}
				i++
				continue
			}
			break
		}
		w := f[start:i]
		if joined != nil {
			w = string(joined)
		}
		if w == "" {
			continue
		}
		t.Words = append(t.Words, w)
		// A hyphen directly followed by a word byte continues a compound.
		if i+1 < len(f) && f[i] == '-' && isASCIIWord(f[i+1]) {
			if compoundStart < 0 {
				compoundStart = len(t.Words) - 1
			}
			i++
			continue
		}
		closeCompound()
	}
	closeCompound()
	return t
}

func isASCIIWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}
