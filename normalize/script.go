package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// script names a writing system that Fold romanises a run at a time rather
// than a letter at a time, because its letters read differently by context
// (Arabic vowels, kana sokuon, Hangul syllable blocks, Han names).
type script uint8

const (
	noScript script = iota
	arabicScript
	hebrewScript
	georgianScript
	armenianScript
	hangulScript
	kanaScript
	hanScript
)

// scriptBlock tells which run-romanised script's Unicode blocks hold r.
func scriptBlock(r rune) script {
	switch {
	case r < 0x0530:
		return noScript
	case r < 0x0590:
		return armenianScript
	case r < 0x0600:
		return hebrewScript
	case r < 0x0700, r >= 0x0750 && r < 0x0780, r >= 0x08A0 && r < 0x0900:
		return arabicScript
	case r < 0x10A0:
		return noScript
	case r < 0x1100, r >= 0x1C90 && r < 0x1CC0, r >= 0x2D00 && r < 0x2D30:
		return georgianScript
	case r < 0x1200:
		return hangulScript // conjoining jamo
	case r < 0x3005:
		return noScript
	case r == 0x3005: // 々, the kanji iteration mark
		return hanScript
	case r < 0x3040:
		return noScript
	case r < 0x3100 && r != 0x30FB: // kana; ・ separates like any punctuation
		return kanaScript
	case r >= 0x3130 && r < 0x3190:
		return hangulScript // compatibility jamo
	case r >= 0x31F0 && r < 0x3200:
		return kanaScript // small katakana for Ainu
	case r >= 0x3400 && r < 0x4DC0, r >= 0x4E00 && r < 0xA000, r >= 0xF900 && r < 0xFB00:
		return hanScript
	case r >= 0xAC00 && r < 0xD7B0:
		return hangulScript
	case r >= 0xFB1D && r < 0xFB50:
		return hebrewScript // presentation forms
	case r >= 0xFB50 && r < 0xFE00, r >= 0xFE70 && r < 0xFF00:
		return arabicScript // presentation forms
	case r >= 0xFF66 && r < 0xFFA0:
		return kanaScript // half-width katakana
	case r >= 0xFFA0 && r < 0xFFDD:
		return hangulScript // half-width jamo
	case r >= 0x20000 && r < 0x32000:
		return hanScript
	default:
		return noScript
	}
}

// scriptOf tells which run-romanised script r belongs to, for its letters,
// marks and digits only: punctuation of those blocks (، ؛ ؟, the Hebrew
// maqaf, Armenian full stop and hyphen) separates words as any
// punctuation does. Runes below U+0530 (Latin, Greek, Cyrillic) answer at
// the first comparison.
func scriptOf(r rune) script {
	sc := scriptBlock(r)
	if sc == noScript || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) {
		return sc
	}
	return noScript
}

// inRun reports whether r continues a run of sc that has begun: its own
// letters, and the joiners its words carry inside them (the Persian
// zero-width non-joiner, the Hebrew geresh and gershayim).
func inRun(sc script, r rune) bool {
	if scriptOf(r) == sc {
		return true
	}
	switch sc {
	case arabicScript:
		return r == 0x200C || r == 0x200D
	case hebrewScript:
		return r == 0x05F3 || r == 0x05F4 || r == '\''
	}
	return false
}

// runEnd returns where the run of sc that starts at s[i] ends. A run holds
// the script's words and the single spaces between them, so that
// romanisation can see the next word (Arabic عبد before an article, a
// Chinese name written with a space); it never ends in a space.
func runEnd(s string, i int, sc script) int {
	end := i
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case inRun(sc, r):
			j += size
			end = j
		case r == ' ':
			// A space continues the run only when the script goes on after it.
			n, _ := utf8.DecodeRuneInString(s[j+1:])
			if j+1 >= len(s) || scriptOf(n) != sc {
				return end
			}
			j++
		default:
			return end
		}
	}
	return end
}

// foldRun romanises the run s[i:end] of script sc into b. s is the whole
// text so that a transliterator can look at what stands around the run.
func foldRun(b *strings.Builder, sc script, s string, i, end int) {
	run := s[i:end]
	if needsCompat(run) {
		// Presentation forms and half-width letters: map them to the
		// ordinary letters the tables know.
		run = norm.NFKC.String(run)
	}
	switch sc {
	case arabicScript:
		writeArabic(b, run)
	case hebrewScript:
		writeHebrew(b, run)
	case georgianScript:
		writeGeorgian(b, run)
	case armenianScript:
		writeArmenian(b, run)
	case hangulScript:
		writeHangul(b, run)
	case kanaScript:
		writeKana(b, run)
	case hanScript:
		writeHan(b, run, foreignNameDots(s, i, end))
	}
}

// needsCompat reports whether run holds presentation forms, half-width
// letters or conjoining jamo, which NFKC maps to the letters (and Hangul
// syllables) the romanisation tables are written for.
func needsCompat(run string) bool {
	for _, r := range run {
		if r >= 0xFB1D && r < 0xFF00 || r >= 0xFF66 && r < 0xFFDD || r >= 0x1100 && r < 0x1200 || r >= 0x3130 && r < 0x3190 {
			return true
		}
	}
	return false
}

// writeWords calls word for each space-separated word of run, writing a
// space between the words.
func writeWords(b *strings.Builder, run string, word func(w string)) {
	first := true
	for len(run) > 0 {
		j := strings.IndexByte(run, ' ')
		if j < 0 {
			j = len(run)
		}
		if j > 0 {
			if !first {
				b.WriteByte(' ')
			}
			word(run[:j])
			first = false
		}
		if j < len(run) {
			j++
		}
		run = run[j:]
	}
}

// writeCJKWord writes a Han, kana or Hangul word with a legal form written
// onto it (株式会社トヨタ) as separate words: the form romanised as one word
// by plain, the rest by name (which may read it as a personal name).
func writeCJKWord(b *strings.Builder, word string, name, plain func(string)) {
	before, form, after := splitCJKLegal(word)
	if form == "" {
		name(word)
		return
	}
	if before != "" {
		name(before)
		b.WriteByte(' ')
	}
	plain(form)
	if after != "" {
		b.WriteByte(' ')
		name(after)
	}
}

// isWordBoundaryRune reports whether r, standing right beside a run of a
// romanised script, would otherwise fuse with the run into one word: a
// letter or digit of any other script (ABC有限公司, 田中さくら).
func isWordBoundaryRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
