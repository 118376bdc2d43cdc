package normalize

import "sync"

// This file tells a word that is romanised Chinese or Korean syllables
// (wang, hailan, jong, hyon) from other words. Such a word is made of
// units of two to six letters, and one edit turns one unit into another
// real one (hou, zhou; hyok, hyon; hailan, haiyan), so the scored matcher
// pairs two such words only by the name variant table (pak, park, bak;
// chen, chan), never by an edit. Words of one syllable, or two of pinyin,
// count (Chinese given names have one or two, Korean names one a word);
// longer ones are left to the edit rules, where a chance split
// (so-lei-ma-ni) would do harm.

// syllableSets hold every toneless pinyin syllable of the Han table
// (pinyin), and those with every Korean syllable as the Hangul
// romanisation writes it, at the start of a word and voiced inside one,
// and the Korean family names it spells apart (lee, lim) (all).
var syllableSets = sync.OnceValues(func() (pinyin, all map[string]bool) {
	pinyin = make(map[string]bool, 500)
	all = make(map[string]bool, 3000)
	loadHanTable()
	for _, s := range hanSyllables {
		if len(s) > 1 {
			pinyin[s] = true
			all[s] = true
		}
	}
	for l := range hangulInitial {
		for _, ini := range [2]string{hangulInitial[l], hangulVoiced[l]} {
			for _, v := range hangulVowel {
				for _, t := range hangulFinal {
					if s := ini + v + t; len(s) > 1 {
						all[s] = true
					}
				}
			}
		}
	}
	// Revised Romanisation and the spellings people choose for
	// themselves (Hoon, Hyun, Soo, Joon): other romanisations of one
	// Korean syllable.
	for _, ini := range koreanInitials {
		for _, v := range koreanVowels {
			for _, t := range koreanFinals {
				if s := ini + v + t; len(s) > 1 {
					all[s] = true
				}
			}
		}
	}
	for _, s := range hangulSurnames {
		all[s] = true
	}
	return pinyin, all
})

var (
	koreanInitials = []string{"", "g", "k", "kk", "n", "d", "t", "tt", "r", "l", "m", "b", "p", "pp", "s", "ss", "sh", "j", "jj", "ch", "h"}
	koreanVowels   = []string{"a", "ae", "ya", "yae", "eo", "u", "o", "e", "yeo", "yu", "yo", "ye", "wa", "wae", "oe", "oi",
		"oo", "wo", "we", "wi", "yoo", "eu", "ui", "i", "ee"}
	koreanFinals = []string{"", "k", "g", "n", "t", "d", "l", "m", "p", "b", "ng"}
)

// IsRomanSyllable reports whether folded word w is one romanised Chinese
// or Korean syllable of two letters or more (li, zhou, hyon, chol): the
// unit of a Chinese or Korean name, where a syllable more is another
// given name, not a middle name.
func IsRomanSyllable(w string) bool {
	if len(w) < 2 || len(w) > 12 {
		return false
	}
	_, all := syllableSets()
	return all[w]
}

// IsRomanSyllables reports whether folded word w is one romanised Chinese
// or Korean syllable of two letters or more (li, zhou, hyon), or two
// pinyin syllables (hailan, the joined syllables of a Chinese given name),
// as the Han and Hangul romanisations write them. Korean words of two
// syllables do not count: the romanisation writes a name's syllables
// apart, and two Korean syllables make many Western words (put-tin).
func IsRomanSyllables(w string) bool {
	if len(w) < 2 || len(w) > 12 {
		return false
	}
	pinyin, all := syllableSets()
	if all[w] {
		return true
	}
	for i := 2; i <= len(w)-2; i++ {
		if pinyin[w[:i]] && pinyin[w[i:]] {
			return true
		}
	}
	return false
}

// koreanGroup maps each spelling of a part of a Korean syllable to the
// group of spellings that romanisations use for one sound: McCune–Reischauer
// without its marks, Revised Romanisation and the spellings people choose
// (Chol, Chul, Cheol; Myong, Myung, Myeong).
var koreanGroup = map[string]string{
	// initials
	"": "-", "g": "G", "k": "G", "kk": "G", "n": "N", "d": "D", "t": "D", "tt": "D",
	"r": "R", "l": "R", "m": "M", "b": "B", "p": "B", "pp": "B", "s": "S", "ss": "S", "sh": "S",
	"j": "J", "jj": "J", "ch": "J", "h": "H",
}

var koreanVowelGroup = map[string]string{
	"a": "a", "ae": "e", "e": "e", "ya": "ya", "yae": "ye", "ye": "ye",
	"eo": "o", "o": "o", "u": "o", "oo": "o", "eu": "o",
	"yeo": "yo", "yo": "yo", "yu": "yo", "yoo": "yo",
	"wa": "wa", "wae": "we", "we": "we", "oe": "we", "oi": "we", "wo": "wo", "wi": "wi", "ui": "ui",
	"i": "i", "ee": "i",
}

var koreanFinalGroup = map[string]string{
	"": "-", "k": "K", "g": "K", "n": "N", "t": "T", "d": "T", "l": "L", "m": "M", "p": "P", "b": "P", "ng": "NG",
}

// koreanKeys calls fn with the sound key of every reading of w as one
// romanised Korean syllable.
func koreanKeys(w string, fn func(key string)) {
	for _, ini := range koreanInitials {
		if len(ini) > len(w) || w[:len(ini)] != ini {
			continue
		}
		rest := w[len(ini):]
		for _, v := range koreanVowels {
			if len(v) > len(rest) || rest[:len(v)] != v {
				continue
			}
			fin, ok := koreanFinalGroup[rest[len(v):]]
			if !ok {
				continue
			}
			fn(koreanGroup[ini] + koreanVowelGroup[v] + fin)
		}
	}
}

// koreanKeyMap holds the sound keys of every romanised Korean syllable
// spelling (koreanKeys), read once: the matcher asks about word pairs in
// its inner loop.
var koreanKeyMap = sync.OnceValue(func() map[string][]string {
	m := make(map[string][]string, 8000)
	for _, ini := range koreanInitials {
		for _, v := range koreanVowels {
			for _, t := range koreanFinals {
				w := ini + v + t
				if len(w) < 2 || m[w] != nil {
					continue
				}
				koreanKeys(w, func(k string) {
					for _, x := range m[w] {
						if x == k {
							return
						}
					}
					m[w] = append(m[w], k)
				})
			}
		}
	}
	return m
})

// SameKoreanSyllable reports whether folded words a and b can be one
// Korean syllable in two romanisations (chol, chul; myong, myung), where
// the sounds they write agree: not hyon and hoon, hyok and hyon, or song
// and dong.
func SameKoreanSyllable(a, b string) bool {
	m := koreanKeyMap()
	ka, kb := m[a], m[b]
	for _, x := range ka {
		for _, y := range kb {
			if x == y {
				return true
			}
		}
	}
	return false
}
