package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

// loadTestCorpus imports testdata/corpus.jsonl into a fresh corpus, in
// memory or, with persist, in a bbolt file.
func loadTestCorpus(t testing.TB, persist bool) (*Corpus, *store.Store) {
	t.Helper()
	var c *Corpus
	var db *store.Store
	if persist {
		var err error
		db, err = store.Open(filepath.Join(t.TempDir(), "media.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if c, err = Load(db, Options{}); err != nil {
			t.Fatal(err)
		}
	} else {
		c = New(Options{})
	}
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := c.Import(f); err != nil {
		t.Fatal(err)
	}
	return c, db
}

func hitsOf(r *CheckResponse) map[string]int64 {
	out := map[string]int64{}
	for k, v := range r.NewsExposures {
		out[k] = v.Hits
	}
	return out
}

func check(t *testing.T, c *Corpus, q CheckQuery) *CheckResponse {
	t.Helper()
	r, err := c.Check(context.Background(), q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	return r
}

func TestCheckCategoryCounts(t *testing.T) {
	for _, persist := range []bool{false, true} {
		c, _ := loadTestCorpus(t, persist)
		tests := []struct {
			name string
			q    CheckQuery
			want map[string]int64 // categories not listed must be 0
		}{
			// a01, a02 (Petrov, Ivan), a03 (classified by the lexicon), a04
			// (Ivan Sergeyevich Petrov), a11 (no category), a12
			// (environmental); not a05 (far apart), a06 (headline and body),
			// a13 (Petrow).
			{"exact", CheckQuery{Kind: query.Individual, Text: "Ivan Petrov"},
				map[string]int64{Political: 1, Regulatory: 1, FinancialCrime: 3, "environmental": 1}},
			{"reversed", CheckQuery{Kind: query.Individual, Text: "PETROV, Ivan"},
				map[string]int64{Political: 1, Regulatory: 1, FinancialCrime: 3, "environmental": 1}},
			{"cyrillic query", CheckQuery{Kind: query.Individual, Text: "Иван Петров"},
				map[string]int64{Political: 1, Regulatory: 1, FinancialCrime: 3, "environmental": 1}},
			{"fuzzy finds Petrow", CheckQuery{Kind: query.Individual, Text: "Ivan Petrov", Fuzzy: 1},
				map[string]int64{Political: 1, Regulatory: 1, FinancialCrime: 3, ViolentCrime: 1, "environmental": 1}},
			{"fuzzy 1 forgives a swap", CheckQuery{Kind: query.Individual, Text: "Ivan Petorv", Fuzzy: 1},
				map[string]int64{Political: 1, Regulatory: 1, FinancialCrime: 3, "environmental": 1}},
			{"a swap is an edit", CheckQuery{Kind: query.Individual, Text: "Ivan Petorv"},
				map[string]int64{}},
			{"cyrillic article", CheckQuery{Kind: query.Individual, Text: "Oleg Sokolov"},
				map[string]int64{OrganizedCrime: 1}},
			{"diacritics in query", CheckQuery{Kind: query.Individual, Text: "Jürgen Weiß"},
				map[string]int64{FinancialCrime: 1}},
			{"diacritics dropped", CheckQuery{Kind: query.Individual, Text: "jurgen weiss"},
				map[string]int64{FinancialCrime: 1}},
			{"entity legal forms both ways", CheckQuery{Kind: query.Entity, Text: "Acme Trading LLC"},
				map[string]int64{Regulatory: 1, FinancialCrime: 1}},
			{"entity long form", CheckQuery{Kind: query.Entity, Text: "acme trading limited liability company"},
				map[string]int64{Regulatory: 1, FinancialCrime: 1}},
			{"individual check keeps words as written", CheckQuery{Kind: query.Individual, Text: "Acme Trading LLC"},
				map[string]int64{FinancialCrime: 1}},
			{"only a legal form matches nothing", CheckQuery{Kind: query.Entity, Text: "LLC"},
				map[string]int64{}},
			{"unknown name", CheckQuery{Kind: query.Individual, Text: "Nobody Atall"},
				map[string]int64{}},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/persist=%v", tt.name, persist), func(t *testing.T) {
				r := check(t, c, tt.q)
				got := hitsOf(r)
				var total int64
				for _, cat := range append(slices.Clone(StandardCategories), "environmental") {
					if _, ok := got[cat]; !ok {
						t.Errorf("category %s missing from news_exposures", cat)
					}
					if got[cat] != tt.want[cat] {
						t.Errorf("%s: %d hits, want %d", cat, got[cat], tt.want[cat])
					}
					total += tt.want[cat]
				}
				if r.TotalHits != total {
					t.Errorf("total_hits %d, want %d", r.TotalHits, total)
				}
				for cat, ne := range r.NewsExposures {
					if ne.Articles != nil {
						t.Errorf("%s: articles without fetch_articles", cat)
					}
				}
			})
		}
	}
}

