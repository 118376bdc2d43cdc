package media

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/amlscreen/amlscreen/query"
)

// CheckParams are the query parameters media/checkIndividual and
// media/checkEntity define; the server names any other in a Warning
// header and ignores it (docs/API.md "Requests and errors").
var CheckParams = []string{"search_all", "fetch_articles", "fuzzy_search"}

// SearchParams are the query parameters media/search defines.
var SearchParams = []string{"search_all", "cursor"}

// ParseCheckParams reads the parameters of a media check of kind from a
// request's query, with the rules of docs/API.md "Media": search_all required,
// fetch_articles true or false (default false), fuzzy_search empty, 0, 1
// or 2, none of them given twice. perCategory is the key's
// articles_per_category, 0 for the default. Errors are *ParamError.
func ParseCheckParams(kind query.Kind, v url.Values, perCategory int) (CheckQuery, error) {
	q := CheckQuery{Kind: kind, PerCategory: perCategory}
	var err error
	if q.Text, err = single(v, "search_all"); err != nil {
		return q, err
	}
	if strings.TrimSpace(q.Text) == "" {
		return q, &ParamError{Param: "search_all", Msg: "required"}
	}
	fa, err := single(v, "fetch_articles")
	if err != nil {
		return q, err
	}
	switch strings.ToLower(fa) {
	case "", "false":
	case "true":
		q.FetchArticles = true
	default:
		return q, &ParamError{Param: "fetch_articles", Msg: fmt.Sprintf("%q is not true or false", fa)}
	}
	if q.Fuzzy, err = parseFuzzy(v); err != nil {
		return q, err
	}
	return q, nil
}

// ParseSearchParams reads the parameters of media/search: search_all
// required, cursor optional. Errors are *ParamError.
func ParseSearchParams(v url.Values) (SearchQuery, error) {
	var q SearchQuery
	var err error
	if q.Text, err = single(v, "search_all"); err != nil {
		return q, err
	}
	if strings.TrimSpace(q.Text) == "" {
		return q, &ParamError{Param: "search_all", Msg: "required"}
	}
	if q.Cursor, err = single(v, "cursor"); err != nil {
		return q, err
	}
	if q.Cursor != "" {
		if _, err := decodeCursor(q.Cursor); err != nil {
			return q, &ParamError{Param: "cursor", Msg: err.Error()}
		}
	}
	return q, nil
}

// single returns the one value of name, "" when absent.
func single(v url.Values, name string) (string, error) {
	vals := v[name]
	switch len(vals) {
	case 0:
		return "", nil
	case 1:
		return vals[0], nil
	}
	return "", &ParamError{Param: name, Msg: "given more than once"}
}

// parseFuzzy reads fuzzy_search: empty or 0 means none (clients in the
// wild send it), 1 or 2 the edits allowed.
func parseFuzzy(v url.Values) (int, error) {
	s, err := single(v, "fuzzy_search")
	if err != nil {
		return 0, err
	}
	switch s {
	case "", "0":
		return 0, nil
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	}
	return 0, &ParamError{Param: "fuzzy_search", Msg: fmt.Sprintf("%q is not 1 or 2", s)}
}
