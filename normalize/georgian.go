package normalize

import "strings"

// georgianLetters is the national romanisation of Georgian (2002), without
// the apostrophes that mark ejectives (კ k', პ p', ტ t', წ ts', ჭ ch', ყ
// q'), since lists write names without them (სააკაშვილი → saakashvili).
// Index: rune - 'ა' (U+10D0), Mkhedruli and the archaic letters after it.
var georgianLetters = [...]string{
	"a", "b", "g", "d", "e", "v", "z", "t", "i", "k", "l", "m", "n", "o",
	"p", "zh", "r", "s", "t", "u", "p", "k", "gh", "q", "sh", "ch", "ts",
	"dz", "ts", "ch", "kh", "j", "h",
	// archaic: ჱ ჲ ჳ ჴ ჵ ჶ ჷ ჸ ჹ ჺ
	"e", "y", "w", "q", "o", "f", "", "", "", "",
}

func writeGeorgian(b *strings.Builder, run string) {
	for _, r := range run {
		if r == ' ' {
			b.WriteByte(' ')
			continue
		}
		switch {
		case r >= 0x1C90 && r < 0x1CC0: // Mtavruli capitals
			r -= 0x1C90 - 0x10D0
		case r >= 0x10A0 && r < 0x10C6: // Asomtavruli
			r -= 0x10A0 - 0x10D0
		case r >= 0x2D00 && r < 0x2D26: // Nuskhuri
			r -= 0x2D00 - 0x10D0
		}
		if i := int(r - 0x10D0); i >= 0 && i < len(georgianLetters) {
			b.WriteString(georgianLetters[i])
		}
	}
}
