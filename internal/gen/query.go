package gen

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/record"
)

// Query kinds, as Query.Kind names them.
const (
	KindExact          = "exact"           // a name string of a record, as is
	KindReorder        = "reorder"         // its tokens shuffled
	KindPartial        = "partial"         // a middle token dropped
	KindTypo1          = "typo1"           // one edit in one token of four letters or more
	KindTypo2          = "typo2"           // two edits, in one long token or in two tokens
	KindCaseDiacritics = "case_diacritics" // case changed, accents stripped or added
	KindClean          = "clean"           // a plausible name that is no record's name string
)

// Query is one screening query for benchmarks and differential tests.
type Query struct {
	Names string
	Kind  string
	// RecordID is the record the query was derived from; "" for clean
	// queries.
	RecordID string
	// EntityType is the check to run: "individual" (checkIndividual),
	// "entity" (checkEntity) or "any" (checkName), as amlscreen check
	// --type spells it.
	EntityType string
	// Filters, set on about a fifth of the queries (checkIndividual only,
	// the one check that takes them), in the API's formats: dob dd/mm/yyyy
	// with 00 for unknown parts, gender male|female, citizenship a
	// two-letter code. Empty when not set.
	DOB, Gender, Citizenship string
}

var queryKinds = []weighted[string]{
	{25, KindExact}, {10, KindReorder}, {10, KindPartial}, {20, KindTypo1},
	{15, KindTypo2}, {10, KindCaseDiacritics}, {10, KindClean},
}

// Queries derives n queries from recs, deterministically for seed. Every
// kind appears in proportion (exact 25%, typo1 20%, typo2 15%, the others
// 10% each) as long as recs holds names it can be applied to; a kind that
// no record allows falls back to an exact query. Clean queries are checked
// against every name string of recs.
func Queries(recs []*record.Record, n int, seed int64) []Query {
	if n <= 0 {
		return nil
	}
	r := &rng{rand.New(rand.NewPCG(mix64(uint64(seed)), mix64(0x5155455259)))}
	var taken map[string]bool // folded name strings, built on first need
	out := make([]Query, 0, n)
	for len(out) < n {
		kind := choose(r, queryKinds)
		if kind == KindClean || len(recs) == 0 {
			if taken == nil {
				taken = map[string]bool{}
				for _, rec := range recs {
					for _, s := range NameStrings(rec) {
						taken[foldName(s)] = true
					}
				}
			}
			out = append(out, withFilters(r, cleanQuery(r, taken), nil))
			continue
		}
		out = append(out, derivedQuery(r, recs, kind))
	}
	return out
}

// derivedQuery makes a query of kind from a randomly chosen record, trying
// other records and name strings when the first does not allow the kind.
func derivedQuery(r *rng, recs []*record.Record, kind string) Query {
	for attempt := 0; attempt < 200; attempt++ {
		rec := pick(r, recs)
		names := NameStrings(rec)
		if len(names) == 0 {
			continue
		}
		s := pick(r, names)
		q, ok := transform(r, s, kind)
		if !ok {
			continue
		}
		return withFilters(r, Query{Names: q, Kind: kind, RecordID: rec.ID, EntityType: checkFor(r, rec)}, rec)
	}
	// Nothing allowed the kind: an exact query keeps the count right.
	rec := pick(r, recs)
	names := NameStrings(rec)
	s := rec.ID
	if len(names) > 0 {
		s = names[0]
	}
	return withFilters(r, Query{Names: s, Kind: KindExact, RecordID: rec.ID, EntityType: checkFor(r, rec)}, rec)
}

// checkFor picks the check a user would run to find rec: mostly the one of
// its entity type, sometimes checkName.
func checkFor(r *rng, rec *record.Record) string {
	switch rec.EntityType {
	case record.EntityIndividual:
		if r.chance(0.7) {
			return "individual"
		}
	case record.EntityEntity:
		if r.chance(0.7) {
			return "entity"
		}
	case record.EntityUnknown:
		return pick(r, []string{"individual", "entity", "any"})
	}
	return "any"
}

// withFilters adds dob, gender or citizenship filters to over half of the
// checkIndividual queries (a fifth of all queries), mostly taken from the
// record so that they keep it, sometimes at random so that they may not.
// rec is nil for clean queries.
func withFilters(r *rng, q Query, rec *record.Record) Query {
	if q.EntityType != "individual" || !r.chance(0.55) {
		return q
	}
	fromRec := rec != nil && r.chance(0.8)
	set := false
	if r.chance(0.5) {
		if d := filterDOB(r, rec, fromRec); d != "" {
			q.DOB, set = d, true
		}
	}
	if r.chance(0.35) {
		g := pick(r, []string{"male", "female"})
		if fromRec && (rec.Gender == record.GenderMale || rec.Gender == record.GenderFemale) {
			g = strings.ToLower(rec.Gender)
		}
		q.Gender, set = g, true
	}
	if r.chance(0.35) || !set {
		c := pick(r, []string{"RU", "IR", "SY", "CN", "US", "GB", "DE", "NG", "MX", "UA", "KP", "AE"})
		if fromRec {
			for _, v := range rec.Citizenship {
				if len(v) == 2 {
					c = v
					break
				}
			}
		}
		if r.chance(0.3) {
			c = strings.ToLower(c)
		}
		q.Citizenship = c
	}
	return q
}

