package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// NameString is one name of a record that a query is matched against
// (docs/MATCHING.md "Name matching").
type NameString struct {
	Field string // where it comes from: "name", "alias_names[1]", "given_names+last_names", ...
	Text  string
}

// NameStrings returns the name strings of r: name, tl_name, every alias,
// for individuals given names with last names and every alias given name
// with last names, and last each name a name, tl_name or alias writes
// together with another (alternativeNames).
func NameStrings(r *record.Record) []NameString { return appendNameStrings(nil, r, true) }

// appendNameStrings appends r's name strings to dst, with their Field only
// when withField is set (the index needs the texts, not the labels).
func appendNameStrings(dst []NameString, r *record.Record, withField bool) []NameString {
	add := func(field func() string, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		ns := NameString{Text: text}
		if withField {
			ns.Field = field()
		}
		dst = append(dst, ns)
	}
	label := func(s string) func() string { return func() string { return s } }
	add(label("name"), r.Name)
	add(label("tl_name"), r.TLName)
	for i, a := range r.AliasNames {
		add(func() string { return indexed("alias_names", i) }, a)
	}
	if r.EntityType == record.EntityIndividual {
		last := strings.Join(r.LastNames, " ")
		if len(r.GivenNames) > 0 || last != "" {
			add(label("given_names+last_names"), strings.TrimSpace(strings.Join(r.GivenNames, " ")+" "+last))
		}
		for i, g := range r.AliasGivenNames {
			add(func() string { return indexed("alias_given_names", i) + "+last_names" }, strings.TrimSpace(g+" "+last))
		}
	}
	alternativeNames(r, func(field func() string, text string) { add(field, text) })
	return dst
}

// alternativeNames calls fn with each name that the name, tl_name or an
// alias of r writes together with another (normalize.NameAlternatives:
// Al-Qa'ida/Islamic Army), labelled by its field and its place, from 1
// ("name/2": Islamic Army). They come after every other name string, so
// that the others keep their slots; the whole name string stays, so a
// query of both names finds it as before.
func alternativeNames(r *record.Record, fn func(field func() string, text string)) {
	each := func(field func() string, text string) {
		for i, a := range normalize.NameAlternatives(text) {
			fn(func() string { return field() + "/" + strconv.Itoa(i+1) }, a)
		}
	}
	each(func() string { return "name" }, r.Name)
	each(func() string { return "tl_name" }, r.TLName)
	for i, a := range r.AliasNames {
		each(func() string { return indexed("alias_names", i) }, a)
	}
}

func indexed(field string, i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return field + "[" + string(b[n:]) + "]"
}

// bag is the token multiset search_all matches a record against: the words
// of all its text fields. Name-field tokens may pair fuzzily, the others
// only exactly.
type bag struct {
	names  []string
	others []string
}

func (b bag) size() int { return len(b.names) + len(b.others) }

// recordBag builds the search_all bag of r. Name fields of records that are
// not individuals have their legal forms canonicalised.
func recordBag(r *record.Record) bag {
	var b bag
	legal := usesLegalForms(r.EntityType)
	r.TextFields(func(f record.Field) {
		for _, v := range f.Values {
			if f.Name {
				b.names = append(b.names, normalize.RecordName(v, legal).Tokens...)
			} else {
				b.others = append(b.others, normalize.Words(v)...)
			}
		}
	})
	return b
}

func allLegal(variants [][]string) bool {
	for _, v := range variants {
		for _, t := range v {
			if !normalize.IsLegalForm(t) {
				return false
			}
		}
	}
	return true
}

// allowedEdits is the most edits a query token may be from a record token
// it pairs with: min(fuzzy, cap) where cap is 0 for tokens of 1–2 runes, 1
// for 3–5, 2 for 6 or more, taken on the shorter of the two tokens so that
// the rule is symmetric. Canonical legal-form tokens pair only exactly.
func allowedEdits(fuzzy int, q, t string) int {
	if fuzzy == 0 || normalize.IsLegalForm(q) || normalize.IsLegalForm(t) {
		return 0
	}
	n := utf8.RuneCountInString(q)
	if m := utf8.RuneCountInString(t); m < n {
		n = m
	}
	return min(fuzzy, lengthCap(n))
}

func lengthCap(runes int) int {
	switch {
	case runes <= 2:
		return 0
	case runes <= 5:
		return 1
	}
	return 2
}

// maxAllowed is allowedEdits for a query token against the longest record
// token: the radius of the dictionary look-up.
func maxAllowed(fuzzy int, q string) int {
	if fuzzy == 0 || normalize.IsLegalForm(q) {
		return 0
	}
	return min(fuzzy, lengthCap(utf8.RuneCountInString(q)))
}

// score orders the matches of one record: docs/MATCHING.md "Ranking".
type score struct {
	exact bool // the query's tokens are exactly the name string's words
	edits int  // total edits of the pairing
	extra int  // record tokens left without a partner
}

// better reports whether a ranks before b.
func (a score) better(b score) bool {
	if a.exact != b.exact {
		return a.exact
	}
	if a.edits != b.edits {
		return a.edits < b.edits
	}
	return a.extra < b.extra
}

// sameWords reports whether q and words hold the same tokens with the same
// multiplicities, in any order.
func sameWords(q, words []string) bool {
	if len(q) != len(words) {
		return false
	}
	count := make(map[string]int, len(q))
	for _, t := range q {
		count[t]++
	}
	for _, t := range words {
		if count[t] == 0 {
			return false
		}
		count[t]--
	}
	return true
}

// Hit is one matching record with the best way it matched.
type Hit struct {
	// ID is the record's id; Record the record, read from beside the
	// index or from its RecordSource for the hits a search returns.
	ID     string
	Record *record.Record // shared: read only
	// Exact is true when the query's words are exactly those of a name
	// string of the record.
	Exact bool
	Edits int // total edits of the best pairing
	Extra int // record tokens without a partner in the best name string
	// Field names the best-matching name string ("alias_names[0]"), or
	// "search_all" for a search_all match.
	Field string
	// Score is the scored-mode score in [0, 1]; strict checks leave it 0,
	// since their hits either match or do not.
	Score float64

	// Where the hit came from in the index: segment, ordinal and the slot
	// of its best name string.
	seg  int32
	ord  uint32
	slot uint16
	// Reason explains a scored-mode hit (nil in strict mode): the name
	// string, the word pairs and what each contributed.
	Reason *ScoreReason
}

func (h *Hit) score() score { return score{exact: h.Exact, edits: h.Edits, extra: h.Extra} }

// Result is the answer to a check.
type Result struct {
	Total int   // every matching record
	Hits  []Hit // at most the query's limit, best first
	// work is what the search did, which tests bound: the name strings
	// scored (scored mode), or the tokens looked up to pair (strict).
	work int
}

// rankHits sorts hits best first, ties broken by record id, and cuts them
// to limit.
func rankHits(hits []Hit, limit int) []Hit {
	sortHits(hits)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

func hitLess(a, b *Hit) bool {
	sa, sb := a.score(), b.score()
	if sa != sb {
		return sa.better(sb)
	}
	return a.ID < b.ID
}

func sortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case hitLess(&a, &b):
			return -1
		case hitLess(&b, &a):
			return 1
		}
		return 0
	})
}
