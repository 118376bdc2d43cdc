package engine

import (
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// This file answers "does this query match this one record", filters and
// entity type included, for matchers that turn the problem around: ongoing
// monitoring holds many queries (search profiles) and few changed records.
// It adds no rule of its own; it runs the brute-force reference path, so a
// profile matches a record exactly when a check with the same parameters
// would return it.

// CompiledQuery is a validated query with its filters parsed and its text
// tokenised, for matching against many records one at a time. It is
// immutable and safe for concurrent use.
type CompiledQuery struct{ c *compiled }

// CompileQuery validates q once, for repeated Match calls. A scored-mode
// query is refused: its score depends on the whole list's word counts,
// which one record alone does not have; Index.ScoreRecord scores a record
// of an index instead.
func CompileQuery(q query.Query) (*CompiledQuery, error) {
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	if c.Match == query.Scored {
		return nil, &query.ParamError{Param: "match", Msg: "a scored check needs the index's word counts: use Index.ScoreRecord"}
	}
	return &CompiledQuery{c: c}, nil
}

// Query returns the query as given.
func (cq *CompiledQuery) Query() query.Query { return cq.c.Query }

// PreparedRecord is a record with its name strings and search_all words
// tokenised, so that matching it against many queries tokenises it once.
// It shares the record, which must not change afterwards.
type PreparedRecord struct{ br bruteRecord }

// PrepareRecord tokenises r for Match.
func PrepareRecord(r *record.Record) *PreparedRecord {
	return &PreparedRecord{br: newBruteRecord(r)}
}

// Record returns the prepared record.
func (p *PreparedRecord) Record() *record.Record { return p.br.rec }

// Match reports whether the prepared record is a hit of the query, with
// exactly the semantics of Index.Search and Brute.Search.
func (cq *CompiledQuery) Match(p *PreparedRecord) (Match, bool) {
	if !passesFilters(cq.c, p.br.rec) {
		return Match{}, false
	}
	return matchRecord(cq.c, &p.br)
}

// Explain tells why the prepared record matches the query by name (the
// best name string and the token pairs), whatever the filters say: what
// Explain(cq.Query(), p.Record()) tells, without compiling the query or
// tokenising the record again.
func (cq *CompiledQuery) Explain(p *PreparedRecord) (Match, bool) {
	return matchRecord(cq.c, &p.br)
}
