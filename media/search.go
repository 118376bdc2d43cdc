package media

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/query"
)

// DefaultPageSize is the articles of one media/search page (docs/API.md "Limits").
const DefaultPageSize = 10

// MaxPageSize bounds SearchQuery.PageSize.
const MaxPageSize = 1000

// SearchQuery is one media/search call.
type SearchQuery struct {
	// Text is search_all: the name to look for. Required. Legal forms
	// match in every spelling, as for entities.
	Text string
	// Cursor is the next_cursor of the previous page; "" for the first.
	Cursor string
	// PageSize is the articles per page; 0 means DefaultPageSize.
	PageSize int
	// Fuzzy is fuzzy_search: 0, 1 or 2. The API's media/search does not
	// define it; the CLI offers it.
	Fuzzy int
}

// SearchResponse is the ArticleSearchResponse of docs/API.md "Media".
type SearchResponse struct {
	Timestamp time.Time `json:"timestamp"`
	// TotalHits counts every article mentioning the name, not just this
	// page.
	TotalHits int64 `json:"total_hits"`
	// NextCursor fetches the page after this one; "" (absent from the
	// JSON) on the last page.
	NextCursor string     `json:"next_cursor,omitempty"`
	Articles   []*Article `json:"articles"`
}

// Validate returns the *ParamError Search would return for q, without a
// corpus: a front end checks a request with it before loading one.
func (q SearchQuery) Validate() error {
	if q.PageSize < 0 || q.PageSize > MaxPageSize {
		return &ParamError{Param: "page_size", Msg: fmt.Sprintf("%d is not between 1 and %d", q.PageSize, MaxPageSize)}
	}
	if q.Cursor != "" {
		if _, err := decodeCursor(q.Cursor); err != nil {
			return &ParamError{Param: "cursor", Msg: err.Error()}
		}
	}
	_, err := compileName(q.Text, query.Any, q.Fuzzy)
	return err
}

// Search answers media/search: the articles mentioning the name, newest
// first and then by id, a page at a time.
//
// A cursor is the position (timestamp, id) of the last article of its
// page, so the next page starts right after it whatever was imported
// meanwhile: an article imported between pages shows up on a later page
// when it sorts after the cursor and not at all when it sorts before, and
// no article is shown twice or skipped. (An upsert that moves an article's
// timestamp across the cursor is the one exception: it moves the article.)
func (c *Corpus) Search(ctx context.Context, q SearchQuery) (*SearchResponse, error) {
	size := q.PageSize
	switch {
	case size == 0:
		size = DefaultPageSize
	case size < 0 || size > MaxPageSize:
		return nil, &ParamError{Param: "page_size", Msg: fmt.Sprintf("%d is not between 1 and %d", size, MaxPageSize)}
	}
	var after *position
	if q.Cursor != "" {
		p, err := decodeCursor(q.Cursor)
		if err != nil {
			return nil, &ParamError{Param: "cursor", Msg: err.Error()}
		}
		after = &p
	}
	nq, err := compileName(q.Text, query.Any, q.Fuzzy)
	if err != nil {
		return nil, err
	}
	release, err := c.admit(ctx, nq)
	if err != nil {
		return nil, fmt.Errorf("media search %q: %w", q.Text, err)
	}
	defer release()
	c.mu.RLock()
	defer c.mu.RUnlock()
	docs, err := c.matchingDocs(ctx, nq)
	if err != nil {
		return nil, fmt.Errorf("media search %q: %w", q.Text, err)
	}
	var page []uint32
	rest := 0
	for _, d := range docs {
		if after != nil && !after.before(&c.docs[d]) {
			continue
		}
		rest++
		page = c.keepNewest(page, d, size)
	}
	resp := &SearchResponse{Timestamp: c.now().UTC(), TotalHits: int64(len(docs))}
	if rest > size {
		last := &c.docs[page[len(page)-1]]
		resp.NextCursor = encodeCursor(position{ts: last.ts, id: last.id})
	}
	if resp.Articles, err = c.articles(page); err != nil {
		return nil, fmt.Errorf("media search %q: %w", q.Text, err)
	}
	return resp, nil
}

// position is a place in response order.
type position struct {
	ts int64
	id string
}

// before reports whether p comes before document d in response order.
func (p *position) before(d *docMeta) bool {
	if p.ts != d.ts {
		return p.ts > d.ts
	}
	return p.id < d.id
}

// cursorVersion starts every cursor, so that the layout can change
// without old cursors being misread.
const cursorVersion = 1

// encodeCursor makes the opaque next_cursor: base64url of a version byte,
// the timestamp (8 bytes) and the id.
func encodeCursor(p position) string {
	b := make([]byte, 0, 9+len(p.id))
	b = append(b, cursorVersion)
	b = binary.BigEndian.AppendUint64(b, uint64(p.ts))
	b = append(b, p.id...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (position, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 10 || b[0] != cursorVersion || !utf8.Valid(b[9:]) || len(b)-9 > MaxIDLength {
		return position{}, fmt.Errorf("%q is not a cursor from next_cursor", s)
	}
	return position{ts: int64(binary.BigEndian.Uint64(b[1:])), id: string(b[9:])}, nil
}

// AppendJSON appends the response's JSON to dst, with its timestamp in
// milliseconds and articles as [] rather than null on an empty page.
func (r *SearchResponse) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"timestamp":"`...)
	dst = r.Timestamp.UTC().AppendFormat(dst, ResponseTimeFormat)
	dst = append(dst, `","total_hits":`...)
	dst = strconv.AppendInt(dst, r.TotalHits, 10)
	if r.NextCursor != "" {
		dst = append(dst, `,"next_cursor":`...)
		dst = appendString(dst, r.NextCursor)
	}
	dst = append(dst, `,"articles":[`...)
	for i, a := range r.Articles {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = a.AppendJSON(dst)
	}
	return append(dst, "]}"...)
}
