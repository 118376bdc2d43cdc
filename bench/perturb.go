package bench

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// A perturbation turns a record into the query text a user might type for
// it, or reports that the record does not lend itself to that change (no
// word long enough for a typo, no legal form to swap, ...).
type perturbation func(r *rand.Rand, rec *record.Record) (string, bool)

// span is a run of words [start, end) that forms one legal form.
type span struct{ start, end int }

// legalSpans finds the legal forms among words the way the table's
// Canonicalize does: left to right, the longest run first.
func legalSpans(words []string) []span {
	lf := normalize.LegalForms()
	var out []span
	for i := 0; i < len(words); {
		found := false
		for j := len(words); j > i; j-- {
			c := lf.Canonicalize(words[i:j])
			if len(c) == 1 && normalize.IsLegalForm(c[0]) {
				out = append(out, span{i, j})
				i, found = j, true
				break
			}
		}
		if !found {
			i++
		}
	}
	return out
}

// nameUnits splits a record's primary name into the units a perturbation
// may move or change: single words, and for records whose legal forms are
// canonicalised (every type but INDIVIDUAL) whole legal forms, which are
// marked so that a typo never lands in one.
func nameUnits(rec *record.Record) (units [][]string, legal []bool) {
	words := normalize.Tokenize(rec.Name).Words
	var spans []span
	if rec.EntityType != record.EntityIndividual {
		spans = legalSpans(words)
	}
	for i := 0; i < len(words); {
		if len(spans) > 0 && spans[0].start == i {
			units = append(units, words[spans[0].start:spans[0].end])
			legal = append(legal, true)
			i = spans[0].end
			spans = spans[1:]
			continue
		}
		units = append(units, words[i:i+1])
		legal = append(legal, false)
		i++
	}
	return units, legal
}

func joinUnits(units [][]string) string {
	var b strings.Builder
	for _, u := range units {
		for _, w := range u {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
	}
	return b.String()
}

// lengthCap mirrors docs/MATCHING.md "Name matching": the edits a token of n runes may absorb.
func lengthCap(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 5:
		return 1
	}
	return 2
}

const letters = "abcdefghijklmnopqrstuvwxyz"

// typoOnce applies one random edit (substitution, insertion, deletion or a
// swap of two adjacent letters, each one edit of the fuzzy rule)
// to w, never shortening it below three runes.
func typoOnce(r *rand.Rand, w []rune) []rune {
	op := r.IntN(4)
	if op == 2 && len(w) <= 3 {
		op = r.IntN(2)
	}
	if op == 3 {
		// A swap of two different adjacent letters; a word without one
		// gets a substitution instead.
		var at []int
		for i := 0; i+1 < len(w); i++ {
			if w[i] != w[i+1] {
				at = append(at, i)
			}
		}
		if len(at) > 0 {
			i := at[r.IntN(len(at))]
			w = slices.Clone(w)
			w[i], w[i+1] = w[i+1], w[i]
			return w
		}
		op = 0
	}
	pos := r.IntN(len(w))
	c := rune(letters[r.IntN(len(letters))])
	switch op {
	case 0: // substitution by a different letter
		for c == w[pos] {
			c = rune(letters[r.IntN(len(letters))])
		}
		w = slices.Clone(w)
		w[pos] = c
	case 1:
		w = slices.Insert(slices.Clone(w), r.IntN(len(w)+1), c)
	default:
		w = slices.Delete(slices.Clone(w), pos, pos+1)
	}
	return w
}

