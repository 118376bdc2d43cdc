// Package normalize turns names and free text into the tokens that matching
// compares: Unicode folding, transliteration of every script a name list
// uses, tokenisation and legal-form canonicalisation, exactly as
// docs/MATCHING.md "Text normalisation" describes. Every part of amlscreen that
// compares text goes through this package, so the index, the brute-force
// matcher, batch screening and monitoring agree token for token, and a
// query in one script finds a record in another.
//
// Cyrillic and Greek are transliterated a letter at a time (fold.go).
// Arabic, Persian and Urdu (arabic.go), Hebrew (hebrew.go), Georgian
// (georgian.go), Armenian (armenian.go), Korean Hangul (hangul.go),
// Japanese kana (kana.go) and Han (han.go, in pinyin) are romanised a run
// of the script at a time, because their letters read by context; each
// file says which spellings it chooses and why. script.go finds the runs.
//
// How close the romanisation comes to the Latin spellings of real names is
// measured by TestTransliterationQuality on Wikidata name pairs (Latin
// beside Arabic, Chinese, Hebrew, Japanese, katakana, Korean and Russian
// script; most are names of European origin written in the other script).
// Per script: the share of pairs whose romanisation equals the Latin name,
// is within fuzzy 2 of it under the strict rule, and has its consonant
// skeleton:
//
//	script     pairs   exact  fuzzy 2  skeleton
//	arabic     12994    8.2%    42.2%     44.1%
//	chinese    12261    2.1%    16.6%     17.6%
//	hebrew     10007    9.2%    45.8%     51.4%
//	japanese   20095    7.4%    37.6%     27.8%
//	katakana   19762    7.9%    38.6%     28.0%
//	korean      8251    6.7%    33.4%     23.2%
//	russian    32927   32.0%    74.9%     48.2%
//
// (Before, only Russian was romanised, so every other script scored 0.)
// Names of the script's own language do far better: the script tests pin
// real pairs such as 习近平 / Xi Jinping, 김정은 / Kim Jong Un and
// بشار الأسد / Bashar al-Assad, found exactly.
package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// special maps letters that Unicode decomposition leaves whole to their
// usual Latin spelling (docs/MATCHING.md "Text normalisation"). Keys are lower case.
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

// Fold applies the folding and transliteration of docs/MATCHING.md
// "Text normalisation" to s: case folding,
// transliteration of Cyrillic and Greek and romanisation of the other
// scripts names are written in, compatibility decomposition with combining
// marks dropped, and the special letters above. Punctuation and spaces are
// kept; Tokens splits on them. A romanised run that touches a letter of
// another script is set apart by a space (Toyota株式会社 → toyota
// zhushihuishe). Folding is idempotent: Fold(Fold(s)) == Fold(s).
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
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x0530 {
			if sc := scriptOf(r); sc != noScript {
				end := runEnd(s, i, sc)
				if prev, _ := utf8.DecodeLastRuneInString(s[:i]); i > 0 && isWordBoundaryRune(prev) && !endsInSpace(&b) {
					b.WriteByte(' ')
				}
				foldRun(&b, sc, s, i, end)
				if next, _ := utf8.DecodeRuneInString(s[end:]); end < len(s) && isWordBoundaryRune(next) {
					b.WriteByte(' ')
				}
				i = end
				continue
			}
		}
		i += size
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
// marks, lower-cased (ﬁ → fi, ² → 2, é → e). A decomposition into a script
// that is romanised by runs (㋐ → ア, ㉮ → 가) is folded again, so that Fold
// stays idempotent.
func foldRune(b *strings.Builder, r rune) {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	d := norm.NFKD.Bytes(buf[:n])
	for rest := d; len(rest) > 0; {
		c, size := utf8.DecodeRune(rest)
		rest = rest[size:]
		if c >= 0x0530 && scriptOf(c) != noScript {
			b.WriteString(Fold(string(d)))
			return
		}
	}
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

func endsInSpace(b *strings.Builder) bool {
	return b.Len() > 0 && b.String()[b.Len()-1] == ' '
}
