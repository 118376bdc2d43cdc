package engine

import (
	"unicode"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
)

// This file decides, for scored mode, whether a query word may pair with a
// record word and how closely the two agree. The index and the brute-force
// reference both call relate, so they agree on every pair; they differ
// only in how they find the words worth asking about.

// Kinds of pair, from the closest to the loosest. A word pair has one of
// the first five; a pair that joins two words of one side has kindJoined.
const (
	kindExact    uint8 = iota + 1 // the same word
	kindVariant                   // two spellings of one name (normalize/namevariants.txt)
	kindEdit                      // within the fuzzy edit radius, as in strict mode
	kindSound                     // the same sound key
	kindSkeleton                  // the same consonant skeleton
	kindJoined                    // one word against two adjacent words of the other side
)

var kindNames = [...]string{
	kindExact: "exact", kindVariant: "variant", kindEdit: "edit", kindSound: "sound",
	kindSkeleton: "skeleton", kindJoined: "joined",
}

func kindName(k uint8) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// minPairSim is the least similarity at which a sound or skeleton pair
// counts: two words that share their consonants but little else (Karim,
// Krum) are no evidence of one name.
const minPairSim = 0.6

// tokInfo is a token with what relate needs of it, computed once.
type tokInfo struct {
	text        string
	runes       []rune
	sound, skel string
	class       int32 // given-name variant class, 0 for none
	// syllables: the word is one or two romanised Chinese or Korean
	// syllables (normalize.IsRomanSyllables).
	syllables bool
	legal     bool // a canonical legal-form token
	digit     bool // holds a digit: pairs only exactly
	// optional: a legal form or an initial, which names write or leave
	// out at will; it does not count towards a complete match.
	optional bool
	// share is the share of its culture's people who bear the word as a
	// name (normalize.Common), 0 when it is not a very common name.
	share float64
	// arabic: a word of a query written in Arabic script, romanised; it
	// pairs with the words it would pair with anyway at the similarity
	// of arabicSim, which knows the letters Arabic does not write.
	arabic bool
}

// optionalWord reports whether token t is optional (tokInfo.optional): a
// legal form, an initial, or the article "the", which company names write
// or leave out at will (The World Bank, World Bank).
func optionalWord(t string) bool {
	if normalize.IsLegalForm(t) || t == "the" {
		return true
	}
	r, n := utf8.DecodeRuneInString(t)
	return n == len(t) && unicode.IsLetter(r)
}

func newTokInfo(s string) tokInfo {
	t := tokInfo{text: s, legal: normalize.IsLegalForm(s), optional: optionalWord(s)}
	if t.legal {
		return t
	}
	t.runes = []rune(s)
	for _, r := range t.runes {
		if unicode.IsDigit(r) {
			t.digit = true
			return t
		}
	}
	t.sound, t.skel = normalize.PhoneticKeys(s)
	t.class = normalize.Variants().Class(s)
	t.syllables = normalize.IsRomanSyllables(s)
	t.share = normalize.Common().Share(s)
	return t
}

// bySyllableOnly reports whether two different words of no common variant
// class may not pair at all: both are romanised Chinese or Korean
// syllables (hou, zhou; hailan, haiyan; hyok, hyon), where one edit makes
// another real syllable, so only the variant table (pak, park; chen,
// chan) and the romanisations of one Korean syllable (chol, chul) pair
// them, the latter by the edit rules as other words.
func bySyllableOnly(q, t *tokInfo) bool {
	return q.syllables && t.syllables && !normalize.SameKoreanSyllable(q.text, t.text)
}

// partner is how one query unit pairs with one record word.
type partner struct {
	sim   float64
	w     float64 // the pair's weight (weighPartners)
	kind  uint8
	edits uint8 // Damerau–Levenshtein (optimal string alignment) edits, capped at 255
}