func TestCheckArticleCaps(t *testing.T) {
	c, _ := loadTestCorpus(t, false)
	// Twelve more financial-crime articles about Ivan Petrov, a day apart.
	var extra []*Article
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		extra = append(extra, &Article{
			ID: fmt.Sprintf("x%02d", i), Timestamp: base.AddDate(0, 0, i), Language: "en",
			Headline: "Fraud trial of Ivan Petrov continues", Body: "<p>Day in court.</p>",
			Categories: []string{FinancialCrime},
		})
	}
	if _, err := c.Add(extra...); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		per, want int
	}{{0, DefaultPerCategory}, {3, 3}, {100, 15}} {
		r := check(t, c, CheckQuery{Kind: query.Individual, Text: "Ivan Petrov", FetchArticles: true, PerCategory: tt.per})
		fc := r.NewsExposures[FinancialCrime]
		if fc.Hits != 15 {
			t.Fatalf("financial_crime hits %d, want 15", fc.Hits)
		}
		if len(fc.Articles) != tt.want {
			t.Fatalf("per category %d: %d articles, want %d", tt.per, len(fc.Articles), tt.want)
		}
		// Newest first: x11, x10, ...
		for i, a := range fc.Articles {
			if i < 12 && a.ID != fmt.Sprintf("x%02d", 11-i) {
				t.Fatalf("article %d is %s, want x%02d", i, a.ID, 11-i)
			}
			if i > 0 && a.Timestamp.After(fc.Articles[i-1].Timestamp) {
				t.Fatalf("articles not newest first at %d", i)
			}
		}
		if ne := r.NewsExposures[Terrorism]; ne.Articles == nil || len(ne.Articles) != 0 {
			t.Errorf("terrorism: articles %v, want an empty list with fetch_articles", ne.Articles)
		}
	}
	if _, err := c.Check(context.Background(), CheckQuery{Text: "x", PerCategory: -1}); !isParam(err, "articles_per_category") {
		t.Errorf("negative per category: %v", err)
	}
}

func isParam(err error, param string) bool {
	var pe *ParamError
	return errors.As(err, &pe) && pe.Param == param
}

func TestCheckParamErrors(t *testing.T) {
	c := New(Options{})
	for _, tt := range []struct {
		q     CheckQuery
		param string
	}{
		{CheckQuery{Text: ""}, "search_all"},
		{CheckQuery{Text: " ,;. "}, "search_all"},
		{CheckQuery{Text: "ivan", Fuzzy: 3}, "fuzzy_search"},
		{CheckQuery{Text: strings.Repeat("w ", MaxQueryWords+1)}, "search_all"},
	} {
		if _, err := c.Check(context.Background(), tt.q); !isParam(err, tt.param) {
			t.Errorf("%+v: %v, want a ParamError on %s", tt.q, err, tt.param)
		}
	}
}

func TestCheckResponseJSON(t *testing.T) {
	c, _ := loadTestCorpus(t, false)
	c.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC) }
	r := check(t, c, CheckQuery{Kind: query.Individual, Text: "Oleg Sokolov", FetchArticles: true, PerCategory: 1})
	// AppendJSON, not json.Marshal: encoding/json would escape the <p>
	// of bodies as \u003cp\u003e, valid but unreadable.
	b := r.AppendJSON(nil)
	s := string(b)
	want := `{"timestamp":"2026-01-02T03:04:05.006Z","total_hits":1,"news_exposures":{"political":{"category":"political","hits":0,"articles":[]},"regulatory":{"category":"regulatory","hits":0,"articles":[]},"terrorism":{"category":"terrorism","hits":0,"articles":[]},"financial_crime":{"category":"financial_crime","hits":0,"articles":[]},"organized_crime":{"category":"organized_crime","hits":1,"articles":[{"timestamp":"2021-03-15T09:00:00Z","id":"a07","language":"ru","headline":"Задержан Олег Соколов","body":"<p>В Москве задержан Олег Соколов, предполагаемый лидер ОПГ.</p>","source_link":"https://vestnik.example/a07"}]},"violent_crime":{"category":"violent_crime","hits":0,"articles":[]},"environmental":{"category":"environmental","hits":0,"articles":[]}}}`
	if s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}
	var back CheckResponse
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("response does not decode: %v", err)
	}
	if back.NewsExposures[OrganizedCrime].Articles[0].ID != "a07" {
		t.Errorf("decoded %+v", back.NewsExposures[OrganizedCrime])
	}
}

