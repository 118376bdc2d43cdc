package engine

import "github.com/amlscreen/amlscreen/query"

// Temporary aliases while importers move to package query.
type (
	Query      = query.Query
	Kind       = query.Kind
	ParamError = query.ParamError
	MatchMode  = query.MatchMode
)

const (
	Any             = query.Any
	Individual      = query.Individual
	Entity          = query.Entity
	Strict          = query.Strict
	Scored          = query.Scored
	DefaultLimit    = query.DefaultLimit
	DefaultMinScore = query.DefaultMinScore
	MaxTextRunes    = query.MaxTextRunes
	MaxTextWords    = query.MaxTextWords
	MaxIncludes     = query.MaxIncludes
	MaxQuotedRunes  = query.MaxQuotedRunes
)

var (
	ParseKind        = query.ParseKind
	ParseMatch       = query.ParseMatch
	ParseMinScore    = query.ParseMinScore
	ParseFuzzy       = query.ParseFuzzy
	ParseGender      = query.ParseGender
	ParseCitizenship = query.ParseCitizenship
	QuoteValue       = query.QuoteValue
	ParseQueryDate   = query.ParseQueryDate
)

var Validate = query.Validate
