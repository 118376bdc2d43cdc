package normalize

import (
	"strings"
	"unicode"
)

// armenianLetters is the BGN/PCGN romanisation of Eastern Armenian, as
// lists write names (Փաշինյան → pashinyan). Index: lower-case rune - 'ա'
// (U+0561). Context rules in writeArmenian: ե is "ye" and ո is "vo" at the
// start of a word, ու is "u", և is "yev" at the start and "ev" inside.
var armenianLetters = [...]string{
	"a", "b", "g", "d", "e", "z", "e", "y", "t", "zh", "i", "l", "kh", "ts",
	"k", "h", "dz", "gh", "ch", "m", "y", "n", "sh", "o", "ch", "p", "j",
	"r", "s", "v", "t", "r", "ts", "v", "p", "k", "o", "f",
}

func writeArmenian(b *strings.Builder, run string) {
	writeWords(b, run, func(word string) {
		var buf [32]rune
		w := buf[:0]
		for _, r := range word {
			if unicode.IsLetter(r) {
				w = append(w, unicode.ToLower(r))
			}
		}
		for i := 0; i < len(w); i++ {
			r := w[i]
			switch {
			case r == 'ո' && i+1 < len(w) && w[i+1] == 'ւ':
				b.WriteString("u")
				i++
			case r == 'ո' && i == 0:
				b.WriteString("vo")
			case r == 'ե' && i == 0:
				b.WriteString("ye")
			case r == 'և' && i == 0:
				b.WriteString("yev")
			case r == 'և':
				b.WriteString("ev")
			case r >= 'ա' && r <= 'ֆ':
				b.WriteString(armenianLetters[r-'ա'])
			}
		}
	})
}
