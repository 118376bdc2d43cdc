package normalize

import (
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"
)

// Arabic, Persian and Urdu names are written without short vowels, so a
// letter-by-letter romanisation gives a consonant skeleton with the long
// vowels in place (محمد → mhmd). Lists write the common name words one way
// (Muhammad, Abd al-Aziz, Hussein), so those come from a table of name
// words as sanctions lists spell them (arabic_names.txt); every other word
// is romanised letter by letter, with one short vowel where Arabic never
// has a cluster: after a word's first consonant (سلمان → salman). The
// scored matcher compares what is left by sound and skeleton.
//
// Measured (TestTransliterationQuality, TestArabicPairs): the vowel rule
// scores 8.2 % exact and 42.2 % within fuzzy 2 on the Wikidata pairs
// against 7.9 % and 42.7 % without it, since those are mostly European
// names whose clusters it breaks (فلاديمير → faladimir); on the real
// Arabic names of TestArabicPairs it turns three misses into finds
// (Haftar, Gebran Bassil, Abdul-Malik al-Houthi), so it stays. A waw
// between consonants is "u": "o" would score 46.7 % on the Wikidata pairs
// (European o), but lists write Arabic names with u or ou (on the OFAC
// lists: Mahmud 45, Mahmoud 48, Mahmood 13; Nur 23, Noor 22, Nour 6),
// and either is one edit from "u".
//
// The article ال is written "al-" and attached to its word with a hyphen, so
// that the word is indexed split and joined (الأسد → al-asad: al, asad,
// alasad). After عبد it joins the whole name (عبد العزيز → abd-al-aziz:
// abd, al, aziz and abdalaziz), the form lists write most (Abd al-Aziz,
// Abd-al-Aziz; Abdulaziz and Abdelaziz are one edit from the joined form).

//go:embed arabic_names.txt
var arabicNamesText string

var (
	arabicNamesOnce sync.Once
	arabicNames     map[string]arabicName
)

// arabicName is a name word as lists write it, in Arabic usage and in
// Persian and Urdu usage (Muhammad / Mohammad, Hussein / Hossein).
type arabicName struct{ arabic, persian string }

// arabicNameTable parses arabic_names.txt once: lines of a name word, its
// Arabic-usage spelling and optionally its Persian/Urdu-usage spelling.
func arabicNameTable() map[string]arabicName {
	arabicNamesOnce.Do(func() {
		arabicNames = make(map[string]arabicName, 400)
		for _, line := range strings.Split(arabicNamesText, "\n") {
			if line == "" || line[0] == '#' {
				continue
			}
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			n := arabicName{arabic: f[1], persian: f[1]}
			if len(f) > 2 {
				n.persian = f[2]
			}
			var kb [64]byte
			arabicNames[string(arabicKey(kb[:0], []rune(f[0])))] = n
		}
	})
	return arabicNames
}

