package engine

import (
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// MatchRecord reports whether r is a hit of q: the entity type, source, dob,
// gender and citizenship filters pass and a name string (or, for
// search_all, the record's words) matches. m explains the best match. An
// invalid q gives its *ParamError.
func MatchRecord(q query.Query, r *record.Record) (m Match, ok bool, err error) {
	cq, err := CompileQuery(q)
	if err != nil {
		return Match{}, false, err
	}
	m, ok = cq.Match(PrepareRecord(r))
	return m, ok, nil
}