// filterDOB returns a query date from one of rec's dates (with a part
// blanked now and then) or a random one.
func filterDOB(r *rng, rec *record.Record, fromRec bool) string {
	if fromRec && len(rec.DateOfBirth) > 0 {
		d := pick(r, rec.DateOfBirth)
		parts := strings.Split(d, "/")
		if len(parts) != 3 || parts[2] == "0000" {
			return ""
		}
		switch x := r.IntN(10); {
		case x == 0:
			parts[0] = "00"
		case x == 1:
			parts[0], parts[1] = "00", "00"
		}
		return strings.Join(parts, "/")
	}
	return dob(r, r.between(1940, 2000))
}

// transform applies kind to the name string s; ok is false when s does not
// allow it (too few tokens, no Latin token long enough, nothing to change).
// It is one switch over the kinds, a short case each.
func transform(r *rng, s, kind string) (string, bool) {
	toks := strings.Fields(s)
	switch kind {
	case KindExact:
		return s, true
	case KindReorder:
		if len(toks) < 2 {
			return "", false
		}
		for range 10 {
			p := append([]string(nil), toks...)
			r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			if out := strings.Join(p, " "); out != strings.Join(toks, " ") {
				return out, true
			}
		}
		return "", false
	case KindPartial:
		if len(toks) < 3 {
			return "", false
		}
		i := 1 + r.IntN(len(toks)-2)
		return strings.Join(append(append([]string(nil), toks[:i]...), toks[i+1:]...), " "), true
	case KindTypo1:
		cands := editable(toks, 4)
		if len(cands) == 0 {
			return "", false
		}
		i := pick(r, cands)
		t, ok := editToken(r, toks[i], 1)
		if !ok {
			return "", false
		}
		toks = append([]string(nil), toks...)
		toks[i] = t
		return strings.Join(toks, " "), true
	case KindTypo2:
		long := editable(toks, 8)
		cands := editable(toks, 4)
		toks = append([]string(nil), toks...)
		if len(long) > 0 && (len(cands) < 2 || r.chance(0.5)) {
			i := pick(r, long)
			t, ok := editToken(r, toks[i], 2)
			if !ok {
				return "", false
			}
			toks[i] = t
			return strings.Join(toks, " "), true
		}
		if len(cands) < 2 {
			return "", false
		}
		a := r.IntN(len(cands))
		b := (a + 1 + r.IntN(len(cands)-1)) % len(cands)
		for _, i := range []int{cands[a], cands[b]} {
			t, ok := editToken(r, toks[i], 1)
			if !ok {
				return "", false
			}
			toks[i] = t
		}
		return strings.Join(toks, " "), true
	case KindCaseDiacritics:
		if !latinOnly(s) {
			if up := strings.ToUpper(s); up != s {
				return up, true
			}
			return "", false
		}
		if stripped := StripAccents(s); stripped != s {
			return strings.ToUpper(stripped), true
		}
		out := addAccents(r, s)
		if r.chance(0.5) {
			out = strings.ToUpper(out)
		} else {
			out = strings.ToLower(out)
		}
		return out, out != s
	}
	return "", false
}

