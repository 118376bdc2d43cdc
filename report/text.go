package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
)

// This file turns a string into what a PDF needs: fpdf draws code points
// one glyph each, left to right, in one font. So text is cleaned, Arabic
// letters are replaced by their contextual presentation forms (the fonts
// carry those glyphs; fpdf has no shaping engine), lines are broken in
// logical order, and each line is then put into visual order with the
// Unicode bidirectional algorithm before it is cut into runs of one font.

// clean makes s safe to draw: invalid UTF-8 becomes U+FFFD, line breaks
// and tabs become spaces, and other control and format characters (which
// have no glyph, including explicit bidi controls) are dropped.
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	ok := true
	for _, r := range s {
		if r < ' ' || r == 0x7F || unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r < ' ' || r == 0x7F || unicode.Is(unicode.Cc, r):
		case r == 0x200D: // ZWJ joins Arabic letters; kept for shaping, dropped after
			b.WriteRune(r)
		case unicode.Is(unicode.Cf, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// arabicForms are the presentation forms of a letter: isolated, final,
// initial, medial. Letters that join only to the preceding letter have no
// initial or medial form.
type arabicForms [4]rune

const (
	formIsolated = iota
	formFinal
	formInitial
	formMedial
)

// arabic maps the letters of Arabic, Persian and Urdu names to their forms
// in the Arabic Presentation Forms blocks (A and B).
var arabic = map[rune]arabicForms{
	0x0621: {0xFE80, 0, 0, 0},
	0x0622: {0xFE81, 0xFE82, 0, 0},
	0x0623: {0xFE83, 0xFE84, 0, 0},
	0x0624: {0xFE85, 0xFE86, 0, 0},
	0x0625: {0xFE87, 0xFE88, 0, 0},
	0x0626: {0xFE89, 0xFE8A, 0xFE8B, 0xFE8C},
	0x0627: {0xFE8D, 0xFE8E, 0, 0},
	0x0628: {0xFE8F, 0xFE90, 0xFE91, 0xFE92},
	0x0629: {0xFE93, 0xFE94, 0, 0},
	0x062A: {0xFE95, 0xFE96, 0xFE97, 0xFE98},
	0x062B: {0xFE99, 0xFE9A, 0xFE9B, 0xFE9C},
	0x062C: {0xFE9D, 0xFE9E, 0xFE9F, 0xFEA0},
	0x062D: {0xFEA1, 0xFEA2, 0xFEA3, 0xFEA4},
	0x062E: {0xFEA5, 0xFEA6, 0xFEA7, 0xFEA8},
	0x062F: {0xFEA9, 0xFEAA, 0, 0},
	0x0630: {0xFEAB, 0xFEAC, 0, 0},
	0x0631: {0xFEAD, 0xFEAE, 0, 0},
	0x0632: {0xFEAF, 0xFEB0, 0, 0},
	0x0633: {0xFEB1, 0xFEB2, 0xFEB3, 0xFEB4},
	0x0634: {0xFEB5, 0xFEB6, 0xFEB7, 0xFEB8},
	0x0635: {0xFEB9, 0xFEBA, 0xFEBB, 0xFEBC},
	0x0636: {0xFEBD, 0xFEBE, 0xFEBF, 0xFEC0},
	0x0637: {0xFEC1, 0xFEC2, 0xFEC3, 0xFEC4},
	0x0638: {0xFEC5, 0xFEC6, 0xFEC7, 0xFEC8},
	0x0639: {0xFEC9, 0xFECA, 0xFECB, 0xFECC},
	0x063A: {0xFECD, 0xFECE, 0xFECF, 0xFED0},
	0x0641: {0xFED1, 0xFED2, 0xFED3, 0xFED4},
	0x0642: {0xFED5, 0xFED6, 0xFED7, 0xFED8},
	0x0643: {0xFED9, 0xFEDA, 0xFEDB, 0xFEDC},
	0x0644: {0xFEDD, 0xFEDE, 0xFEDF, 0xFEE0},
	0x0645: {0xFEE1, 0xFEE2, 0xFEE3, 0xFEE4},
	0x0646: {0xFEE5, 0xFEE6, 0xFEE7, 0xFEE8},
	0x0647: {0xFEE9, 0xFEEA, 0xFEEB, 0xFEEC},
	0x0648: {0xFEED, 0xFEEE, 0, 0},
	0x0649: {0xFEEF, 0xFEF0, 0, 0},
	0x064A: {0xFEF1, 0xFEF2, 0xFEF3, 0xFEF4},
	0x0671: {0xFB50, 0xFB51, 0, 0},
	0x0679: {0xFB66, 0xFB67, 0xFB68, 0xFB69},
	0x067E: {0xFB56, 0xFB57, 0xFB58, 0xFB59},
	0x0686: {0xFB7A, 0xFB7B, 0xFB7C, 0xFB7D},
	0x0688: {0xFB88, 0xFB89, 0, 0},
	0x0691: {0xFB8C, 0xFB8D, 0, 0},
	0x0698: {0xFB8A, 0xFB8B, 0, 0},
	0x06A9: {0xFB8E, 0xFB8F, 0xFB90, 0xFB91},
	0x06AF: {0xFB92, 0xFB93, 0xFB94, 0xFB95},
	0x06BE: {0xFBAA, 0xFBAB, 0xFBAC, 0xFBAD},
	0x06C0: {0xFBA4, 0xFBA5, 0, 0},
	0x06C1: {0xFBA6, 0xFBA7, 0xFBA8, 0xFBA9},
	0x06CC: {0xFBFC, 0xFBFD, 0xFBFE, 0xFBFF},
	0x06D2: {0xFBAE, 0xFBAF, 0, 0},
}

// lamAlef are the ligatures of lam with a following alef: isolated and
// final forms.
var lamAlef = map[rune][2]rune{
	0x0622: {0xFEF5, 0xFEF6},
	0x0623: {0xFEF7, 0xFEF8},
	0x0625: {0xFEF9, 0xFEFA},
	0x0627: {0xFEFB, 0xFEFC},
}

// Joining types of the Unicode Arabic joining model.
type joining uint8

const (
	joinNone        joining = iota // U: does not join
	joinDual                       // D: joins on both sides
	joinRight                      // R: joins only to the preceding letter
	joinCausing                    // C: tatweel and ZWJ
	joinTransparent                // T: marks, skipped when finding neighbours
)

func joiningOf(r rune) joining {
	if f, ok := arabic[r]; ok {
		switch {
		case f[formInitial] != 0:
			return joinDual
		case f[formFinal] != 0:
			return joinRight
		}
		return joinNone
	}
	switch {
	case r == 0x0640 || r == 0x200D:
		return joinCausing
	case r == 0x0670 || unicode.Is(unicode.Mn, r):
		return joinTransparent
	}
	return joinNone
}

// shapeArabic replaces Arabic letters in s by their contextual forms,
// keeping logical order. has says whether the font holds a form; a form it
// lacks leaves the letter as it is. Text without Arabic is returned as is.
func shapeArabic(s string, has func(rune) bool) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x0600 && r <= 0x06FF }) {
		return strings.ReplaceAll(s, "\u200D", "")
	}
	rs := []rune(s)
	js := make([]joining, len(rs))
	for i, r := range rs {
		js[i] = joiningOf(r)
	}
	neighbour := func(i, step int) int {
		for j := i + step; j >= 0 && j < len(rs); j += step {
			if js[j] != joinTransparent {
				return j
			}
		}
		return -1
	}
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == 0x200D {
			continue
		}
		forms, ok := arabic[r]
		if !ok {
			out = append(out, r)
			continue
		}
		p, n := neighbour(i, -1), neighbour(i, 1)
		joinsPrev := p >= 0 && (js[p] == joinDual || js[p] == joinCausing) && js[i] != joinNone
		joinsNext := n >= 0 && (js[n] == joinDual || js[n] == joinRight || js[n] == joinCausing) && js[i] == joinDual
		if r == 0x0644 && n == i+1 {
			if lig, ok := lamAlef[rs[n]]; ok {
				g := lig[0]
				if joinsPrev {
					g = lig[1]
				}
				if has(g) {
					out = append(out, g)
					i = n
					continue
				}
			}
		}
		form := formIsolated
		switch {
		case joinsPrev && joinsNext:
			form = formMedial
		case joinsPrev:
			form = formFinal
		case joinsNext:
			form = formInitial
		}
		if g := forms[form]; g != 0 && has(g) {
			r = g
		}
		out = append(out, r)
	}
	return string(out)
}

