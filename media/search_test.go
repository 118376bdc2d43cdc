package media

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

func mention(id string, ts time.Time, text string) *Article {
	return &Article{ID: id, Timestamp: ts, Language: "en", Headline: text, Body: "<p>Fraud case.</p>", Categories: []string{FinancialCrime}}
}

// newPagingCorpus holds 25 articles about Maria Lopez, several sharing a
// timestamp so that ids decide their order, and some about others.
func newPagingCorpus(t *testing.T, persist bool) *Corpus {
	t.Helper()
	c := New(Options{})
	if persist {
		db, err := store.Open(filepath.Join(t.TempDir(), "m.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if c, err = Load(db, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var arts []*Article
	for i := range 25 {
		// Timestamps repeat in threes: m00..m02 share one, and so on.
		arts = append(arts, mention(fmt.Sprintf("m%02d", i), base.Add(-time.Duration(i/3)*time.Hour), "Maria Lopez in court"))
	}
	for i := range 5 {
		arts = append(arts, mention(fmt.Sprintf("other%d", i), base, "Mario Lopes elsewhere"))
	}
	if _, err := c.Add(arts...); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSearchPagesEachArticleOnce(t *testing.T) {
	for _, persist := range []bool{false, true} {
		t.Run(fmt.Sprintf("persist=%v", persist), func(t *testing.T) {
			c := newPagingCorpus(t, persist)
			base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			seen := map[string]int{}
			var order []*Article
			cursor := ""
			for page := 0; ; page++ {
				r, err := c.Search(context.Background(), SearchQuery{Text: "lopez maria", Cursor: cursor})
				if err != nil {
					t.Fatal(err)
				}
				if page == 0 && r.TotalHits != 25 {
					t.Errorf("total_hits %d, want 25", r.TotalHits)
				}
				if len(r.Articles) > DefaultPageSize {
					t.Fatalf("page of %d", len(r.Articles))
				}
				for _, a := range r.Articles {
					seen[a.ID]++
					order = append(order, a)
				}
				if r.NextCursor == "" {
					if len(r.Articles) == 0 {
						t.Errorf("page %d: empty last page", page)
					}
					break
				}
				if page > 10 {
					t.Fatal("paging does not end")
				}
				// Imports between pages: newer articles (before every
				// cursor), older ones (after it), ones tied with the
				// cursor's timestamp on both sides of its id, and a rewrite
				// of an article already shown.
				last := r.Articles[len(r.Articles)-1]
				_, err = c.Add(
					mention(fmt.Sprintf("new%d", page), base.Add(time.Hour), "Maria Lopez again"),
					mention(fmt.Sprintf("old%d", page), base.Add(-100*time.Hour), "Maria Lopez long ago"),
					mention(last.ID+"a", last.Timestamp, "Maria Lopez tie after"),
					mention("a"+last.ID, last.Timestamp, "Maria Lopez tie before"),
					mention(r.Articles[0].ID, r.Articles[0].Timestamp, "Maria Lopez rewritten"),
				)
				if err != nil {
					t.Fatal(err)
				}
				cursor = r.NextCursor
			}
			for i := range 25 {
				id := fmt.Sprintf("m%02d", i)
				if seen[id] != 1 {
					t.Errorf("%s shown %d times, want once", id, seen[id])
				}
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("%s shown %d times", id, n)
				}
				if id[:3] == "new" || id[0] == 'a' && id != "a" {
					t.Errorf("%s sorts before the cursor it was imported behind, yet was shown", id)
				}
			}
			for i := 1; i < len(order); i++ {
				a, b := order[i-1], order[i]
				if a.Timestamp.Before(b.Timestamp) || a.Timestamp.Equal(b.Timestamp) && a.ID > b.ID {
					t.Errorf("%s (%v) shown before %s (%v)", a.ID, a.Timestamp, b.ID, b.Timestamp)
				}
			}
			if seen["old0"] != 1 {
				t.Errorf("an older article imported between pages was not shown")
			}
		})
	}
}

func TestSearchCursorErrors(t *testing.T) {
	c := newPagingCorpus(t, false)
	for _, cur := range []string{"x", "!!!", encodeCursor(position{ts: 1, id: "a"})[:4], "AQ"} {
		_, err := c.Search(context.Background(), SearchQuery{Text: "maria lopez", Cursor: cur})
		if !isParam(err, "cursor") {
			t.Errorf("cursor %q: %v, want a ParamError on cursor", cur, err)
		}
	}
	r, err := c.Search(context.Background(), SearchQuery{Text: "nobody here"})
	if err != nil || r.TotalHits != 0 || r.NextCursor != "" || r.Articles == nil {
		t.Errorf("no match: %+v, %v", r, err)
	}
	if got := string(r.AppendJSON(nil)); got[len(got)-15:] != `,"articles":[]}` {
		t.Errorf("empty page JSON %s", got)
	}
}

func TestParseParams(t *testing.T) {
	for _, tt := range []struct {
		query string
		param string // "" for no error
		want  CheckQuery
	}{
		{"search_all=ivan+petrov", "", CheckQuery{Kind: query.Individual, Text: "ivan petrov"}},
		{"search_all=ivan&fetch_articles=true&fuzzy_search=2", "", CheckQuery{Kind: query.Individual, Text: "ivan", FetchArticles: true, Fuzzy: 2}},
		{"search_all=ivan&fetch_articles=FALSE&fuzzy_search=0", "", CheckQuery{Kind: query.Individual, Text: "ivan"}},
		{"search_all=ivan&fuzzy_search=", "", CheckQuery{Kind: query.Individual, Text: "ivan"}},
		{"search_all=ivan&country=DE", "", CheckQuery{Kind: query.Individual, Text: "ivan"}},
		{"fetch_articles=true", "search_all", CheckQuery{}},
		{"search_all=+", "search_all", CheckQuery{}},
		{"search_all=a&search_all=b", "search_all", CheckQuery{}},
		{"search_all=a&fetch_articles=yes", "fetch_articles", CheckQuery{}},
		{"search_all=a&fuzzy_search=3", "fuzzy_search", CheckQuery{}},
	} {
		v, _ := url.ParseQuery(tt.query)
		got, err := ParseCheckParams(query.Individual, v, 0)
		if tt.param != "" {
			if !isParam(err, tt.param) {
				t.Errorf("%s: %v, want a ParamError on %s", tt.query, err, tt.param)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v; want %+v", tt.query, got, err, tt.want)
		}
	}
	v, _ := url.ParseQuery("search_all=x&cursor=garbage")
	if _, err := ParseSearchParams(v); !isParam(err, "cursor") {
		t.Errorf("bad cursor: %v", err)
	}
	v, _ = url.ParseQuery("search_all=x&cursor=" + encodeCursor(position{ts: 5, id: "z"}))
	if q, err := ParseSearchParams(v); err != nil || q.Text != "x" || q.Cursor == "" {
		t.Errorf("good cursor: %+v, %v", q, err)
	}
}

// TestValidateAgreesWithTheCorpus: Validate refuses exactly what Check and
// Search refuse, with the same error, so a front end that validates before
// loading a corpus answers as the corpus would.
func TestValidateAgreesWithTheCorpus(t *testing.T) {
	c := New(Options{})
	checks := []CheckQuery{
		{Kind: query.Individual, Text: "Ann Lee"},
		{Kind: query.Individual, Text: "Ann Lee", Fuzzy: 3},
		{Kind: query.Individual, Text: "Ann Lee", PerCategory: MaxPerCategory + 1},
		{Kind: query.Individual, Text: "Ann Lee", PerCategory: -1},
		{Kind: query.Entity, Text: "  "},
	}
	for _, q := range checks {
		_, cerr := c.Check(context.Background(), q)
		if verr := q.Validate(); fmt.Sprint(verr) != fmt.Sprint(cerr) {
			t.Errorf("%+v: Validate %v, Check %v", q, verr, cerr)
		}
	}
	searches := []SearchQuery{
		{Text: "Ann Lee"},
		{Text: "Ann Lee", Cursor: "not a cursor"},
		{Text: "Ann Lee", PageSize: MaxPageSize + 1},
		{Text: "Ann Lee", Fuzzy: -1},
		{Text: ""},
	}
	for _, q := range searches {
		_, serr := c.Search(context.Background(), q)
		if verr := q.Validate(); fmt.Sprint(verr) != fmt.Sprint(serr) {
			t.Errorf("%+v: Validate %v, Search %v", q, verr, serr)
		}
	}
}