// relate reports whether query token q may pair with record token t at
// fuzzy level fuzzy, and how: the same word; two spellings of one name of
// the variant table; at fuzzy 1 and 2 also within the edit radius of
// strict mode, or sharing a sound key or a consonant skeleton. Two words
// of different variant classes never pair (Hassan, Hussein; Jason,
// Mason), nor two different romanised Chinese or Korean syllable words
// outside one class (hou, zhou; hyok, hyon), nor words with digits beyond
// the edit radius, nor canonical legal forms unless
// equal: two different legal forms are each a word without a partner,
// which costs a little.
func relate(q, t *tokInfo, fuzzy int) (partner, bool) {
	if q.text == t.text {
		return partner{sim: 1, kind: kindExact}, true
	}
	if q.legal || t.legal || fuzzy == 0 && (q.digit || t.digit) {
		return partner{}, false
	}
	if q.class != 0 && t.class != 0 {
		if q.class != t.class {
			return partner{}, false
		}
		return partner{sim: max(variantSim, weightedSim(q.runes, t.runes)), kind: kindVariant, edits: osaEdits(q.runes, t.runes)}, true
	}
	if bySyllableOnly(q, t) {
		return partner{}, false
	}
	if fuzzy == 0 {
		return partner{}, false
	}
	d := dict.Distance(q.runes, t.runes, 2)
	if q.digit || t.digit {
		// Numbers pair within the edit radius, as in strict mode, never
		// by sound.
		if d > allowedEdits(fuzzy, q.text, t.text) {
			return partner{}, false
		}
		return partner{sim: weightedSim(q.runes, t.runes), kind: kindEdit, edits: uint8(d)}, true
	}
	var kind uint8
	switch {
	case d <= allowedEdits(fuzzy, q.text, t.text):
		kind = kindEdit
	case q.sound != "" && q.sound == t.sound:
		kind = kindSound
	case q.skel != "" && q.skel == t.skel:
		kind = kindSkeleton
	default:
		return partner{}, false
	}
	sim := pairSim(q, t)
	if kind != kindEdit && sim < minPairSim {
		return partner{}, false
	}
	if d > 2 {
		d = int(osaEdits(q.runes, t.runes))
	}
	return partner{sim: sim, kind: kind, edits: uint8(min(d, 255))}, true
}

// relatePiece is relate for a piece of a query word split in two (Aliakbar
// against Ali Akbar): exact, variant and sound pairs only, since a piece
// has no length of its own to measure edits against.
func relatePiece(q, t *tokInfo, fuzzy int) (partner, bool) {
	if q.text == t.text {
		return partner{sim: 1, kind: kindExact}, true
	}
	if q.legal || t.legal || q.digit || t.digit {
		return partner{}, false
	}
	if q.class != 0 && t.class != 0 {
		if q.class != t.class {
			return partner{}, false
		}
		return partner{sim: max(variantSim, weightedSim(q.runes, t.runes)), kind: kindVariant, edits: osaEdits(q.runes, t.runes)}, true
	}
	if bySyllableOnly(q, t) {
		return partner{}, false
	}
	if fuzzy == 0 || q.sound == "" || q.sound != t.sound {
		return partner{}, false
	}
	sim := weightedSim(q.runes, t.runes)
	if sim < minPairSim {
		return partner{}, false
	}
	return partner{sim: sim, kind: kindSound, edits: osaEdits(q.runes, t.runes)}, true
}

// variantSim is the least similarity of two spellings of one name.
const variantSim = 0.92

// osaEdits is the optimal-string-alignment distance of a and b, capped at
// 255.
func osaEdits(a, b []rune) uint8 {
	return uint8(min(dict.Distance(a, b, max(len(a), len(b))), 255))
}

// splitPieces calls fn for every way of cutting q into two pieces of two
// runes or more, shortest first piece first.
func splitPieces(q string, fn func(a, b string)) {
	n := utf8.RuneCountInString(q)
	if n < 4 {
		return
	}
	runes := 0
	for i := range q {
		if runes >= 2 && n-runes >= 2 {
			fn(q[:i], q[i:])
		}
		runes++
	}
}

// splitPieces3 calls fn for every way of cutting q into three pieces of
// two runes or more (Vanderbilt against Van der Bilt), shortest first
// piece first, then shortest second.
func splitPieces3(q string, fn func(a, b, c string)) {
	n := utf8.RuneCountInString(q)
	if n < 6 {
		return
	}
	i := 0
	for ri := 0; i < len(q); ri++ {
		if ri >= 2 && n-ri >= 4 {
			rest := q[i:]
			j := 0
			for rj := 0; j < len(rest); rj++ {
				if rj >= 2 && n-ri-rj >= 2 {
					fn(q[:i], rest[:j], rest[j:])
				}
				_, size := utf8.DecodeRuneInString(rest[j:])
				j += size
			}
		}
		_, size := utf8.DecodeRuneInString(q[i:])
		i += size
	}
}