// arabicKey appends the spelling-neutral key of a word to dst: hamza seats
// of alef, alef maqsura and the Persian ye, keheh and heh forms written as
// the plain Arabic letters, so that أحمد and احمد, علی and علي find the
// same table entry.
func arabicKey(dst []byte, w []rune) []byte {
	for _, r := range w {
		switch r {
		case 'أ', 'إ', 'آ', 'ٱ':
			r = 'ا'
		case 'ى', 'ی', 'ے', 'ۍ', 'ې':
			r = 'ي'
		case 'ک', 'ڪ':
			r = 'ك'
		case 'ة', 'ۃ', 'ہ', 'ە', 'ۀ', 'ھ':
			r = 'ه'
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// arabicConsonant is the Latin spelling of each Arabic-script consonant
// as lists write names: no diacritics, no distinction between the
// emphatic and plain letters (ص s, ط t, ض d, ظ z), ع and ء silent.
var arabicConsonant = map[rune]string{
	'ب': "b", 'ت': "t", 'ث': "th", 'ج': "j", 'ح': "h", 'خ': "kh", 'د': "d",
	'ذ': "dh", 'ر': "r", 'ز': "z", 'س': "s", 'ش': "sh", 'ص': "s", 'ض': "d",
	'ط': "t", 'ظ': "z", 'غ': "gh", 'ف': "f", 'ق': "q", 'ك': "k", 'ل': "l",
	'م': "m", 'ن': "n", 'ه': "h",
	// Persian
	'پ': "p", 'چ': "ch", 'ژ': "zh", 'گ': "g", 'ک': "k",
	// Urdu
	'ٹ': "t", 'ڈ': "d", 'ڑ': "r", 'ں': "n", 'ہ': "h", 'ھ': "h",
	// Pashto
	'ټ': "t", 'ځ': "dz", 'څ': "ts", 'ډ': "d", 'ړ': "r", 'ږ': "zh", 'ښ': "sh",
	'ګ': "g", 'ڼ': "n",
	// Kurdish, Uyghur and the Maghreb
	'ڕ': "r", 'ڵ': "l", 'ڤ': "v", 'ڭ': "ng", 'ڠ': "ng", 'ڨ': "g",
}

// persianConsonant overrides arabicConsonant where Persian and Urdu read
// the letter differently (ث s, ذ z, ض z, و as a consonant v).
var persianConsonant = map[rune]string{'ث': "s", 'ذ': "z", 'ض': "z"}

// isPersianLetter reports letters that Arabic does not use: a run holding
// one is Persian, Urdu or Pashto and takes their readings (Afghan names are
// written the Persian way: Mohammad, Abdul).
func isPersianLetter(r rune) bool {
	switch r {
	case 'پ', 'چ', 'ژ', 'گ', 'ک', 'ی', 'ٹ', 'ڈ', 'ڑ', 'ں', 'ہ', 'ھ', 'ے', 'ۀ',
		'ټ', 'ځ', 'څ', 'ډ', 'ړ', 'ږ', 'ښ', 'ګ', 'ڼ', 'ۍ', 'ې':
		return true
	}
	return false
}

// arabicDropped reports harakat, Quranic marks, tatweel and joiners: they
// are dropped, so vocalised and bare spellings romanise alike.
func arabicDropped(r rune) bool {
	return r >= 0x064B && r <= 0x065F || r == 0x0670 || r == 0x0640 ||
		r >= 0x06D6 && r <= 0x06ED || r >= 0x0610 && r <= 0x061A ||
		r == 0x200C || r == 0x200D || r >= 0x08D3 && r <= 0x08FF
}

// arabicInsertVowel is the short-vowel rule for words outside the table: a
// vowel after the first consonant when a second consonant follows.
const arabicInsertVowel = true

func writeArabic(b *strings.Builder, run string) {
	persian := false
	for _, r := range run {
		if isPersianLetter(r) {
			persian = true
			break
		}
	}
	table := arabicNameTable()
	var buf [48]rune
	var words [][]rune
	var wbuf [8][]rune
	words = wbuf[:0]
	// Split into words of letters, dropping marks.
	letters := buf[:0]
	start := 0
	for _, r := range run {
		if r == ' ' {
			if len(letters) > start {
				words = append(words, letters[start:len(letters):len(letters)])
			}
			start = len(letters)
			continue
		}
		if arabicDropped(r) {
			continue
		}
		letters = append(letters, r)
	}
	if len(letters) > start {
		words = append(words, letters[start:len(letters):len(letters)])
	}
	for i := 0; i < len(words); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := words[i]
		// عبد followed by an article word: one hyphenated name.
		if isAbd(w) && i+1 < len(words) && hasArticle(words[i+1]) {
			if isAllah(words[i+1]) {
				b.WriteString("abdullah")
				i++
				continue
			}
			b.WriteString("abd-")
			i++
			w = words[i]
		}
		writeArabicWord(b, w, table, persian)
	}
}

func isAbd(w []rune) bool {
	return len(w) == 3 && w[0] == 'ع' && w[1] == 'ب' && w[2] == 'د'
}

func isAllah(w []rune) bool {
	var kb [32]byte
	return string(arabicKey(kb[:0], w)) == "الله"
}

func hasArticle(w []rune) bool {
	return len(w) >= 4 && (w[0] == 'ا' || w[0] == 'ٱ') && w[1] == 'ل'
}

// writeArabicWord writes one word: from the table when it is a known name
// word (with or without the article, or joined to عبد as عبدالعزيز), else
// letter by letter.
func writeArabicWord(b *strings.Builder, w []rune, table map[string]arabicName, persian bool) {
	if lookupArabic(b, w, table, persian) {
		return
	}
	if len(w) > 5 && isAbd(w[:3]) && hasArticle(w[3:]) {
		if isAllah(w[3:]) {
			b.WriteString("abdullah")
			return
		}
		b.WriteString("abd-")
		w = w[3:]
	}
	if hasArticle(w) {
		b.WriteString("al-")
		w = w[2:]
		if lookupArabic(b, w, table, persian) {
			return
		}
	}
	romanizeArabic(b, w, persian)
}

func lookupArabic(b *strings.Builder, w []rune, table map[string]arabicName, persian bool) bool {
	var kb [96]byte
	n, ok := table[string(arabicKey(kb[:0], w))]
	if !ok {
		return false
	}
	if persian {
		b.WriteString(n.persian)
	} else {
		b.WriteString(n.arabic)
	}
	return true
}

// romanizeArabic writes w letter by letter. Alef, waw and ya are vowels
// between consonants and consonants next to a vowel; ta marbuta and alef
// maqsura are "a"; ع is an "a" after a consonant and silent elsewhere.
func romanizeArabic(b *strings.Builder, w []rune, persian bool) {
	a := arabicWord{b: b, w: w, persian: persian, lastVowel: true}
	for i := 0; i < len(w); i++ {
		i += a.letter(i)
	}
}

// arabicWord is one word being romanized and what its letters so far
// tell the next one.
type arabicWord struct {
	b          *strings.Builder
	w          []rune
	persian    bool
	lastVowel  bool // at word start, as if after a vowel
	consonants int
	anyVowel   bool
}

// vowelLetter reports whether w[i] is a letter that writes a vowel.
func (a *arabicWord) vowelLetter(i int) bool {
	if i < 0 || i >= len(a.w) {
		return false
	}
	switch a.w[i] {
	case 'ا', 'أ', 'إ', 'آ', 'ٱ', 'ى', 'ة', 'ۃ', 'ے', 'ۓ', 'ې', 'ێ', 'ە', 'ۆ', 'ۇ', 'ۈ':
		return true
	}
	return false
}

// write writes s, a vowel or a consonant.
func (a *arabicWord) write(s string, vowel bool) {
	if s == "" {
		return
	}
	if !vowel {
		if arabicInsertVowel && a.consonants == 1 && !a.anyVowel {
			a.b.WriteByte('a')
		}
		a.consonants++
	}
	a.b.WriteString(s)
	a.lastVowel = vowel
	a.anyVowel = a.anyVowel || vowel
}

// letter writes the letter at i and returns how many of the letters after
// it it wrote too: each case reads the letters around the current one.
func (a *arabicWord) letter(i int) int {
	r := a.w[i]
	if base, ok := arabicBaseLetter[r]; ok {
		r = base
	}
	if i == 0 && (isAlef(r) || r == 'ع') && len(a.w) > 2 && !a.vowelLetter(2) {
		// An alef that starts a word carries the vowel a following waw
		// or ya writes: أوباما → obama, إيران → iran.
		switch a.w[1] {
		case 'و':
			a.write("o", true)
			return 1
		case 'ي', 'ی':
			a.write("i", true)
			return 1
		}
	}
	switch r {
	case 'ا', 'ٱ', 'آ', 'أ':
		a.write("a", true)
	case 'إ':
		a.write("i", true)
	case 'ى':
		a.write("a", true)
	case 'ة', 'ۃ':
		a.write("a", true)
	case 'ء':
	case 'ؤ':
		if i+1 < len(a.w) && a.w[i+1] == 'و' {
			return 0
		}
		a.write("u", true)
	case 'ئ':
		if i+1 < len(a.w) && (a.w[i+1] == 'ي' || a.w[i+1] == 'ی') {
			return 0
		}
		a.write("i", true)
	case 'ع':
		// Silent, but it carries an "a" where the word would
		// otherwise have two consonants in a row.
		if len(a.w) == 1 || i+1 < len(a.w) && (i == 0 || !a.lastVowel) && !a.vowelLetter(i+1) {
			// (Alone it is a letter of an abbreviation: ش.م.ع.م.)
			a.write("a", true)
		}
	case 'و':
		if i == 0 || a.lastVowel || a.vowelLetter(i+1) {
			if a.persian {
				a.write("v", false)
			} else {
				a.write("w", false)
			}
		} else if a.persian {
			a.write("ou", true)
		} else {
			a.write("u", true)
		}
	case 'ي', 'ی', 'ۍ':
		if i == 0 || a.lastVowel || a.vowelLetter(i+1) {
			a.write("y", false)
		} else {
			a.write("i", true)
		}
	case 'ے', 'ۓ', 'ې', 'ێ', 'ە':
		a.write("e", true)
	case 'ۆ':
		a.write("o", true)
	case 'ۇ', 'ۈ':
		a.write("u", true)
	case 'ۋ':
		a.write("v", false)
	case 'ه', 'ہ', 'ۀ':
		if i == len(a.w)-1 && i > 0 && !a.lastVowel {
			if a.persian {
				a.write("eh", true)
			} else {
				a.write("ah", true)
			}
			return 0
		}
		a.write("h", false)
	default:
		if d := arabicDigit(r); d >= 0 {
			a.b.WriteByte(byte('0' + d))
			return 0
		}
		if a.persian {
			if s, ok := persianConsonant[r]; ok {
				a.write(s, false)
				return 0
			}
		}
		if s, ok := arabicConsonant[r]; ok {
			a.write(s, false)
		}
		// Anything else of the script (digits, punctuation in the
		// Arabic block) is dropped from the word.
	}
	return 0
}

// arabicDigit returns the value of an Arabic-Indic or Persian digit, -1 for
// anything else; the digits are written as ASCII digits so that ١٢٣ and 123
// are one token.
func arabicDigit(r rune) int {
	switch {
	case r >= 0x0660 && r <= 0x0669:
		return int(r - 0x0660)
	case r >= 0x06F0 && r <= 0x06F9:
		return int(r - 0x06F0)
	}
	return -1
}

func isAlef(r rune) bool { return r == 'ا' || r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ' }

// arabicBaseLetter reads the letters of other languages written in Arabic
// script (Sindhi, Kashmiri, Uyghur, Kurdish, African and historic forms) as
// the letter they are drawn from, by their Unicode names (BEH WITH THREE
// DOTS BELOW is read as BEH), so that no letter of a name is dropped. The
// Persian, Urdu, Pashto and Kurdish letters with sounds of their own are
// in arabicConsonant and romanizeArabic instead.
var arabicBaseLetter = map[rune]rune{
	'ػ': 'ک', 'ؼ': 'ک', 'ؽ': 'ی', 'ؾ': 'ی', 'ؿ': 'ی', 'ٲ': 'ا', 'ٳ': 'ا',
	'ٷ': 'ۇ', 'ٽ': 'ت', 'ڂ': 'ح', 'ڊ': 'د', 'ڋ': 'د', 'ڏ': 'د', 'ڐ': 'د',
	'ڒ': 'ر', 'ڔ': 'ر', 'ڗ': 'ر', 'ڙ': 'ر', 'ڛ': 'س', 'ڜ': 'س', 'ڝ': 'ص',
	'ڞ': 'ص', 'ڟ': 'ط', 'ڠ': 'ع', 'ڢ': 'ف', 'ڣ': 'ف', 'ڥ': 'ف', 'ڧ': 'ق',
	'ڨ': 'ق', 'ڬ': 'ك', 'ڮ': 'ك', 'ڰ': 'گ', 'ڲ': 'گ', 'ڴ': 'گ', 'ڶ': 'ل',
	'ڷ': 'ل', 'ڸ': 'ل', 'ڹ': 'ن', 'ڽ': 'ن', 'ڿ': 'چ', 'ۂ': 'ہ', 'ۄ': 'و',
	'ۊ': 'و', 'ۏ': 'و', 'ۑ': 'ي', 'ۮ': 'د', 'ۯ': 'ر', 'ۺ': 'ش', 'ۻ': 'ض',
	'ۼ': 'غ', 'ۿ': 'ه', 'ݐ': 'ب', 'ݑ': 'ب', 'ݒ': 'ب', 'ݓ': 'ب', 'ݔ': 'ب',
	'ݕ': 'ب', 'ݖ': 'ب', 'ݗ': 'ح', 'ݘ': 'ح', 'ݙ': 'د', 'ݚ': 'د', 'ݛ': 'ر',
	'ݜ': 'س', 'ݝ': 'ع', 'ݞ': 'ع', 'ݟ': 'ع', 'ݠ': 'ف', 'ݡ': 'ف', 'ݢ': 'ک',
	'ݣ': 'ک', 'ݤ': 'ک', 'ݥ': 'م', 'ݦ': 'م', 'ݧ': 'ن', 'ݨ': 'ن', 'ݩ': 'ن',
	'ݪ': 'ل', 'ݫ': 'ر', 'ݬ': 'ر', 'ݭ': 'س', 'ݮ': 'ح', 'ݯ': 'ح', 'ݰ': 'س',
	'ݱ': 'ر', 'ݲ': 'ح', 'ݳ': 'ا', 'ݴ': 'ا', 'ݵ': 'ی', 'ݶ': 'ی', 'ݷ': 'ی',
	'ݸ': 'و', 'ݹ': 'و', 'ݺ': 'ے', 'ݻ': 'ے', 'ݼ': 'ح', 'ݽ': 'س', 'ݾ': 'س',
	'ݿ': 'ك', 'ࢠ': 'ب', 'ࢡ': 'ب', 'ࢢ': 'ج', 'ࢣ': 'ط', 'ࢤ': 'ف', 'ࢥ': 'ق',
	'ࢦ': 'ل', 'ࢧ': 'م', 'ࢨ': 'ي', 'ࢩ': 'ي', 'ࢪ': 'ر', 'ࢫ': 'و', 'ࢮ': 'د',
	'ࢯ': 'ص', 'ࢰ': 'گ', 'ࢲ': 'ز', 'ࢳ': 'ع', 'ࢴ': 'ك', 'ࢵ': 'ق', 'ࢶ': 'ب',
	'ࢷ': 'پ', 'ࢸ': 'ت', 'ࢹ': 'ر', 'ࢺ': 'ي', 'ࢾ': 'پ', 'ࢿ': 'ت', 'ࣀ': 'ٹ',
	'ࣁ': 'چ', 'ࣂ': 'ک', 'ࣃ': 'غ', 'ࣄ': 'ق', 'ࣅ': 'ج', 'ࣆ': 'ج', 'ࣇ': 'ل',
}