// isRTL reports whether s holds a right-to-left letter, the only case in
// which a line needs reordering.
func isRTL(s string) bool {
	for _, r := range s {
		if r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFF {
			return true
		}
	}
	return false
}

// visual returns one line of text in display order, by the Unicode
// bidirectional algorithm (UAX #9) without explicit embeddings, which
// clean removed: rules P2–P3, W1–W7, N1–N2, I1–I2, L1, L2 and mirroring
// (L4) of paired punctuation. The paragraph direction is that of the first
// strong letter, so an Arabic name reads right to left as a whole while a
// Latin label with an Arabic word in it keeps its order.
func visual(line string) string {
	if !isRTL(line) {
		return line
	}
	rs := []rune(line)
	cls, para := classify(rs)
	sos := bidi.L
	if para == 1 {
		sos = bidi.R
	}
	resolveWeak(cls, sos)
	resolveNeutral(cls, sos)
	levels := implicitLevels(rs, cls, para)
	reorder(rs, levels)
	return string(rs)
}

// classify returns the bidirectional class of every rune and the
// paragraph level (P2, P3): 1 when the first strong character is right to
// left, else 0.
func classify(rs []rune) ([]bidi.Class, int) {
	cls := make([]bidi.Class, len(rs))
	for i, r := range rs {
		p, _ := bidi.LookupRune(r)
		cls[i] = p.Class()
	}
	para := 0
	for _, c := range cls {
		if c == bidi.L {
			break
		}
		if c == bidi.R || c == bidi.AL {
			para = 1
			break
		}
	}
	return cls, para
}