// typo returns a perturbation that puts exactly edits typing errors into
// the primary name, each word changed no more than its length cap allows
// at fuzzy 2, and no legal form touched: every query it makes is one the
// engine must find at fuzzy 2 (and, for one edit, at fuzzy 1).
func typo(edits int) perturbation {
	return func(r *rand.Rand, rec *record.Record) (string, bool) {
		units, legal := nameUnits(rec)
		var cand []int // units a typo may land in
		capacity := 0
		for i, u := range units {
			if !legal[i] && utf8.RuneCountInString(u[0]) >= 3 {
				cand = append(cand, i)
				capacity += lengthCap(utf8.RuneCountInString(u[0]))
			}
		}
		if capacity < edits {
			return "", false
		}
		for try := 0; try < 20; try++ {
			out := slices.Clone(units)
			for e := 0; e < edits; e++ {
				i := cand[r.IntN(len(cand))]
				out[i] = []string{string(typoOnce(r, []rune(out[i][0])))}
			}
			// Edits may cancel or coincide, and a word may end up too short
			// for its edits (the cap is taken on the shorter spelling):
			// keep only queries exactly edits away, each word within its cap.
			total, ok := 0, true
			for i := range units {
				if legal[i] {
					continue
				}
				d := dict.EditDistance(units[i][0], out[i][0])
				n := min(utf8.RuneCountInString(units[i][0]), utf8.RuneCountInString(out[i][0]))
				ok = ok && d <= lengthCap(n)
				total += d
			}
			if !ok || total != edits {
				continue
			}
			q := joinUnits(out)
			if !sameLegal(rec, q) {
				continue
			}
			return q, true
		}
		return "", false
	}
}

// sameLegal reports whether a perturbed query still has the legal forms of
// the record's name: a typo that turns a word into a legal form (or a
// spelling that stops being one) would test the table, not the typo.
func sameLegal(rec *record.Record, q string) bool {
	if rec.EntityType == record.EntityIndividual {
		return true
	}
	a := normalize.LegalForms().Canonicalize(normalize.Tokenize(rec.Name).Words)
	b := normalize.LegalForms().Canonicalize(normalize.Tokenize(q).Words)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if normalize.IsLegalForm(a[i]) != normalize.IsLegalForm(b[i]) ||
			normalize.IsLegalForm(a[i]) && a[i] != b[i] {
			return false
		}
	}
	return true
}

// reorder shuffles the words of the primary name (a legal form moves as
// one unit) into a different order.
func reorder(r *rand.Rand, rec *record.Record) (string, bool) {
	units, _ := nameUnits(rec)
	if len(units) < 2 {
		return "", false
	}
	orig := joinUnits(units)
	for try := 0; try < 10; try++ {
		out := slices.Clone(units)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		if q := joinUnits(out); q != orig {
			return q, true
		}
	}
	return "", false
}

// accents are the accented spellings of plain letters that a name may be
// written with; every one of them folds back to its letter (docs/MATCHING.md
// "Text normalisation").
var accents = map[rune][]rune{
	'a': []rune("áàâäãåą"), 'c': []rune("çčć"), 'e': []rune("éèêëěę"),
	'i': []rune("íìîï"), 'l': []rune("ł"), 'n': []rune("ñńň"),
	'o': []rune("óòôöõø"), 'r': []rune("ř"), 's': []rune("šśş"),
	'u': []rune("úùûüů"), 'y': []rune("ýÿ"), 'z': []rune("žźż"),
	'g': []rune("ğ"), 'd': []rune("đ"), 't': []rune("ť"),
}

// hasMarks reports whether s holds letters with diacritics (or the
// special letters the normaliser spells out).
func hasMarks(s string) bool {
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			return true
		}
		switch unicode.ToLower(r) {
		case 'ł', 'ø', 'ß', 'đ', 'æ', 'œ':
			return true
		}
	}
	return false
}

