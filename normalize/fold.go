// Package normalize turns names and free text into the tokens that matching
// compares: Unicode folding, Cyrillic and Greek transliteration,
// tokenisation and legal-form canonicalisation, exactly as SEMANTICS.md
// "Text normalisation" decides. Every part of amlscreen that compares text
// goes through this package, so the index, the brute-force matcher, batch
// screening and monitoring agree token for token.
package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// special maps letters that Unicode decomposition leaves whole to their
// usual Latin spelling (SEMANTICS.md rule 1). Keys are lower case.
var special = map[rune]string{
	'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ø': "o", 'ß': "ss", 'æ': "ae",
	'œ': "oe", 'ı': "i", 'ĸ': "k", 'ŋ': "ng", 'ħ': "h", 'ŧ': "t", 'ſ': "s",
	'ƒ': "f", 'ǝ': "e", 'ə': "e",
}

// translit is the one fixed Cyrillic and Greek table: BGN/PCGN for Russian,
// the usual Latin forms for Ukrainian, Belarusian, Serbian, Macedonian and
// Bulgarian letters. Keys are lower case precomposed letters.
var translit = map[rune]string{
	// Russian (BGN/PCGN, with ё/е → e and ь/ъ dropped)
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e",
	'ж': "zh", 'з': "z", 'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m",
	'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u",
	'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch",
	'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu", 'я': "ya",
	// Ukrainian and Belarusian
	'є': "ye", 'і': "i", 'ї': "yi", 'ґ': "g", 'ў': "u",
	// Serbian and Macedonian
	'ђ': "dj", 'ј': "j", 'љ': "lj", 'њ': "nj", 'ћ': "c", 'џ': "dz",
	'ѓ': "gj", 'ќ': "kj", 'ѕ': "dz",
	// Greek
	'α': "a", 'β': "v", 'γ': "g", 'δ': "d", 'ε': "e", 'ζ': "z", 'η': "i",
	'θ': "th", 'ι': "i", 'κ': "k", 'λ': "l", 'μ': "m", 'ν': "n", 'ξ': "x",
	'ο': "o", 'π': "p", 'ρ': "r", 'σ': "s", 'ς': "s", 'τ': "t", 'υ': "y",
	'φ': "f", 'χ': "ch", 'ψ': "ps", 'ω': "o",
}

// Fold applies SEMANTICS.md rules 1 and 2 to s: case folding, Cyrillic and
// Greek transliteration, compatibility decomposition with combining marks
// dropped, and the special letters above. Punctuation and spaces are kept;
// Tokens splits on them.
func Fold(s string) string {
	switch asciiCase(s) {
	case plainLower:
		return s
	case plainASCII:
		return strings.ToLower(s)
	}
	// NFC first, so that й and ё reach the transliteration table whole
	// rather than as и/е plus a combining mark.
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = unicode.ToLower(r)
		if t, ok := translit[r]; ok {
			b.WriteString(t)
			continue
		}
		if isGreekOrCyrillic(r) {
			// Accented Greek (ά, ῆ) and rare Cyrillic letters: transliterate
			// the base letter.
			if base := baseRune(r); base != r {
				if t, ok := translit[unicode.ToLower(base)]; ok {
					b.WriteString(t)
					continue
				}
			}
		}
		if t, ok := special[r]; ok {
			b.WriteString(t)
			continue
		}
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		foldRune(&b, r)
	}
	return b.String()
}

// foldRune writes the compatibility decomposition of r without combining
// marks, lower-cased (ﬁ → fi, ² → 2, é → e, ｶ → カ).
func foldRune(b *strings.Builder, r rune) {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	if unicode.In(r, unicode.Hangul, unicode.Hiragana, unicode.Katakana) {
		// Decomposition would split a Hangul syllable into jamo and drop
		// kana voicing marks (ダ → タ); composing keeps them whole while
		// still mapping half-width forms (ｶ → カ).
		b.Write(norm.NFKC.Bytes(buf[:n]))
		return
	}
	d := norm.NFKD.Bytes(buf[:n])
	for len(d) > 0 {
		c, size := utf8.DecodeRune(d)
		d = d[size:]
		if unicode.Is(unicode.Mn, c) || unicode.Is(unicode.Me, c) {
			continue
		}
		c = unicode.ToLower(c)
		if t, ok := translit[c]; ok {
			b.WriteString(t)
		} else if t, ok := special[c]; ok {
			b.WriteString(t)
		} else {
			b.WriteRune(c)
		}
	}
}

func baseRune(r rune) rune {
	d := norm.NFD.String(string(r))
	c, _ := utf8.DecodeRuneInString(d)
	return c
}

func isGreekOrCyrillic(r rune) bool {
	return unicode.Is(unicode.Greek, r) || unicode.Is(unicode.Cyrillic, r)
}

const (
	plainLower = iota // ASCII without upper case: already folded
	plainASCII        // ASCII: folding is lower-casing
	other
)

// asciiCase classifies s so that the common ASCII names skip Unicode
// normalisation altogether.
func asciiCase(s string) int {
	kind := plainLower
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return other
		}
		if c >= 'A' && c <= 'Z' {
			kind = plainASCII
		}
	}
	return kind
}
