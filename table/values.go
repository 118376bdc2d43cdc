package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/query"
)

// NormalizeGender reads the gender of a watchlist row, which becomes a
// record's gender: the query parser's male, female, m and f (any case) as
// "male" or "female", and "" for an empty value or one that says the
// gender is not known (x, u, unknown), which a record may carry though a
// query filter may not; ok is false for anything else. Exported for
// convert csv.
func NormalizeGender(s string) (gender string, ok bool) {
	if g, err := query.ParseGender(s); err == nil {
		return strings.ToLower(g), true
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "x", "u", "unknown":
		return "", true
	}
	return "", false
}

// typeWords maps what books write in a customer-type column to a check.
var typeWords = map[string]query.Kind{
	"individual": query.Individual, "person": query.Individual, "naturalperson": query.Individual,
	"private": query.Individual, "retail": query.Individual, "i": query.Individual, "p": query.Individual,
	"np": query.Individual, "ind": query.Individual, "indiv": query.Individual,
	"entity": query.Entity, "company": query.Entity, "organisation": query.Entity, "organization": query.Entity,
	"corporate": query.Entity, "corporation": query.Entity, "business": query.Entity, "legalentity": query.Entity,
	"legalperson": query.Entity, "e": query.Entity, "c": query.Entity, "org": query.Entity, "le": query.Entity,
	"any": query.Any, "name": query.Any, "unknown": query.Any, "u": query.Any,
}

// ParseType reads a book's type column (individual, person, company,
// entity, any, …); an empty value gives def.
func ParseType(s string, def query.Kind) (kind query.Kind, ok bool) {
	k := headerKey(s)
	if k == "" {
		return def, true
	}
	kind, ok = typeWords[k]
	return kind, ok
}

// NormalizeDOB turns the date spellings of customer books into the API's
// dd/mm/yyyy with 00 for unknown parts: dd/mm/yyyy, d.m.yyyy,
// yyyy-mm-dd (with a time after it, as spreadsheets export), mm/yyyy and
// yyyy. Day-first is assumed, as the API does. The result is checked by
// the engine's own rule, so that a batch rejects exactly what a check
// refuses. A bank's own watchlist, converted into records (convert csv),
// reads dates exactly as its customer book does.
func NormalizeDOB(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if i := strings.IndexAny(s, "T "); i == 10 {
		s = s[:i] // 1960-03-12T00:00:00, 1960-03-12 00:00:00
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == '-' })
	bad := fmt.Errorf("%s is not a date (dd/mm/yyyy or yyyy-mm-dd)", query.QuoteValue(s))
	for _, p := range parts {
		if p == "" || len(p) > 4 || !digits(p) {
			return "", bad
		}
	}
	var d, m, y string
	switch {
	case len(parts) == 3 && len(parts[0]) == 4:
		y, m, d = parts[0], parts[1], parts[2]
	case len(parts) == 3:
		d, m, y = parts[0], parts[1], parts[2]
	case len(parts) == 2:
		d, m, y = "00", parts[0], parts[1]
	case len(parts) == 1:
		d, m, y = "00", "00", parts[0]
	default:
		return "", bad
	}
	if len(y) != 4 || len(d) > 2 || len(m) > 2 {
		return "", bad
	}
	out := pad2(d) + "/" + pad2(m) + "/" + y
	if _, err := query.ParseQueryDate(out); err != nil {
		// The engine's message quotes the date as rewritten; the book's
		// spelling is what a reader of the rejects file looks for.
		why := strings.TrimPrefix(err.Error(), strconv.Quote(out)+": ")
		if len(parts) == 3 && len(parts[0]) <= 2 {
			if _, err := query.ParseQueryDate(pad2(m) + "/" + pad2(d) + "/" + y); err == nil {
				// 06/14/1971: a month-first column, which cannot be
				// told from day-first until a day passes 12.
				return "", fmt.Errorf("%s is not a valid date (%s): the column looks month-first (mm/dd/yyyy); batch reads dd/mm/yyyy or yyyy-mm-dd, so rewrite the column as one of them", query.QuoteValue(s), why)
			}
		}
		return "", fmt.Errorf("%s is not a valid date (%s)", query.QuoteValue(s), why)
	}
	return out, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func pad2(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}
