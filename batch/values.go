package batch

import (
	"strings"

	"github.com/amlscreen/amlscreen/engine"
)

// NormalizeDOB reads a date as a book's dob column is read (dd/mm/yyyy,
// d.m.yyyy, yyyy-mm-dd, mm/yyyy, yyyy) and returns it as dd/mm/yyyy with 00
// for unknown parts. It is exported so that a bank's own watchlist,
// converted into records (convert csv), reads dates exactly as its
// customer book does.
func NormalizeDOB(s string) (string, error) { return normalizeDOB(s) }

// NormalizeGender reads the gender of a watchlist row, which becomes a
// record's gender: the query parser's male, female, m and f (any case) as
// "male" or "female", and "" for an empty value or one that says the
// gender is not known (x, u, unknown), which a record may carry though a
// query filter may not; ok is false for anything else. Exported for
// convert csv, like NormalizeDOB.
func NormalizeGender(s string) (gender string, ok bool) {
	if g, err := engine.ParseGender(s); err == nil {
		return strings.ToLower(g), true
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "x", "u", "unknown":
		return "", true
	}
	return "", false
}

// ParseType reads a book's type column (individual, person, company,
// entity, any, …); an empty value gives def. Exported for convert csv, like
// NormalizeDOB.
func ParseType(s string, def engine.Kind) (kind engine.Kind, ok bool) { return parseType(s, def) }
