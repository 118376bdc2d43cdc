package normalize

import (
	"strings"
	"unicode/utf8"
)

// Korean names on sanctions lists are mostly North Korean, written in the
// McCune–Reischauer family of spellings without its breves and apostrophes
// (the DPRK's own romanisation is one of them): 김정은 → kim jong-un,
// 최룡해 → choe ryong-hae, 박봉주 → pak pong-ju. Those are the spellings
// emitted: ㅓ is "o" and ㅡ is "u" (Revised Romanization's "eo" and "eu"
// are one edit away), plain stops start a syllable as k, t, p, and ㅈ is
// "j". South Korean names in Revised Romanization (Moon Jae-in, Lee
// Jae-myung) differ by an edit or two per syllable; the scored matcher's
// sound comparison bridges those. On the Wikidata pairs (foreign names in
// Hangul) these vowels score 33.4 % within fuzzy 2 against 26.5 % for
// Revised Romanization's eo and eu.
//
// A run of two to four syllables that starts with a known surname is a
// personal name, written as lists write one: the surname as one word and
// the given name's syllables joined by a hyphen (정은 → jong-un), which
// the hyphen rule indexes as jong, un and jongun, so that Kim Jong Un, Kim
// Jong-un and Kim Jongun all find it. A one-syllable given name is joined
// to the surname by the hyphen instead (김철 → kim-chol). Any other run is
// one word, its syllables joined.

var hangulInitial = [19]string{
	"k", "kk", "n", "t", "tt", "r", "m", "p", "pp", "s", "ss", "", "j",
	"jj", "ch", "k", "t", "p", "h",
}

var hangulVowel = [21]string{
	"a", "ae", "ya", "yae", "o", "e", "yo", "ye", "o", "wa", "wae", "oe",
	"yo", "u", "wo", "we", "wi", "yu", "u", "ui", "i",
}

var hangulFinal = [28]string{
	"", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l",
	"p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t",
}

// hangulSurnames spells the surnames whose list spelling is not the
// syllable rule's: 이 is Lee in the South (the North writes 리, Ri), and
// the two-syllable surnames are one word.
var hangulSurnames = map[string]string{
	"이": "lee", "임": "lim",
	"남궁": "namgung", "황보": "hwangbo", "제갈": "jegal", "선우": "sonu",
	"독고": "tokko", "사공": "sagong", "서문": "somun", "동방": "tongbang",
}

// hangulCommonSurnames are the surnames that mark a run as a personal name
// (together they cover nearly every Korean).
const hangulCommonSurnames = "김이리박최정강조윤장임림한오서신권황안송류유홍전고문양손배백허노로남심하곽성차주우구민진나지엄채원천방공현함변염여추도석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형피두감음빈동온호범좌팽승간상갈"

func isHangulSurname(r rune) bool {
	return strings.ContainsRune(hangulCommonSurnames, r)
}

func writeHangul(b *strings.Builder, run string) {
	plain := func(word string) {
		var buf [16]rune
		w := buf[:0]
		for _, r := range word {
			w = append(w, r)
		}
		writeSyllables(b, w, false)
	}
	name := func(word string) {
		var buf [16]rune
		w := buf[:0]
		for _, r := range word {
			w = append(w, r)
		}
		n := len(w)
		if n >= 2 && n <= 4 && allSyllables(w) {
			surname := 1
			var kb [16]byte
			if n >= 3 {
				if _, ok := hangulSurnames[string(appendRunes(kb[:0], w[:2]))]; ok {
					surname = 2
				}
			}
			if surname == 2 || isHangulSurname(w[0]) {
				if s, ok := hangulSurnames[string(appendRunes(kb[:0], w[:surname]))]; ok {
					b.WriteString(s)
				} else {
					writeSyllables(b, w[:surname], false)
				}
				if n-surname == 1 {
					// A one-syllable given name joins the surname with a
					// hyphen, as Han names do: 김철 → kim-chol also finds
					// Kimchol, and a company's name that starts with a
					// surname syllable its joined spelling (기아 → ki-a
					// finds Kia).
					b.WriteByte('-')
				} else {
					b.WriteByte(' ')
				}
				writeSyllables(b, w[surname:], true)
				return
			}
		}
		writeSyllables(b, w, false)
	}
	writeWords(b, run, func(word string) { writeCJKWord(b, word, name, plain) })
}

func allSyllables(w []rune) bool {
	for _, r := range w {
		if r < 0xAC00 || r > 0xD7A3 {
			return false
		}
	}
	return true
}

// hangulVoiced is the McCune–Reischauer reading of a plain stop or ㅈ
// inside a word after a vowel or a voiced consonant (ㄴ ㅁ ㅇ ㄹ): voiced,
// as in 부산 → pusan, 대구 → taegu, 평양 → pyongyang.
var hangulVoiced = [19]string{
	"g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j",
	"jj", "ch", "k", "t", "p", "h",
}

// writeSyllables writes each syllable of w. A given name (given set) has a
// hyphen between its syllables, each spelled as at the start of a word (Pak
// Pong-ju); any other word is spelled as one (대구 → taegu). ㄹ before ㄹ is
// "ll". Lone jamo are written by their sound.
func writeSyllables(b *strings.Builder, w []rune, given bool) {
	prevFinal := -1 // the previous syllable's final; -1 at the start
	for i, r := range w {
		if given && i > 0 {
			b.WriteByte('-')
		}
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			s := int(r - 0xAC00)
			l, v, t := s/(21*28), s/28%21, s%28
			switch {
			case prevFinal == 8 && l == 5 && !given: // ㄹ + ㄹ
				b.WriteString("l")
			case prevFinal >= 0 && !given && voicedFinal(prevFinal):
				b.WriteString(hangulVoiced[l])
			default:
				b.WriteString(hangulInitial[l])
			}
			b.WriteString(hangulVowel[v])
			b.WriteString(hangulFinal[t])
			prevFinal = t
		case r >= 0x1100 && r < 0x1100+19:
			b.WriteString(hangulInitial[r-0x1100])
			prevFinal = -1
		case r >= 0x1161 && r < 0x1161+21:
			b.WriteString(hangulVowel[r-0x1161])
			prevFinal = -1
		case r >= 0x11A8 && r < 0x11A8+27:
			b.WriteString(hangulFinal[r-0x11A7])
			prevFinal = -1
		}
	}
}

// voicedFinal reports a syllable final after which a plain stop is voiced:
// none (a vowel), ㄴ, ㄹ, ㅁ or ㅇ.
func voicedFinal(t int) bool {
	switch t {
	case 0, 4, 8, 16, 21:
		return true
	}
	return false
}

func appendRunes(dst []byte, w []rune) []byte {
	for _, r := range w {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}