func TestPersistedCorpusLoadsTheSame(t *testing.T) {
	c, db := loadTestCorpus(t, true)
	again, err := Load(db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != c.Len() || again.Len() != 13 {
		t.Fatalf("reloaded %d articles, imported %d", again.Len(), c.Len())
	}
	if !slices.Equal(again.Categories(), c.Categories()) {
		t.Fatalf("categories %v, want %v", again.Categories(), c.Categories())
	}
	for _, q := range []string{"Ivan Petrov", "Acme Trading", "Oleg Sokolov", "JÜRGEN weiß"} {
		for _, fuzzy := range []int{0, 2} {
			a := check(t, c, CheckQuery{Text: q, Fuzzy: fuzzy, FetchArticles: true})
			b := check(t, again, CheckQuery{Text: q, Fuzzy: fuzzy, FetchArticles: true})
			a.Timestamp, b.Timestamp = time.Time{}, time.Time{}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("%q fuzzy %d: reloaded corpus answers\n%s\nimporting one answered\n%s", q, fuzzy, jb, ja)
			}
		}
	}
}

func TestBadLineAppliesNothing(t *testing.T) {
	for _, persist := range []bool{false, true} {
		c, db := loadTestCorpus(t, persist)
		before := check(t, c, CheckQuery{Text: "Ivan Petrov"})
		bad := `{"id":"n1","timestamp":"2025-01-01T00:00:00Z","language":"en","headline":"Ivan Petrov murder trial","body":"","categories":["violent_crime"]}
{"id":"a01","timestamp":"2025-01-01T00:00:00Z","language":"en","headline":"Ivan Petrov replaced","categories":["terrorism"]}

{"id":"n3","timestamp":"yesterday","language":"en","headline":"Ivan Petrov"}
`
		_, err := c.Import(strings.NewReader(bad))
		var le *LineError
		if !errors.As(err, &le) || le.Line != 4 || le.Field != "timestamp" {
			t.Fatalf("persist=%v: error %v, want line 4 field timestamp", persist, err)
		}
		after := check(t, c, CheckQuery{Text: "Ivan Petrov"})
		if !mapsEqual(hitsOf(before), hitsOf(after)) || c.Len() != 13 {
			t.Errorf("persist=%v: a failed import changed the corpus: %v -> %v, %d articles", persist, hitsOf(before), hitsOf(after), c.Len())
		}
		if persist {
			again, err := Load(db, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitsOf(check(t, again, CheckQuery{Text: "Ivan Petrov"})); !mapsEqual(got, hitsOf(before)) || again.Len() != 13 {
				t.Errorf("a failed import reached the store: %v, %d articles", got, again.Len())
			}
		}
	}
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestUpsertReplacesAndCompacts(t *testing.T) {
	for _, persist := range []bool{false, true} {
		c, db := loadTestCorpus(t, persist)
		// a01 becomes a terrorism article about someone else; the old text
		// must no longer match.
		st, err := c.Import(strings.NewReader(`{"id":"a01","timestamp":"2024-05-01T10:00:00Z","language":"en","headline":"Oleg Sokolov bomb plot","categories":["terrorism"]}` + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if st.Updated != 1 || st.Added != 0 || c.Len() != 13 {
			t.Fatalf("stats %+v, %d articles", st, c.Len())
		}
		if got := hitsOf(check(t, c, CheckQuery{Text: "Ivan Petrov"}))[FinancialCrime]; got != 2 {
			t.Errorf("financial_crime for Ivan Petrov after the upsert: %d, want 2", got)
		}
		if got := hitsOf(check(t, c, CheckQuery{Text: "Oleg Sokolov"}))[Terrorism]; got != 1 {
			t.Errorf("terrorism for Oleg Sokolov after the upsert: %d, want 1", got)
		}
		// Rewriting every article many times turns most postings into
		// garbage, which an import then compacts away.
		var lines strings.Builder
		for range 300 {
			lines.WriteString(`{"id":"churn","timestamp":"2019-01-01T00:00:00Z","language":"en","headline":"Ivan Petrov","body":"<p>` + strings.Repeat("word ", 20) + `</p>","categories":["political"]}` + "\n")
		}
		compacted := false
		for range 3 {
			st, err := c.Import(strings.NewReader(lines.String()))
			if err != nil {
				t.Fatal(err)
			}
			compacted = compacted || st.Compacted
		}
		if !compacted {
			t.Errorf("persist=%v: garbage %d of %d postings was never compacted", persist, c.postings-c.livePostings, c.postings)
		}
		if got := hitsOf(check(t, c, CheckQuery{Text: "Ivan Petrov"})); got[Political] != 2 || got[FinancialCrime] != 2 {
			t.Errorf("after churn: %v", got)
		}
		if persist {
			again, err := Load(db, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitsOf(check(t, again, CheckQuery{Text: "Ivan Petrov"})); got[Political] != 2 || got[FinancialCrime] != 2 || again.Len() != 14 {
				t.Errorf("reloaded after churn: %v, %d articles", got, again.Len())
			}
		}
	}
}

func TestMentionWindow(t *testing.T) {
	c := New(Options{})
	texts := map[string]string{
		"adjacent":       "Ivan Petrov said",
		"reversed":       "Petrov Ivan said",
		"comma":          "Petrov, Ivan, said",
		"two between":    "Ivan S. K. Petrov",
		"three between":  "Ivan is the very Petrov",
		"chain":          "Ivan x Sergeyevich y Petrov",
		"twice far":      "Ivan was here and there, then Petrov",
		"other mentions": "Petrov met Anna and Maria; then Ivan came to Petrov",
		"hyphen":         "Abu-Bakr al-Baghdadi",
		"joined":         "Abubakr Albaghdadi",
		"legal":          "ROMASHKA Limited Liability Company",
	}
	var arts []*Article
	for id, text := range texts {
		arts = append(arts, &Article{ID: strings.ReplaceAll(id, " ", "_"), Timestamp: time.Unix(0, 0), Language: "en", Body: "<p>" + text + "</p>", Categories: []string{}})
	}
	if _, err := c.Add(arts...); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		q    string
		kind query.Kind
		want []string
	}{
		{"Ivan Petrov", query.Individual, []string{"adjacent", "comma", "other_mentions", "reversed", "two_between"}},
		{"Ivan Sergeyevich Petrov", query.Individual, []string{"chain"}},
		{"abu bakr al baghdadi", query.Individual, []string{"hyphen"}},
		{"abubakr al-baghdadi", query.Individual, []string{"hyphen", "joined"}},
		{"Romashka LLC", query.Entity, []string{"legal"}},
		{"Romashka L.L.C.", query.Entity, []string{"legal"}},
		{"Romashka OOO", query.Entity, nil}, // a class of its own
	} {
		r, err := searchKind(c, tt.q, tt.kind)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range r.Articles {
			got = append(got, a.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: mentioned in %v, want %v", tt.q, got, tt.want)
		}
	}
}

// searchKind lists every article mentioning q under the rules of a check of
// kind.
func searchKind(c *Corpus, q string, kind query.Kind) (*SearchResponse, error) {
	nq, err := compileName(q, kind, 0)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	docs, err := c.matchingDocs(context.Background(), nq)
	c.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	arts, err := c.articles(docs)
	return &SearchResponse{Articles: arts}, err
}

func TestMentions(t *testing.T) {
	ev := func(pairs ...uint32) []event {
		var out []event
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, event{pos: pairs[i], mask: pairs[i+1]})
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		events []event
		k      int
		want   bool
	}{
		{"one token", ev(7, 1), 1, true},
		{"gap 3", ev(0, 1, 3, 2), 2, true},
		{"gap 4", ev(0, 1, 4, 2), 2, false},
		{"reversed", ev(0, 2, 1, 1), 2, true},
		{"same position cannot serve two tokens", ev(5, 3), 2, false},
		{"duplicate token needs two positions", ev(5, 3, 6, 3), 2, true},
		{"a later occurrence closes the gap", ev(0, 1, 3, 2, 6, 2, 9, 4), 3, false},
		{"three tokens chained", ev(0, 1, 3, 2, 6, 4), 3, true},
		{"best occurrence chosen", ev(0, 1, 10, 1, 12, 2), 2, true},
		{"word and legal token at one position", ev(4, 1, 4, 2, 5, 4), 3, false},
	} {
		if got := mentions(tt.events, tt.k); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
