package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/response"
	"github.com/amlscreen/amlscreen/screen"
)

// individualParams are the parameters of checkIndividual;
// checkName takes the same (docs/API.md "Endpoints"), since its other
// parameters are ours to choose and a client may well send the filters.
// scoredParams, the opt-in scored mode (docs/MATCHING.md "Scored mode"),
// follow them.
var individualParams = append([]string{"names", "search_all", "fuzzy_search", "dob", "gender", "citizenship", "includes"}, scoredParams...)

// scoredParams are the parameters of scored mode, taken by every endpoint
// that runs a check: checks, reports and profile registration. Without
// them an answer is the strict one, byte for byte.
var scoredParams = []string{"match", "min_score"}

// checkHandler answers a check of kind with the CheckResponse of
// docs/API.md "Check responses".
func checkHandler(kind query.Kind) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		q, err := s.checkQuery(c, kind)
		if err != nil {
			return err
		}
		ch, err := s.db.Check(c.Request.Context(), q, screen.Caller{Key: c.Key}, c.Param("includes"))
		if err != nil {
			return searchError(err)
		}
		res := ch.Result
		s.logScreening(c, c.Request.URL.Path, ch.Version, res)
		bp := bufPool.Get().(*[]byte)
		body := response.AppendCheck((*bp)[:0], res, c.Now, recordOptions(c.Key, record.Snake))
		err = c.JSON(body)
		if cap(body) <= maxPooled {
			*bp = body
			bufPool.Put(bp)
		}
		return err
	}
}

// bufPool recycles response buffers: a check answer is built whole (its
// length goes in Content-Length) and most are a few kilobytes.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxPooled keeps the rare huge answer (1000 long records) from pinning
// its buffer in the pool.
const maxPooled = 1 << 20

// checkQuery reads the parameters of a check into a query, all but
// includes, which the database resolves by the key's sources. Filters the
// endpoint does not define were ignored before this (Call.Param returns ""
// for them), so checkEntity never filters on dob.
func (s *Server) checkQuery(c *Call, kind query.Kind) (query.Query, error) {
	q := query.Query{
		Kind:        kind,
		Names:       c.Param("names"),
		SearchAll:   c.Param("search_all"),
		DOB:         c.Param("dob"),
		Citizenship: c.Param("citizenship"),
	}
	gender, err := apiGender(c)
	if err != nil {
		return q, err
	}
	q.Gender = gender
	fuzzy, err := query.ParseFuzzy(c.Param("fuzzy_search"))
	if err != nil {
		return q, err
	}
	q.Fuzzy = fuzzy
	if q.Match, q.MinScore, err = parseMatch(c); err != nil {
		return q, err
	}
	// Search validates the rest: compiling the query twice would cost a
	// tenth of an exact check.
	return q, nil
}

// apiGender reads the gender parameter as the contract has it: male or
// female in any case, or none. The engine also reads m and f, which the
// command line keeps; /v1 refuses them, since a client that relies on them
// fails against the hosted service.
func apiGender(c *Call) (string, error) {
	g := c.Param("gender")
	switch strings.ToLower(strings.TrimSpace(g)) {
	case "", "male", "female":
		return g, nil
	}
	return "", &query.ParamError{Param: "gender", Msg: fmt.Sprintf("%s is not male or female; leave it out for no gender filter", query.QuoteValue(g))}
}

// parseMatch reads match and min_score: the mode and the threshold (0
// for the default). A min_score without match=scored is refused, never
// ignored, so a threshold the client meant is not silently dropped.
func parseMatch(c *Call) (query.MatchMode, float64, error) {
	m, err := query.ParseMatch(c.Param("match"))
	if err != nil {
		return 0, 0, err
	}
	ms, err := query.ParseMinScore(c.Param("min_score"))
	if err != nil {
		return 0, 0, err
	}
	if ms != 0 && m != query.Scored {
		return 0, 0, &query.ParamError{Param: "min_score", Msg: "applies only with match=scored"}
	}
	return m, ms, nil
}

// searchError answers a search that was refused for load or stopped by
// its request's context with 503 (the client may retry); other errors
// pass through.
func searchError(err error) error {
	switch {
	case errors.Is(err, engine.ErrBusy):
		return &Error{Status: http.StatusServiceUnavailable, Message: err.Error(), RetryAfter: 1}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return Errorf(http.StatusServiceUnavailable, "the check was stopped: %v", err)
	}
	return err
}

// recordOptions writes records in case c with the attributes the key's
// features do not enable stripped.
func recordOptions(k *access.Key, c record.Case) record.WriteOptions {
	return k.Features.WriteOptions(c)
}
