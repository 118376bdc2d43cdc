package server

import (
	"net/url"

	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/query"
)

// definedParams returns the parameters of the call that its endpoint
// defines; the server has already refused any given twice.
func definedParams(c *Call, names []string) url.Values {
	v := url.Values{}
	for _, n := range names {
		if c.Has(n) {
			v.Set(n, c.Param(n))
		}
	}
	return v
}

func mediaCheck(corpus *media.Corpus, kind query.Kind) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		per := min(max(c.Key.ArticlesPerCategory, 0), media.MaxPerCategory)
		q, err := media.ParseCheckParams(kind, definedParams(c, media.CheckParams), per)
		if err != nil {
			return err
		}
		resp, err := corpus.Check(c.Request.Context(), q)
		if err != nil {
			return searchError(err)
		}
		resp.Timestamp = c.Now
		return c.JSON(resp.AppendJSON(nil))
	}
}

func mediaSearch(corpus *media.Corpus) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		q, err := media.ParseSearchParams(definedParams(c, media.SearchParams))
		if err != nil {
			return err
		}
		resp, err := corpus.Search(c.Request.Context(), q)
		if err != nil {
			return searchError(err)
		}
		resp.Timestamp = c.Now
		return c.JSON(resp.AppendJSON(nil))
	}
}
