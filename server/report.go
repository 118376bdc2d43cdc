package server

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/report"
	"github.com/amlscreen/amlscreen/screen"
)

// reportHandler answers generateIndividualReport and generateEntityReport
// (docs/API.md "Check responses"): the PDF report of the screening, Base64-encoded,
// as text/plain. Only SANCTION, PEP and CRIMINAL sources are searched,
// whatever includes names.
func reportHandler(kind query.Kind) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		if strings.TrimSpace(c.Param("names")) == "" {
			return Errorf(http.StatusBadRequest, "names: required")
		}
		q, err := s.checkQuery(c, kind)
		if err != nil {
			return err
		}
		cat := s.db.Catalog()
		if q.Sources, err = cat.Resolve(screen.Caller{Key: c.Key}, c.Param("includes")); err != nil {
			return err
		}
		q.Sources = report.ReportableSources(q.Sources, cat.Types())
		q.Limit = reportMaxHits
		version := s.db.Version()
		res, err := s.db.Index().SearchContext(c.Request.Context(), q)
		if err != nil {
			return searchError(err)
		}
		in := report.Input{
			Query: q, Result: res, Time: c.Now, Version: version, Origin: "amlscreen serve", Sample: s.sampleAt(version),
			Sources: cat.Describe(q.Sources), Casework: reportNotes(c.Request.Context(), res),
		}
		if len(res.Hits) >= reportHeavyHits {
			// A long report costs as much as a heavy check: it waits for
			// one of their admission slots (503 when none comes free).
			release, err := s.db.Admitter().Acquire(c.Request.Context())
			if err != nil {
				return searchError(err)
			}
			defer release()
		}
		var pdf bytes.Buffer
		if err := report.Render(&pdf, in); err != nil {
			return err
		}
		out := make([]byte, base64.StdEncoding.EncodedLen(pdf.Len()))
		base64.StdEncoding.Encode(out, pdf.Bytes())
		return c.Reply("text/plain; charset=utf-8", out)
	}
}

// reportMaxHits is the most hits a report details: the best ones, with the
// total stated. Rendering costs about a millisecond of a core per hit, so
// a thousand (the limit of a check) would cost a second.
const reportMaxHits = 250

// reportHeavyHits is the number of hits from which rendering a report
// takes an admission slot of heavy checks: a report of a thousand hits
// costs about a second of a core, one of a few hits a millisecond. A
// variable for the tests.
var reportHeavyHits = 50
