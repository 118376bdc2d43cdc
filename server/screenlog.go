package server

import (
	"context"
	"strings"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/report"
)

// Screening is one check the server answered, as Config.LogScreening
// receives it for the audit log.
type Screening struct {
	// Key names the caller: the key's name, or "key " and the start of
	// its id when it has none.
	Key string
	// Query is the check as words: the endpoint and its parameters.
	Query string
	// Version is the database version the check ran on; IDs the records
	// it returned, in order.
	Version string
	IDs     []string
}

type noScreeningLog struct{}

// WithoutScreeningLog marks a request context whose checks are not passed
// to Config.LogScreening: the workbench logs its screenings itself, with
// the person who screened.
func WithoutScreeningLog(ctx context.Context) context.Context {
	return context.WithValue(ctx, noScreeningLog{}, true)
}

// logScreening passes a check answered to Config.LogScreening, if set.
func (s *Server) logScreening(c *Call, path, version string, res *engine.Result) {
	if s.screenLog == nil || c.Request.Context().Value(noScreeningLog{}) != nil {
		return
	}
	name := c.Key.Name
	if name == "" {
		name = "key " + c.Key.ID()[:8]
	}
	var b strings.Builder
	b.WriteString(strings.TrimPrefix(path, "/v1/"))
	for _, k := range []string{"names", "search_all", "dob", "gender", "citizenship", "fuzzy_search", "includes", "match", "min_score"} {
		if v := c.Param(k); v != "" {
			b.WriteString(" ")
			b.WriteString(k)
			b.WriteString("=")
			b.WriteString(query.QuoteValue(v))
		}
	}
	ids := make([]string, len(res.Hits))
	for i := range res.Hits {
		ids[i] = res.Hits[i].ID
	}
	s.screenLog(Screening{Key: name, Query: b.String(), Version: version, IDs: ids})
}

type reportNotesKey struct{}

// WithReportNotes has the reports made under ctx (generateIndividualReport,
// generateEntityReport) carry the casework notes fn returns for the ids of
// their hits, in order: the workbench adds the work done on a screening's
// hits to its PDF. Only a caller in the process can set it.
func WithReportNotes(ctx context.Context, fn func(ids []string) []report.CaseNote) context.Context {
	return context.WithValue(ctx, reportNotesKey{}, fn)
}

// reportNotes returns the casework notes for a report's hits, nil when
// the request asked for none.
func reportNotes(ctx context.Context, res *engine.Result) []report.CaseNote {
	fn, _ := ctx.Value(reportNotesKey{}).(func([]string) []report.CaseNote)
	if fn == nil || res == nil {
		return nil
	}
	ids := make([]string, len(res.Hits))
	for i := range res.Hits {
		ids[i] = res.Hits[i].ID
	}
	return fn(ids)
}
