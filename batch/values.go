package batch

import "github.com/amlscreen/amlscreen/engine"

// NormalizeDOB reads a date as a book's dob column is read (dd/mm/yyyy,
// d.m.yyyy, yyyy-mm-dd, mm/yyyy, yyyy) and returns it as dd/mm/yyyy with 00
// for unknown parts. It is exported so that a bank's own watchlist,
// converted into records (convert csv), reads dates exactly as its
// customer book does.
func NormalizeDOB(s string) (string, error) { return normalizeDOB(s) }

// NormalizeGender reads a gender as a book's gender column is read: "male",
// "female", or "" for values that say nothing; ok is false for a value it
// does not know. Exported for convert csv, like NormalizeDOB.
func NormalizeGender(s string) (gender string, ok bool) { return normalizeGender(s) }

// ParseType reads a book's type column (individual, person, company,
// entity, any, …); an empty value gives def. Exported for convert csv, like
// NormalizeDOB.
func ParseType(s string, def engine.Kind) (kind engine.Kind, ok bool) { return parseType(s, def) }