// resolveWeak applies rules W1–W7 to cls in place; sos is the direction
// at the start of the line.
func resolveWeak(cls []bidi.Class, sos bidi.Class) {
	n := len(cls)
	// W1: marks take the type of what they follow.
	for i, c := range cls {
		if c == bidi.NSM {
			if i == 0 {
				cls[i] = sos
			} else {
				cls[i] = cls[i-1]
			}
		}
	}
	// W2, W3: European digits after Arabic letters are Arabic numbers;
	// Arabic letters are R from here on.
	last := sos
	for i, c := range cls {
		switch c {
		case bidi.L, bidi.R, bidi.AL:
			last = c
		case bidi.EN:
			if last == bidi.AL {
				cls[i] = bidi.AN
			}
		}
	}
	for i, c := range cls {
		if c == bidi.AL {
			cls[i] = bidi.R
		}
	}
	// W4: one separator between two numbers of a kind joins them.
	for i := 1; i+1 < n; i++ {
		a, c, b := cls[i-1], cls[i], cls[i+1]
		if c == bidi.ES && a == bidi.EN && b == bidi.EN || c == bidi.CS && a == b && (a == bidi.EN || a == bidi.AN) {
			cls[i] = a
		}
	}
	// W5: terminators (currency, %) next to European numbers join them.
	for i := 0; i < n; i++ {
		if cls[i] != bidi.ET {
			continue
		}
		j := i
		for j < n && cls[j] == bidi.ET {
			j++
		}
		if i > 0 && cls[i-1] == bidi.EN || j < n && cls[j] == bidi.EN {
			for k := i; k < j; k++ {
				cls[k] = bidi.EN
			}
		}
		i = j - 1
	}
	// W6: remaining separators and terminators are neutral.
	for i, c := range cls {
		if c == bidi.ES || c == bidi.ET || c == bidi.CS {
			cls[i] = bidi.ON
		}
	}
	// W7: European numbers in a left-to-right context are L.
	last = sos
	for i, c := range cls {
		switch c {
		case bidi.L, bidi.R:
			last = c
		case bidi.EN:
			if last == bidi.L {
				cls[i] = bidi.L
			}
		}
	}
}

// resolveNeutral applies rules N1 and N2 to cls in place: neutrals
// between two strongs of one direction take it, others the direction sos
// of the paragraph. Numbers count as R here.
func resolveNeutral(cls []bidi.Class, sos bidi.Class) {
	n := len(cls)
	strong := func(c bidi.Class) (bidi.Class, bool) {
		switch c {
		case bidi.L:
			return bidi.L, true
		case bidi.R, bidi.EN, bidi.AN:
			return bidi.R, true
		}
		return 0, false
	}
	for i := 0; i < n; i++ {
		if _, ok := strong(cls[i]); ok {
			continue
		}
		j := i
		for j < n {
			if _, ok := strong(cls[j]); ok {
				break
			}
			j++
		}
		before, after := sos, sos
		if i > 0 {
			before, _ = strong(cls[i-1])
		}
		if j < n {
			after, _ = strong(cls[j])
		}
		dir := sos
		if before == after {
			dir = before
		}
		for k := i; k < j; k++ {
			cls[k] = dir
		}
		i = j - 1
	}
}

// implicitLevels returns the embedding level of every rune (I1, I2), with
// trailing white space at the paragraph level (L1).
func implicitLevels(rs []rune, cls []bidi.Class, para int) []int {
	levels := make([]int, len(cls))
	for i, c := range cls {
		lv := para
		switch {
		case para%2 == 0 && c == bidi.R:
			lv++
		case para%2 == 0 && (c == bidi.AN || c == bidi.EN):
			lv += 2
		case para%2 == 1 && (c == bidi.L || c == bidi.EN || c == bidi.AN):
			lv++
		}
		levels[i] = lv
	}
	for i := len(rs) - 1; i >= 0 && unicode.IsSpace(rs[i]); i-- {
		levels[i] = para
	}
	return levels
}

// reorder puts rs in display order by their levels: mirrored glyphs for
// paired punctuation at right-to-left levels (L4), then every run at each
// level reversed, from the highest down to the lowest odd one (L2).
func reorder(rs []rune, levels []int) {
	n := len(rs)
	for i, r := range rs {
		if levels[i]%2 == 1 {
			if m, ok := mirror[r]; ok {
				rs[i] = m
			}
		}
	}
	hi, lo := 0, 99
	for _, lv := range levels {
		hi = max(hi, lv)
		if lv%2 == 1 {
			lo = min(lo, lv)
		}
	}
	for lv := hi; lv >= lo && lv > 0; lv-- {
		for i := 0; i < n; i++ {
			if levels[i] < lv {
				continue
			}
			j := i
			for j < n && levels[j] >= lv {
				j++
			}
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				rs[a], rs[b] = rs[b], rs[a]
				levels[a], levels[b] = levels[b], levels[a]
			}
			i = j
		}
	}
}

var mirror = map[rune]rune{
	'(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<',
	'«': '»', '»': '«', '‹': '›', '›': '‹',
}
