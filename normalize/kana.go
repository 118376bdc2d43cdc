package normalize

import "strings"

// Japanese kana are romanised in Hepburn as names are written on passports
// and lists: し shi, ち chi, つ tsu, ふ fu, じ ji; small ゃゅょ make one
// syllable (きょう → kyo); a small っ doubles the next consonant (っち →
// tch); ん is "m" before b, m and p (さんぺい → sampei), else "n"; the
// katakana letters for foreign sounds read as they are meant (ファ fa,
// ティ ti, ヴ vu, ウォ wo). Long vowels are written once, as passports
// write them (the long mark ー is dropped; おう, おお and うう are "o", "o"
// and "u": とうきょう → tokyo, さとう → sato); writing them "ou" or "oo"
// instead changes the Wikidata pairs' scores by 0.1 point, since those are
// mostly foreign names. Hiragana and katakana read alike. Kanji are Han characters and read in Chinese (han.go): Japanese
// readings of kanji names need a dictionary that names do not follow,
// a limitation written in docs/MATCHING.md ("Text normalisation").

// kanaRomaji is the reading of each katakana letter from U+30A1 (ァ) to
// U+30FA (ヺ); hiragana are looked up at their katakana position.
var kanaRomaji = [...]string{
	"a", "a", "i", "i", "u", "u", "e", "e", "o", "o", // ァアィイゥウェエォオ
	"ka", "ga", "ki", "gi", "ku", "gu", "ke", "ge", "ko", "go", // カ..ゴ
	"sa", "za", "shi", "ji", "su", "zu", "se", "ze", "so", "zo", // サ..ゾ
	"ta", "da", "chi", "ji", "", "tsu", "zu", "te", "de", "to", "do", // タ..ド (ッ is "")
	"na", "ni", "nu", "ne", "no", // ナ..ノ
	"ha", "ba", "pa", "hi", "bi", "pi", "fu", "bu", "pu", "he", "be", "pe", "ho", "bo", "po",
	"ma", "mi", "mu", "me", "mo",
	"ya", "ya", "yu", "yu", "yo", "yo", // ャヤュユョヨ
	"ra", "ri", "ru", "re", "ro",
	"wa", "wa", "i", "e", "o", "n", "vu", "ka", "ke", "va", "vi", "ve", "vo",
}

const (
	kanaSmallTsu = 'ッ'
	kanaN        = 'ン'
	kanaLongMark = 'ー'
)

// kanaLongVowels collapses おう, おお and うう to one vowel, as passports do.
const kanaLongVowels = true

func isSmallVowel(r rune) bool {
	return r == 'ァ' || r == 'ィ' || r == 'ゥ' || r == 'ェ' || r == 'ォ'
}

func isSmallY(r rune) bool { return r == 'ャ' || r == 'ュ' || r == 'ョ' }

// toKatakana maps hiragana letters and iteration marks to katakana; other
// runes (the combining voicing marks U+3099 and U+309A, left over where
// no precomposed letter exists) are returned as they are, and read as
// nothing.
func toKatakana(r rune) rune {
	if r >= 0x3041 && r <= 0x3096 || r == 0x309D || r == 0x309E {
		return r + 0x60
	}
	return r
}

// kanaAinu is the reading of the small katakana for Ainu's final
// consonants, U+31F0 (ㇰ) to U+31FF (ㇿ).
var kanaAinu = [16]string{"k", "sh", "s", "t", "n", "h", "h", "f", "h", "h", "m", "r", "r", "r", "r", "r"}

func kanaReading(r rune) string {
	if r >= 0x30A1 && int(r-0x30A1) < len(kanaRomaji) {
		return kanaRomaji[r-0x30A1]
	}
	if r >= 0x31F0 && r <= 0x31FF {
		return kanaAinu[r-0x31F0]
	}
	return ""
}

func writeKana(b *strings.Builder, run string) {
	writeWords(b, run, func(word string) {
		writeCJKWord(b, word, func(w string) { writeKanaWord(b, w) }, func(w string) { writeKanaWord(b, w) })
	})
}

// writeKanaWord writes a word of kana in Latin letters: each kana's
// reading, with the small tsu doubling the next consonant, the long-vowel
// mark dropped and the iteration marks repeating the syllable before.
func writeKanaWord(b *strings.Builder, word string) {
	{
		var rbuf [32]rune
		w := rbuf[:0]
		for _, r := range word {
			w = append(w, toKatakana(r))
		}
		var obuf [96]byte
		out := obuf[:0]
		lastVowel := byte(0) // the vowel the previous kana ended in
		lastWasU := false    // the previous kana was a plain ウ
		pendingTsu := false
		prevStart := 0 // where the previous syllable starts in out
		for i := 0; i < len(w); i++ {
			r := w[i]
			switch {
			case r == kanaSmallTsu:
				pendingTsu = true
				continue
			case r == kanaLongMark:
				continue
			case r == 'ヽ' || r == 'ヾ':
				out = append(out, out[prevStart:]...)
				continue
			}
			s := kanaReading(r)
			if s == "" {
				continue
			}
			// A syllable is a consonant part, a glide and a vowel.
			cons, glide, vowel := s[:len(s)-1], "", s[len(s)-1:]
			if !strings.ContainsAny(vowel, "aiueo") {
				cons, vowel = s, "" // ン, and the Ainu finals
			}
			switch {
			case i+1 < len(w) && isSmallY(w[i+1]) && !isSmallY(r) && vowel != "":
				// きゃ kya, しゃ sha, ちゅ chu, じょ jo, でゅ dyu.
				vowel = kanaReading(w[i+1])[1:]
				if cons != "sh" && cons != "ch" && cons != "j" {
					glide = "y"
				}
				i++
			case i+1 < len(w) && isSmallVowel(w[i+1]) && !isSmallVowel(r) && vowel != "":
				// ファ fa, ティ ti, トゥ tu, ウォ wo, イェ ye, シェ she, クァ kwa.
				switch {
				case r == 'ウ':
					glide = "w"
				case r == 'イ':
					glide = "y"
				case vowel == "u" && cons != "f" && cons != "v" && cons != "ts" && cons != "t" && cons != "d":
					glide = "w"
				}
				vowel = kanaReading(w[i+1])
				i++
			}
			if pendingTsu {
				pendingTsu = false
				switch {
				case cons == "ch":
					out = append(out, 't')
				case cons != "" && cons != "n":
					out = append(out, cons[0])
				}
			}
			if r == kanaN {
				if next := nextKanaReading(w, i+1); next != "" && (next[0] == 'b' || next[0] == 'm' || next[0] == 'p') {
					cons = "m"
				}
			}
			if kanaLongVowels && cons == "" && glide == "" && (r == 'ウ' || r == 'オ') {
				// う after an o or u syllable, お after an o: the vowel
				// is long and written once.
				if lastVowel == 'o' || lastVowel == 'u' && r == 'ウ' && !lastWasU {
					lastWasU = r == 'ウ'
					continue
				}
			}
			prevStart = len(out)
			out = append(out, cons...)
			out = append(out, glide...)
			out = append(out, vowel...)
			if vowel != "" {
				lastVowel = vowel[0]
			} else {
				lastVowel = 0
			}
			lastWasU = r == 'ウ'
		}
		b.Write(out)
	}
}

// nextKanaReading is the reading of the next letter of w from i on, skipping
// the long mark.
func nextKanaReading(w []rune, i int) string {
	for ; i < len(w); i++ {
		if w[i] != kanaLongMark {
			return kanaReading(w[i])
		}
	}
	return ""
}