// stripMarks removes diacritics the way a keyboard without them would.
func stripMarks(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		switch r {
		case 'ł':
			r = 'l'
		case 'Ł':
			r = 'L'
		case 'ø':
			r = 'o'
		case 'Ø':
			r = 'O'
		case 'đ':
			r = 'd'
		case 'Đ':
			r = 'D'
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// diacritics strips the diacritics of a name that has some, and adds one
// to three to a name that has none (the direction is recorded by the
// caller from hasMarks).
func diacritics(r *rand.Rand, rec *record.Record) (string, bool) {
	if hasMarks(rec.Name) {
		return stripMarks(rec.Name), true
	}
	rs := []rune(rec.Name)
	var pos []int
	for i, c := range rs {
		if _, ok := accents[unicode.ToLower(c)]; ok {
			pos = append(pos, i)
		}
	}
	if len(pos) == 0 {
		return "", false
	}
	r.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	for _, i := range pos[:min(len(pos), 1+r.IntN(3))] {
		c := rs[i]
		alts := accents[unicode.ToLower(c)]
		a := alts[r.IntN(len(alts))]
		if unicode.IsUpper(c) {
			a = unicode.ToUpper(a)
		}
		rs[i] = a
	}
	return string(rs), true
}

// cyrillicCountries are the countries whose people write their names in
// Cyrillic and whose names the lists romanise the Russian way (BGN/PCGN or
// close to it). Ukraine and Belarus are left out: their names are listed in
// their national romanisations (Hryhoriy, Uladzimir), which a Russian
// reverse table does not reproduce; Serbia, North Macedonia and Bulgaria
// too, for the same reason.
var cyrillicCountries = map[string]bool{"RU": true, "KZ": true, "KG": true, "TJ": true}

// cyrillicLinked reports whether rec is a person tied to a
// Russian-romanised country by citizenship or place of birth. Companies
// are left out: their listed names are as often translated as
// transliterated, and a Cyrillic spelling of "Global Relief Foundation"
// tests nothing real.
func cyrillicLinked(rec *record.Record) bool {
	if rec.EntityType != record.EntityIndividual {
		return false
	}
	codes := func(vals []string, lastPart bool) bool {
		for _, v := range vals {
			if lastPart {
				if i := strings.LastIndexByte(v, ','); i >= 0 {
					v = v[i+1:]
				}
			}
			if c, ok := country.Code(v); ok && cyrillicCountries[c] {
				return true
			}
		}
		return false
	}
	return codes(rec.Citizenship, false) || codes(rec.PlaceOfBirth, true)
}

// toCyrillic is a reverse of the BGN/PCGN romanisation, longest Latin
// spelling first. Latin letters Russian has no letter for are written as a
// Russian writer would (h → х, j → дж, w → в, x → кс), which the normaliser
// brings back as kh, dzh, v, ks: the honest cost of a round trip through
// Cyrillic.
var toCyrillic = []struct{ lat, cyr string }{
	{"shch", "щ"}, {"kh", "х"}, {"ts", "ц"}, {"ch", "ч"}, {"sh", "ш"}, {"zh", "ж"},
	{"yu", "ю"}, {"ya", "я"}, {"ye", "е"}, {"yo", "ё"},
	{"a", "а"}, {"b", "б"}, {"v", "в"}, {"g", "г"}, {"d", "д"}, {"e", "е"},
	{"z", "з"}, {"i", "и"}, {"k", "к"}, {"l", "л"}, {"m", "м"}, {"n", "н"},
	{"o", "о"}, {"p", "п"}, {"r", "р"}, {"s", "с"}, {"t", "т"}, {"u", "у"},
	{"f", "ф"}, {"h", "х"}, {"j", "дж"}, {"w", "в"}, {"x", "кс"}, {"q", "к"},
	{"c", "к"}, {"'", "ь"},
}

// latinToCyrillic writes a folded Latin word in Cyrillic the way a Russian
// speaker spells the name: "y" is й after a vowel, ий at the end of a word
// after a consonant (Dmitry → Дмитрий) and ы elsewhere; a final "i" is й
// after a vowel (Andrei → Андрей) and ий after a consonant (Yuri → Юрий);
// "ia" is ия (Lidia → Лидия).
func latinToCyrillic(w string) string {
	var b strings.Builder
	prevVowel := false
	last := len(w) - 1
	for i := 0; i < len(w); {
		switch {
		case w[i] == 'y' && !(i < last && strings.ContainsRune("uaeo", rune(w[i+1]))):
			switch {
			case prevVowel:
				b.WriteString("й")
			case i == last && i > 0:
				b.WriteString("ий")
			default:
				b.WriteString("ы")
			}
			prevVowel = false
			i++
			continue
		case w[i] == 'i' && i == last && i > 0:
			if prevVowel {
				b.WriteString("й")
			} else {
				b.WriteString("ий")
			}
			i++
			continue
		case strings.HasPrefix(w[i:], "ia") && i > 0:
			b.WriteString("ия")
			prevVowel = true
			i += 2
			continue
		}
		matched := false
		for _, p := range toCyrillic {
			if strings.HasPrefix(w[i:], p.lat) {
				b.WriteString(p.cyr)
				prevVowel = strings.ContainsRune("aeiouy", rune(p.lat[len(p.lat)-1]))
				i += len(p.lat)
				matched = true
				break
			}
		}
		if !matched { // a digit or a letter outside a-z: kept as is
			r, n := utf8.DecodeRuneInString(w[i:])
			b.WriteRune(r)
			prevVowel = false
			i += n
		}
	}
	return b.String()
}

// icaoLatin is the romanisation of Russian passports since 2013 (ICAO Doc
// 9303), which differs from the BGN/PCGN the normaliser uses in й, ы, ю,
// я, ъ: a Latin query of a Cyrillic-listed name as a passport spells it.
var icaoLatin = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e",
	'ж': "zh", 'з': "z", 'и': "i", 'й': "i", 'к': "k", 'л': "l", 'м': "m",
	'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u",
	'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch",
	'ъ': "ie", 'ы': "y", 'ь': "", 'э': "e", 'ю': "iu", 'я': "ia",
	'є': "ie", 'і': "i", 'ї': "i", 'ґ': "g", 'ў': "u",
}

func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// cyrillic writes the Latin name of a person tied to a Russian-romanised
// country in Cyrillic, and a Cyrillic name in passport Latin.
func cyrillic(_ *rand.Rand, rec *record.Record) (string, bool) {
	if hasCyrillic(rec.Name) {
		var b strings.Builder
		for _, r := range strings.ToLower(rec.Name) {
			if s, ok := icaoLatin[r]; ok {
				b.WriteString(s)
			} else {
				b.WriteRune(r)
			}
		}
		return b.String(), true
	}
	if !cyrillicLinked(rec) {
		return "", false
	}
	units, legal := nameUnits(rec)
	out := make([][]string, len(units))
	changed := false
	for i, u := range units {
		if legal[i] {
			out[i] = u // legal forms have their own Cyrillic spellings
			continue
		}
		c := latinToCyrillic(u[0])
		changed = changed || c != u[0]
		out[i] = []string{c}
	}
	if !changed {
		return "", false
	}
	return joinUnits(out), true
}

// legalVariants groups legalFormSpellings by the class the project's
// table puts them in (canonical token → spellings).
func legalVariants() map[string][]string {
	out := make(map[string][]string)
	for _, s := range legalFormSpellings {
		c := normalize.LegalForms().Canonicalize(normalize.Tokenize(s).Words)
		if len(c) == 1 && normalize.IsLegalForm(c[0]) {
			out[c[0]] = append(out[c[0]], s)
		}
	}
	return out
}

// legalForm swaps a legal form in an entity's name for another spelling of
// the same class (LLC → Limited Liability Company).
func legalForm(variants map[string][]string) perturbation {
	return func(r *rand.Rand, rec *record.Record) (string, bool) {
		if rec.EntityType == record.EntityIndividual {
			return "", false
		}
		units, legal := nameUnits(rec)
		var at []int
		for i := range units {
			if legal[i] {
				at = append(at, i)
			}
		}
		if len(at) == 0 {
			return "", false
		}
		i := at[r.IntN(len(at))]
		canon := normalize.LegalForms().Canonicalize(units[i])[0]
		have := strings.Join(units[i], " ")
		var alts []string
		for _, s := range variants[canon] {
			if strings.Join(normalize.Tokenize(s).Words, " ") != have {
				alts = append(alts, s)
			}
		}
		if len(alts) == 0 {
			return "", false
		}
		out := slices.Clone(units)
		out[i] = []string{alts[r.IntN(len(alts))]}
		return joinUnits(out), true
	}
}

// middleName drops one given name other than the first from an
// individual: "Viktar Uladzimiravich Sheiman" → "Viktar Sheiman".
func middleName(r *rand.Rand, rec *record.Record) (string, bool) {
	if rec.EntityType != record.EntityIndividual || len(rec.LastNames) == 0 {
		return "", false
	}
	given := normalize.Tokenize(strings.Join(rec.GivenNames, " ")).Words
	last := normalize.Tokenize(strings.Join(rec.LastNames, " ")).Words
	if len(given) < 2 || len(last) == 0 {
		return "", false
	}
	drop := 1 + r.IntN(len(given)-1)
	q := append(slices.Clone(given[:drop]), given[drop+1:]...)
	return strings.Join(append(q, last...), " "), true
}
