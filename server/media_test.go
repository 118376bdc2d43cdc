package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/media"
)

// mediaFixture is the server fixture with the media endpoints over a small
// corpus: 12 financial-crime articles about Ivan Petrov and one
// violent-crime article about Acme Trading LLC.
func mediaFixture(t *testing.T, keys ...*access.Key) *fixture {
	t.Helper()
	corpus := mediaCorpus(t)
	return newFixture(t, func(c *Config) {
		c.Endpoints = MediaEndpoints(corpus)
		if len(keys) > 0 {
			c.KeysFile, c.Keys = "", keys
		}
	})
}

// mediaCorpus is the corpus of mediaFixture.
func mediaCorpus(t testing.TB) *media.Corpus {
	t.Helper()
	return mediaCorpusWith(t, media.Options{})
}

// mediaCorpusWith is mediaCorpus made with opts.
func mediaCorpusWith(t testing.TB, opts media.Options) *media.Corpus {
	t.Helper()
	corpus := media.New(opts)
	var arts []*media.Article
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		arts = append(arts, &media.Article{ID: fmt.Sprintf("p%02d", i), Timestamp: base.AddDate(0, 0, i), Language: "en",
			Headline: "Petrov, Ivan: fraud trial", Body: "<p>Day " + fmt.Sprint(i) + ".</p>", Categories: []string{media.FinancialCrime}})
	}
	arts = append(arts, &media.Article{ID: "acme", Timestamp: base, Language: "en", Headline: "Acme Trading Limited Liability Company guard shot dead",
		Categories: []string{media.ViolentCrime}})
	var lines []byte
	for _, a := range arts {
		lines = a.AppendLine(lines)
	}
	if _, err := corpus.Import(bytes.NewReader(lines)); err != nil {
		t.Fatal(err)
	}
	return corpus
}

type mediaCheckAnswer struct {
	Timestamp     string `json:"timestamp"`
	TotalHits     int64  `json:"total_hits"`
	NewsExposures map[string]struct {
		Category string            `json:"category"`
		Hits     int64             `json:"hits"`
		Articles []json.RawMessage `json:"articles"`
	} `json:"news_exposures"`
}

func TestMediaCheckEndpoints(t *testing.T) {
	f := mediaFixture(t)
	a := f.get(keyBasic, "/v1/media/checkIndividual?search_all="+url.QueryEscape("Ivan Petrov")+"&fetch_articles=true&fuzzy=true")
	if a.StatusCode != 200 || a.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", a.StatusCode, a.body)
	}
	if !strings.Contains(a.Header.Get("Warning"), "fuzzy") {
		t.Errorf("no Warning for the unknown parameter: %v", a.Header)
	}
	var r mediaCheckAnswer
	if err := json.Unmarshal(a.body, &r); err != nil {
		t.Fatal(err)
	}
	if r.Timestamp != "2026-11-22T10:00:00.000Z" || r.TotalHits != 12 || len(r.NewsExposures) != 6 {
		t.Fatalf("answer %s", a.body)
	}
	fc := r.NewsExposures[media.FinancialCrime]
	if fc.Hits != 12 || len(fc.Articles) != media.DefaultPerCategory {
		t.Errorf("financial_crime: %d hits, %d articles", fc.Hits, len(fc.Articles))
	}
	if p := r.NewsExposures[media.Political]; p.Hits != 0 || p.Articles == nil {
		t.Errorf("political: %+v; want 0 hits and an empty articles list", p)
	}
	// Without fetch_articles, no articles; entities match legal forms.
	a = f.get(keyBasic, "/v1/media/checkEntity?search_all="+url.QueryEscape("acme trading llc"))
	if a.StatusCode != 200 || strings.Contains(string(a.body), "articles") || !strings.Contains(string(a.body), `"violent_crime":{"category":"violent_crime","hits":1}`) {
		t.Errorf("checkEntity: %d %s", a.StatusCode, a.body)
	}
	for _, q := range []string{"", "?search_all=", "?search_all=x&fetch_articles=maybe", "?search_all=x&fuzzy_search=5", "?search_all=x&search_all=y"} {
		f.get(keyBasic, "/v1/media/checkIndividual"+q).errorMessage(t, 400)
	}
	f.get("", "/v1/media/checkIndividual?search_all=x").errorMessage(t, 401)
}

func TestMediaArticlesPerCategoryOfKey(t *testing.T) {
	f := mediaFixture(t, &access.Key{Key: "many-articles", ArticlesPerCategory: 11})
	a := f.get("many-articles", "/v1/media/checkIndividual?search_all=ivan+petrov&fetch_articles=true")
	var r mediaCheckAnswer
	if err := json.Unmarshal(a.body, &r); err != nil || a.StatusCode != 200 {
		t.Fatalf("%d %s", a.StatusCode, a.body)
	}
	if n := len(r.NewsExposures[media.FinancialCrime].Articles); n != 11 {
		t.Errorf("%d articles, want the key's 11", n)
	}
}

func TestMediaSearchEndpoint(t *testing.T) {
	f := mediaFixture(t)
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		path := "/v1/media/search?search_all=" + url.QueryEscape("IVAN PETROV")
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		a := f.get(keyBasic, path)
		var r struct {
			TotalHits  int64  `json:"total_hits"`
			NextCursor string `json:"next_cursor"`
			Articles   []struct {
				ID string `json:"id"`
			} `json:"articles"`
		}
		if err := json.Unmarshal(a.body, &r); err != nil || a.StatusCode != 200 {
			t.Fatalf("%d %s", a.StatusCode, a.body)
		}
		if r.TotalHits != 12 {
			t.Errorf("total_hits %d", r.TotalHits)
		}
		for _, art := range r.Articles {
			if seen[art.ID] {
				t.Errorf("%s twice", art.ID)
			}
			seen[art.ID] = true
		}
		if r.NextCursor == "" {
			if strings.Contains(string(a.body), "next_cursor") {
				t.Errorf("next_cursor present on the last page: %s", a.body)
			}
			break
		}
		cursor = r.NextCursor
		if page > 3 {
			t.Fatal("paging does not end")
		}
	}
	if len(seen) != 12 {
		t.Errorf("%d articles over all pages, want 12", len(seen))
	}
	f.get(keyBasic, "/v1/media/search?search_all=x&cursor=bogus").errorMessage(t, 400)
	u := usageOf(t, f, keyBasic, "")
	if u.Summary.BilledUsed < 2 {
		t.Errorf("media search not billed: %+v", u.Summary)
	}
}
