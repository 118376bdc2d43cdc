package media

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// DefaultPerCategory is how many articles a check returns per category
// unless the API key says otherwise (docs/API.md "Limits").
const DefaultPerCategory = 10

// MaxPerCategory bounds PerCategory, so that a key's setting cannot make
// one response fetch a whole corpus.
const MaxPerCategory = 1000

// CheckQuery is one media/checkIndividual or media/checkEntity call.
type CheckQuery struct {
	// Kind is query.Individual (media/checkIndividual) or query.Entity
	// (media/checkEntity); entities match legal forms in all spellings.
	Kind query.Kind
	// Text is search_all: the name to look for. Required.
	Text string
	// Fuzzy is fuzzy_search: 0, 1 or 2 edits per word, capped by length.
	Fuzzy int
	// FetchArticles is fetch_articles: add each category's articles.
	FetchArticles bool
	// PerCategory caps the articles per category; 0 means
	// DefaultPerCategory. The server sets it from the key's
	// articles_per_category.
	PerCategory int
}

// CheckResponse is the CheckMediaResponse of docs/API.md "Media".
type CheckResponse struct {
	Timestamp time.Time `json:"timestamp"`
	// TotalHits is the sum of the categories' hits: an article in two
	// categories counts twice.
	TotalHits int64 `json:"total_hits"`
	// NewsExposures has every category of the corpus, also with 0 hits.
	NewsExposures map[string]*NewsExposure `json:"news_exposures"`
}

// NewsExposure is one category's result.
type NewsExposure struct {
	Category string `json:"category"`
	// Hits counts every article mentioning the name in this category.
	Hits int64 `json:"hits"`
	// Articles are the newest of them, newest first; nil (and absent from
	// the JSON) unless the query asked for articles.
	Articles []*Article `json:"articles,omitempty"`
}

// Validate returns the *ParamError Check would return for q, without a
// corpus: a front end checks a request with it before loading one.
func (q CheckQuery) Validate() error {
	if q.PerCategory < 0 || q.PerCategory > MaxPerCategory {
		return &ParamError{Param: "articles_per_category", Msg: fmt.Sprintf("%d is not between 1 and %d", q.PerCategory, MaxPerCategory)}
	}
	_, err := compileName(q.Text, q.Kind, q.Fuzzy)
	return err
}

// Check answers media/checkIndividual and media/checkEntity: for every
// category, how many articles mention the name, and with FetchArticles the
// newest of them. Bad parameters give a *ParamError.
func (c *Corpus) Check(ctx context.Context, q CheckQuery) (*CheckResponse, error) {
	per := q.PerCategory
	switch {
	case per == 0:
		per = DefaultPerCategory
	case per < 0 || per > MaxPerCategory:
		return nil, &ParamError{Param: "articles_per_category", Msg: fmt.Sprintf("%d is not between 1 and %d", per, MaxPerCategory)}
	}
	nq, err := compileName(q.Text, q.Kind, q.Fuzzy)
	if err != nil {
		return nil, err
	}
	release, err := c.admit(ctx, nq)
	if err != nil {
		return nil, fmt.Errorf("media check %q: %w", q.Text, err)
	}
	defer release()
	c.mu.RLock()
	defer c.mu.RUnlock()
	docs, err := c.matchingDocs(ctx, nq)
	if err != nil {
		return nil, fmt.Errorf("media check %q: %w", q.Text, err)
	}
	hits := make([]int64, len(c.cats))
	var top [][]uint32
	if q.FetchArticles {
		top = make([][]uint32, len(c.cats))
	}
	for _, d := range docs {
		m := &c.docs[d]
		for bits := m.cats; bits != 0; bits &= bits - 1 {
			i := trailingZeros(bits)
			if i >= len(hits) {
				continue
			}
			hits[i]++
			if top != nil {
				top[i] = c.keepNewest(top[i], d, per)
			}
		}
	}
	resp := &CheckResponse{Timestamp: c.now().UTC(), NewsExposures: make(map[string]*NewsExposure, len(c.cats))}
	for i, name := range c.cats {
		ne := &NewsExposure{Category: name, Hits: hits[i]}
		resp.TotalHits += hits[i]
		if top != nil {
			arts, err := c.articles(top[i])
			if err != nil {
				return nil, fmt.Errorf("media check %q: %w", q.Text, err)
			}
			ne.Articles = arts
		}
		resp.NewsExposures[name] = ne
	}
	return resp, nil
}

func trailingZeros(x uint64) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}

// before reports whether document a comes before b in responses: newer
// first, then by id.
func (c *Corpus) before(a, b uint32) bool {
	da, db := &c.docs[a], &c.docs[b]
	if da.ts != db.ts {
		return da.ts > db.ts
	}
	return da.id < db.id
}

// keepNewest inserts d into top, kept in response order and at most n
// long.
func (c *Corpus) keepNewest(top []uint32, d uint32, n int) []uint32 {
	if len(top) == n && !c.before(d, top[n-1]) {
		return top
	}
	i, _ := slices.BinarySearchFunc(top, d, func(x, t uint32) int {
		if c.before(x, t) {
			return -1
		}
		return 1
	})
	if len(top) < n {
		top = append(top, 0)
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = d
	return top
}

// AppendJSON appends the response's JSON to dst, with the categories in
// their standard order (political, regulatory, terrorism,
// financial_crime, organized_crime, violent_crime, then others by name),
// so that output is stable and reads like the documentation.
func (r *CheckResponse) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"timestamp":"`...)
	dst = r.Timestamp.UTC().AppendFormat(dst, ResponseTimeFormat)
	dst = append(dst, `","total_hits":`...)
	dst = strconv.AppendInt(dst, r.TotalHits, 10)
	dst = append(dst, `,"news_exposures":{`...)
	for i, name := range orderCategories(r.NewsExposures) {
		if i > 0 {
			dst = append(dst, ',')
		}
		ne := r.NewsExposures[name]
		dst = appendString(dst, name)
		dst = append(dst, `:{"category":`...)
		dst = appendString(dst, ne.Category)
		dst = append(dst, `,"hits":`...)
		dst = strconv.AppendInt(dst, ne.Hits, 10)
		if ne.Articles != nil {
			dst = append(dst, `,"articles":[`...)
			for k, a := range ne.Articles {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = a.AppendJSON(dst)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	return append(dst, "}}"...)
}

// orderCategories returns the keys of m: the standard categories first in
// their order, then the others by name.
func orderCategories(m map[string]*NewsExposure) []string {
	out := make([]string, 0, len(m))
	for _, c := range StandardCategories {
		if _, ok := m[c]; ok {
			out = append(out, c)
		}
	}
	var extra []string
	for c := range m {
		if !slices.Contains(StandardCategories, c) {
			extra = append(extra, c)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}
