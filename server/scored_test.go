package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of testdata")

// scoredFixture is the fixture answering from its twelve records plus
// 4,000 generated ones: scored mode weighs words by how many records hold
// them, and a list of twelve makes every word weak evidence.
func scoredFixture(t *testing.T, edit ...func(*Config)) *fixture {
	t.Helper()
	var recs []*record.Record
	base := newFixture(t)
	if err := base.st.ForEachRecord(func(r *record.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	base.stop()
	g := gen.New(3)
	for i := gen.SeedCount(); i < gen.SeedCount()+4000; i++ {
		recs = append(recs, g.Record(i))
	}
	srcs, err := base.st.Sources()
	if err != nil {
		t.Fatal(err)
	}
	db := screen.New(recs, srcs, testVersion)
	base.db = db
	base.start(append([]func(*Config){func(c *Config) { c.DB = db }}, edit...)...)
	return base
}

// scoredRecord is a found record of a scored answer.
type scoredRecord struct {
	ID     string              `json:"id"`
	Score  *float64            `json:"match_score"`
	Reason *engine.ScoreReason `json:"match_reason"`
}

func scoredRecords(t *testing.T, c checkAnswer) []scoredRecord {
	t.Helper()
	out := make([]scoredRecord, len(c.Found))
	for i, raw := range c.Found {
		b, _ := json.Marshal(raw)
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestScoredCheckFindsVariants: over loopback, a scored check finds the
// middle-name (in either name order) and legal-form variants the strict
// rule misses,
// each record with match_score and match_reason, ranked by score, and
// total_hits counts the records at or above the threshold.
func TestScoredCheckFindsVariants(t *testing.T) {
	f := scoredFixture(t)
	for _, tc := range []struct {
		path, want, unpaired string
	}{
		{"/v1/checkIndividual?names=John+Michael+Smith&fuzzy_search=1", "AML011", "michael"},
		{"/v1/checkName?names=Smith+John+Michael&fuzzy_search=1&citizenship=US", "AML011", "michael"},
		{"/v1/checkEntity?names=Acme+Trading+Ltd&fuzzy_search=1", "AML002", ""},
	} {
		strict := f.check(keyBasic, tc.path)
		for _, id := range strict.ids() {
			if id == tc.want {
				t.Fatalf("%s: strict mode finds %s already: the case proves nothing", tc.path, id)
			}
		}
		scored := f.check(keyBasic, tc.path+"&match=scored")
		recs := scoredRecords(t, scored)
		var hit *scoredRecord
		for i := range recs {
			r := &recs[i]
			if r.Score == nil || r.Reason == nil || *r.Score < query.DefaultMinScore || *r.Score > 1 {
				t.Errorf("%s: record %s without a score at or above the threshold and a reason: %+v", tc.path, r.ID, r)
				continue
			}
			if i > 0 && recs[i-1].Score != nil && *r.Score > *recs[i-1].Score {
				t.Errorf("%s: %s (%v) ranked after %s (%v)", tc.path, r.ID, *r.Score, recs[i-1].ID, *recs[i-1].Score)
			}
			if r.ID == tc.want {
				hit = r
			}
		}
		if hit == nil {
			t.Errorf("%s&match=scored: %s not found in %v", tc.path, tc.want, scored.ids())
			continue
		}
		if int(scored.TotalHits) != len(recs) {
			t.Errorf("%s: total_hits %d, %d records", tc.path, scored.TotalHits, len(recs))
		}
		if hit.Reason.Field == "" || hit.Reason.Name == "" || len(hit.Reason.Pairs) == 0 || hit.Reason.Score != *hit.Score {
			t.Errorf("%s: reason %+v", tc.path, hit.Reason)
		}
		if tc.unpaired != "" && (len(hit.Reason.UnpairedQuery) != 1 || hit.Reason.UnpairedQuery[0].Word != tc.unpaired) {
			t.Errorf("%s: unpaired query words %+v, want %s", tc.path, hit.Reason.UnpairedQuery, tc.unpaired)
		}
		// A threshold above the hit's score leaves it out, and total_hits
		// counts what is left.
		above := f.check(keyBasic, tc.path+"&match=scored&min_score="+url.QueryEscape(engine.FormatScore(*hit.Score+0.01)))
		for _, id := range above.ids() {
			if id == tc.want {
				t.Errorf("%s: min_score above its score still finds %s", tc.path, id)
			}
		}
		if above.TotalHits >= scored.TotalHits {
			t.Errorf("%s: total_hits %d at a higher threshold, %d at the default", tc.path, above.TotalHits, scored.TotalHits)
		}
	}
	// Reports take the mode: a scored report of the variant is a PDF.
	if a := f.get(keyBasic, "/v1/generateIndividualReport?names=John+Michael+Smith&fuzzy_search=1&match=scored"); a.StatusCode != 200 || !strings.HasPrefix(string(a.body), "JVBERi0") {
		t.Errorf("scored report: %d %.80s", a.StatusCode, a.body)
	}
	// Filters apply as in strict mode: a citizenship the record does not
	// have.
	if a := f.check(keyBasic, "/v1/checkIndividual?names=John+Michael+Smith&fuzzy_search=1&match=scored&citizenship=FR"); len(a.Found) != 0 {
		t.Errorf("citizenship FR: %v", a.ids())
	}
}

// TestScoredParams: bad match and min_score values are 400s naming the
// parameter on every endpoint that takes them; their length is bounded.
func TestScoredParams(t *testing.T) {
	f, _ := limitsFixture(t)
	for _, tc := range []struct{ path, param string }{
		{"/v1/checkIndividual?names=ivan&match=fuzzy", "match"},
		{"/v1/checkEntity?names=acme&match=scored&min_score=0", "min_score"},
		{"/v1/checkName?names=ivan&match=scored&min_score=1.5", "min_score"},
		{"/v1/checkName?names=ivan&match=scored&min_score=abc", "min_score"},
		{"/v1/checkName?names=ivan&match=scored&min_score=NaN", "min_score"},
		{"/v1/checkName?names=ivan&min_score=0.5", "min_score"},
		{"/v1/checkName?names=ivan&match=strict&min_score=0.5", "min_score"},
		{"/v1/checkIndividual?search_all=ivan&match=scored", "match"},
		{"/v1/checkName?names=ivan&match=" + strings.Repeat("s", 17), "match"},
		{"/v1/checkName?names=ivan&match=" + strings.Repeat("s", MaxParamChars+1), "match"},
		{"/v1/checkName?names=ivan&match=scored&min_score=0." + strings.Repeat("5", 40), "min_score"},
		{"/v1/generateIndividualReport?names=ivan&match=best", "match"},
		{"/v1/generateEntityReport?names=acme&match=scored&min_score=2", "min_score"},
		{"/v1/registerIndividual?profile_id=p1&names=ivan&match=scored&min_score=-1", "min_score"},
		{"/v1/registerEntity?profile_id=p2&names=acme&min_score=0.9", "min_score"},
	} {
		msg := f.get(keyBasic, tc.path).errorMessage(t, 400)
		if !strings.HasPrefix(msg, tc.param) {
			t.Errorf("%s: %q does not name %s first", tc.path, msg, tc.param)
		}
	}
	// Valid values are taken, also in any case.
	for _, p := range []string{
		"/v1/checkName?names=ivan&match=SCORED&min_score=0.5",
		"/v1/checkName?names=ivan&match=strict",
		"/v1/checkName?names=ivan&match=",
	} {
		if a := f.get(keyBasic, p); a.StatusCode != 200 || a.Header.Get("Warning") != "" {
			t.Errorf("%s: %d %s, Warning %q", p, a.StatusCode, a.body, a.Header.Get("Warning"))
		}
	}
}

// TestStrictAnswersUnchanged pins the bytes of strict answers (taken from
// the server before scored mode existed, testdata/strict.golden): without
// match, or with match=strict, nothing changes.
func TestStrictAnswersUnchanged(t *testing.T) {
	f := newFixture(t)
	paths := []string{
		"/v1/checkIndividual?names=putin",
		"/v1/checkName?names=vladimir%20putin&fuzzy_search=1",
		"/v1/checkEntity?names=acme%20trading%20limited%20liability%20company",
		"/v1/checkIndividual?names=maria%20ivanova&dob=12/03/1960",
		"/v1/checkIndividual?search_all=putin%2014024",
		"/v1/checkName?names=john%20michael%20smith&fuzzy_search=2",
		"/v1/checkName?names=nobody%20known",
	}
	var got bytes.Buffer
	for _, p := range paths {
		a := f.get(keyFull, p)
		got.WriteString(p + "\n" + string(a.body) + "\n")
		if b := f.get(keyFull, p+"&match=strict"); !bytes.Equal(b.body, a.body) {
			t.Errorf("%s&match=strict:\n%s\nwithout:\n%s", p, b.body, a.body)
		}
	}
	path := filepath.Join("testdata", "strict.golden")
	if *updateGolden {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("strict answers changed:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}

// TestScoredProfileRegistered: registerIndividual with match=scored stores
// a scored profile with its threshold; without match the profile is
// strict. (monitor's tests show a scored profile notified of a variant.)
func TestScoredProfileRegistered(t *testing.T) {
	var m *monitor.Monitor
	f := newFixture(t, func(c *Config) {
		m = monitor.New(c.Store, monitor.Options{Index: func() (*engine.Index, error) { return c.DB.Index(), nil }})
		c.Endpoints = MonitorEndpoints(m)
	})
	if a := f.get(keyBasic, "/v1/registerIndividual?profile_id=s1&names=Olga+Petrovna+Smirnova&fuzzy_search=1&match=scored&min_score=0.3"); a.StatusCode != 200 {
		t.Fatalf("register: %d %s", a.StatusCode, a.body)
	}
	if a := f.get(keyBasic, "/v1/registerIndividual?profile_id=s2&names=Olga+Petrovna+Smirnova&fuzzy_search=1"); a.StatusCode != 200 {
		t.Fatalf("register: %d %s", a.StatusCode, a.body)
	}
	owner := access.KeyID(keyBasic)
	p, err := m.Get(owner, "s1")
	if err != nil || p == nil || p.Match != query.Scored || p.MinScore != 0.3 {
		t.Fatalf("stored profile %+v, %v", p, err)
	}
	if p, err := m.Get(owner, "s2"); err != nil || p == nil || p.Match != query.Strict {
		t.Fatalf("strict profile %+v, %v", p, err)
	}
}