// editable returns the indexes of tokens made of at least min ASCII
// letters only: edits there stay edits after normalisation, so a typo1
// query is exactly one edit away from its record.
func editable(toks []string, min int) []int {
	var out []int
	for i, t := range toks {
		if len(t) < min {
			continue
		}
		ok := true
		for j := 0; j < len(t); j++ {
			c := t[j] | 0x20
			if c < 'a' || c > 'z' {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// editToken applies n random edits (substitution, deletion, insertion, a
// swap of two adjacent letters) to an ASCII token and checks that the
// result is exactly n edits away (dict.EditDistance), ignoring case.
func editToken(r *rng, t string, n int) (string, bool) {
	for range 10 {
		b := []byte(t)
		for k := 0; k < n; k++ {
			switch x := r.IntN(5); {
			case x == 4 && len(b) > 1:
				i := r.IntN(len(b) - 1)
				b[i], b[i+1] = b[i+1], b[i]
			case x < 2 && len(b) > 0:
				i := r.IntN(len(b))
				c := b[i] | 0x20
				nc := byte('a' + r.IntN(26))
				for nc == c {
					nc = byte('a' + r.IntN(26))
				}
				if b[i] >= 'A' && b[i] <= 'Z' {
					nc -= 0x20
				}
				b[i] = nc
			case x == 2 && len(b) > 1:
				i := r.IntN(len(b))
				b = append(b[:i], b[i+1:]...)
			default:
				i := r.IntN(len(b) + 1)
				nc := byte('a' + r.IntN(26))
				b = append(b[:i], append([]byte{nc}, b[i:]...)...)
			}
		}
		out := string(b)
		if dict.EditDistance(strings.ToLower(out), strings.ToLower(t)) == n {
			return out, true
		}
	}
	return "", false
}

// latinOnly reports whether every letter of s is in Latin script.
func latinOnly(s string) bool {
	for _, c := range s {
		if unicode.IsLetter(c) && !unicode.Is(unicode.Latin, c) {
			return false
		}
	}
	return true
}

var accented = map[rune][]rune{
	'a': {'á', 'à', 'ä', 'â'}, 'e': {'é', 'è', 'ë', 'ê'}, 'i': {'í', 'ï'}, 'o': {'ó', 'ö', 'ô'},
	'u': {'ú', 'ü'}, 'n': {'ñ'}, 'c': {'ç'}, 's': {'š'}, 'z': {'ž'},
}

// addAccents puts accents on one or two letters, as a user typing on a
// European keyboard might.
func addAccents(r *rng, s string) string {
	rs := []rune(s)
	var pos []int
	for i, c := range rs {
		if _, ok := accented[unicode.ToLower(c)]; ok {
			pos = append(pos, i)
		}
	}
	if len(pos) == 0 {
		return s
	}
	orig := []rune(s)
	for range 1 + r.IntN(2) {
		i := pick(r, pos)
		c := orig[i]
		a := pick(r, accented[unicode.ToLower(c)])
		if unicode.IsUpper(c) {
			a = unicode.ToUpper(a)
		}
		rs[i] = a
	}
	return string(rs)
}

// cleanQuery makes a plausible name that is no record's name string: given
// names and surnames from different cultures, or a company name whose
// parts come from different styles.
func cleanQuery(r *rng, taken map[string]bool) Query {
	latinCultures := []string{"anglo", "german", "french", "italian", "polish", "turkish", "indian", "westafrican", "spanish", "portuguese", "russian", "ukrainian", "arabic", "persian", "korean_south"}
	entityStyles := []string{"en", "de", "fr", "es", "it", "nl", "nordic", "tr", "in", "ae", "ir"}
	for attempt := 0; ; attempt++ {
		var q Query
		if r.chance(0.7) {
			// The surname comes from another culture than the given name,
			// so that a clean query rarely hits even as a token subset.
			a := cultures[pick(r, latinCultures)]
			b := a
			for b == a {
				b = cultures[pick(r, latinCultures)]
			}
			female := r.chance(0.3)
			na, nb := a.name(r, female), b.name(r, female)
			parts := []string{na.given[0]}
			if r.chance(0.4) {
				parts = append(parts, cultures[pick(r, latinCultures)].name(r, female).given[0])
			}
			parts = append(parts, nb.last[0])
			q = Query{Names: strings.Join(parts, " "), Kind: KindClean, EntityType: pick(r, []string{"individual", "any"})}
		} else {
			a, b := orgStyles[pick(r, entityStyles)], orgStyles[pick(r, entityStyles)]
			j := choose(r, a.jurisdictions)
			if a.key == b.key {
				b = orgStyles["nordic"]
			}
			name := pick(r, a.brands) + " " + pick(r, b.industries)
			if forms := formsByJurisdiction[j]; len(forms) > 0 {
				name += " " + pick(r, pick(r, forms))
			}
			q = Query{Names: name, Kind: KindClean, EntityType: pick(r, []string{"entity", "any"})}
		}
		if !taken[foldName(q.Names)] || attempt > 1000 {
			return q
		}
	}
}

// foldName is a light normalisation for comparing name strings: accents,
// case, punctuation and spacing do not count.
func foldName(s string) string {
	s = strings.ToLower(StripAccents(s))
	var b strings.Builder
	for _, f := range strings.FieldsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// NameStrings returns the name strings of rec as docs/MATCHING.md "Name matching" defines them:
// name, tl_name, each alias name and, for individuals, the given names with
// the last names and each alias given name with the last names.
func NameStrings(rec *record.Record) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = appendUnique(out, s)
		}
	}
	add(rec.Name)
	add(rec.TLName)
	for _, a := range rec.AliasNames {
		add(a)
	}
	if rec.EntityType == record.EntityIndividual {
		last := strings.Join(rec.LastNames, " ")
		if len(rec.GivenNames) > 0 || last != "" {
			add(strings.Join(rec.GivenNames, " ") + " " + last)
		}
		if last != "" {
			for _, g := range rec.AliasGivenNames {
				add(g + " " + last)
			}
		}
	}
	return out
}

// CommonWords returns the n words of three letters or more that occur in
// most names of individuals in recs (the primary name, lower-cased, split
// on spaces), most frequent first, ties in word order: the inputs of the
// worst-case load tests, since a word many records hold (and many
// spellings near it, as given names and surnames have) makes a check
// gather and verify the most candidates.
func CommonWords(recs []*record.Record, n int) []string {
	count := map[string]int{}
	for _, r := range recs {
		if r.EntityType != record.EntityIndividual {
			continue
		}
		for _, w := range strings.Fields(strings.ToLower(r.Name)) {
			if utf8.RuneCountInString(w) >= 3 && latinOnly(w) {
				count[w]++
			}
		}
	}
	words := make([]string, 0, len(count))
	for w := range count {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return words[:min(n, len(words))]
}