// Weighted edit costs. Transliteration schemes disagree on vowels, on
// y, i and j, on doubled letters and on an h after a consonant; typing
// errors do not prefer any letter. So those edits cost less than one.
const (
	costDefault   = 1.0
	costSwap      = 0.8 // two adjacent letters swapped
	costDouble    = 0.2 // a doubled letter written once (Hassan, Hasan)
	costH         = 0.4 // an h inserted or dropped (Kh/H, Gh/G)
	costVowelGap  = 0.5 // a vowel inserted or dropped (Abdel, Abdl)
	costVowelSub  = 0.5 // one vowel for another
	costCloseSub  = 0.3 // close vowels (e/i, o/u, a/e) and y/i/j, c/k/q
	costNearSub   = 0.2 // i/y, v/w
	costSimilar   = 0.5 // consonants that schemes swap (s/z, f/v, g/j, ch/j, l/r)
	costVoicedSub = 0.6 // voiced and voiceless pairs (d/t, b/p, g/k)
)

func isVowelRune(r rune) bool {
	switch r {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// subCost is the cost of writing b where a was written.
func subCost(a, b rune) float64 {
	if a == b {
		return 0
	}
	if a > b {
		a, b = b, a
	}
	switch {
	case a == 'i' && b == 'y', a == 'v' && b == 'w':
		return costNearSub
	case a == 'e' && b == 'i', a == 'o' && b == 'u', a == 'a' && b == 'e',
		a == 'i' && b == 'j', a == 'j' && b == 'y',
		a == 'c' && b == 'k', a == 'k' && b == 'q', a == 'c' && b == 'q':
		return costCloseSub
	case isVowelRune(a) && isVowelRune(b):
		return costVowelSub
	case a == 's' && b == 'z', a == 'c' && b == 's', a == 'f' && b == 'v', a == 'f' && b == 'p',
		a == 'g' && b == 'j', a == 'h' && b == 'k', a == 'k' && b == 'x', a == 'c' && b == 'j',
		a == 'l' && b == 'r':
		return costSimilar
	case a == 'd' && b == 't', a == 'b' && b == 'p', a == 'g' && b == 'k', a == 'g' && b == 'q':
		return costVoicedSub
	}
	return costDefault
}

// isHDigraphStart reports whether r followed by h makes one sound in a
// transliteration scheme (kh, gh, sh, ch, zh, th, dh, ph).
func isHDigraphStart(r rune) bool {
	switch r {
	case 'k', 'g', 's', 'c', 'z', 't', 'd', 'p':
		return true
	}
	return false
}

// gapCost is the cost of s[i] inserted or dropped.
func gapCost(s []rune, i int) float64 {
	r := s[i]
	if i > 0 && s[i-1] == r || i+1 < len(s) && s[i+1] == r {
		return costDouble
	}
	if r == 'h' || i+1 < len(s) && s[i+1] == 'h' && isHDigraphStart(r) {
		return costH // kh/h, sh/s and the like: one letter of a digraph
	}
	if isVowelRune(r) {
		return costVowelGap
	}
	return costDefault
}

// wordUnitKind is the kind of the partner-cache key of query word t: "a"
// for a word of a query in Arabic script, whose partners pair at other
// similarities (arabicSim), "w" for any other.
func wordUnitKind(t *tokInfo) string {
	if t.arabic {
		return "a"
	}
	return "w"
}

// pairSim is how closely query word q and record word t agree:
// weightedSim, or arabicSim when q is a word of a query in Arabic script.
func pairSim(q, t *tokInfo) float64 {
	if q.arabic {
		return arabicSim(q.runes, t.runes)
	}
	return weightedSim(q.runes, t.runes)
}

// Arabic script writes no p, v, e or o, and no short vowels: a Latin name
// written in Arabic and romanised back comes out with b for p, f for v, i
// for e, u for o, and its vowels guessed (بيريز, biriz, is Pérez;
// فلاديمير, faladimir, is Vladimir). Those differences cost little when
// the query is written in Arabic script and the record word is not.
const (
	costArabicLetter = 0.1 // b for p, f for v, i for e, u for o
	costArabicVowel  = 0.2 // a for e or o; a vowel inside the word written or guessed on one side only
)

// arabicSub is the cost of the query's letter q (a romanised Arabic
// letter) where the record word writes r: costArabicLetter or
// costArabicVowel for what Arabic cannot write, subCost otherwise.
func arabicSub(q, r rune) float64 {
	switch {
	case q == 'b' && r == 'p', q == 'f' && r == 'v', q == 'i' && r == 'e', q == 'u' && r == 'o':
		return costArabicLetter
	case q == 'a' && (r == 'e' || r == 'o'):
		return costArabicVowel
	}
	return subCost(q, r)
}

// arabicGap is gapCost, at most costArabicVowel for a vowel inside the
// word: Arabic leaves short vowels unwritten, but writes the long ones a
// name begins or ends with (Pablo, بابلو; Salimi, سالمي), so a vowel
// missing there is a difference.
func arabicGap(s []rune, i int) float64 {
	c := gapCost(s, i)
	if i > 0 && i+1 < len(s) && isVowelRune(s[i]) {
		c = min(c, costArabicVowel)
	}
	return c
}

// arabicSim is weightedSim of query word a, romanised from Arabic script,
// and record word b, under the costs of arabicSub and arabicGap: never
// lower than weightedSim, since no cost is higher.
func arabicSim(a, b []rune) float64 { return editSim(a, b, true) }

// weightedSim is 1 − (weighted edit cost) / (longer length): 1 for equal
// words, lower as more letters differ, and less lowered by the edits that
// transliteration makes (Mikhaylovich, Mikhailovich: 0.98; Pasichnyk,
// Pasechnik: 0.91) than by arbitrary ones. The cost is that of the
// cheapest optimal-string-alignment edit script under the costs above.
func weightedSim(a, b []rune) float64 { return editSim(a, b, false) }

// editSim is weightedSim, under the costs of arabicSim when arabic is set.
func editSim(a, b []rune, arabic bool) float64 {
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		if la == lb {
			return 1
		}
		return 0
	}
	var buf [4][40]float64
	var d0, d1, d2, gapB []float64 // rows i-2, i-1, i; gap costs of b
	if lb+1 <= len(buf[0]) {
		d0, d1, d2, gapB = buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1], buf[3][:lb]
	} else {
		d0, d1, d2, gapB = make([]float64, lb+1), make([]float64, lb+1), make([]float64, lb+1), make([]float64, lb)
	}
	// The costs are called directly, not through a function value, and
	// the gap costs of each letter computed once: this runs for every
	// word a query word's look-up finds.
	gap := func(s []rune, i int) float64 {
		if arabic {
			return arabicGap(s, i)
		}
		return gapCost(s, i)
	}
	for j := range gapB {
		gapB[j] = gap(b, j)
	}
	d1[0] = 0
	for j := 1; j <= lb; j++ {
		d1[j] = d1[j-1] + gapB[j-1]
	}
	for i := 1; i <= la; i++ {
		gapA := gap(a, i-1) // the same for every j
		d2[0] = d1[0] + gapA
		for j := 1; j <= lb; j++ {
			var sc float64
			if arabic {
				sc = arabicSub(a[i-1], b[j-1])
			} else {
				sc = subCost(a[i-1], b[j-1])
			}
			v := d1[j-1] + sc
			if u := d1[j] + gapA; u < v {
				v = u
			}
			if l := d2[j-1] + gapB[j-1]; l < v {
				v = l
			}
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] && a[i-1] != a[i-2] {
				if t := d0[j-2] + costSwap; t < v {
					v = t
				}
			}
			d2[j] = v
		}
		d0, d1, d2 = d1, d2, d0
	}
	sim := 1 - d1[lb]/float64(max(la, lb))
	return max(sim, 0)
}

// joinedPair reports whether a record word paired by p with query words a
// and b written together (Ali Akbar, Aliakbar) counts: it must agree
// closely (model.JoinMinSim) and differ by fewer edits than the shorter of
// the two has letters, so that "martin de" does not pair with "martin" by
// dropping "de".
func joinedPair(p partner, a, b *tokInfo) bool {
	return p.sim >= model.JoinMinSim && int(p.edits) < min(utf8.RuneCountInString(a.text), utf8.RuneCountInString(b.text))
}

// joinedPair3 is joinedPair for three query words written together (Van
// der Bilt, Vanderbilt): fewer edits than the shortest of the three has
// letters.
func joinedPair3(p partner, a, b, c *tokInfo) bool {
	return joinedPair(p, a, b) && int(p.edits) < utf8.RuneCountInString(c.text)
}
