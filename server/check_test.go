package server

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// checkAnswer is the CheckResponse as a client reads it, records kept raw
// so that key casing and value types can be checked.
type checkAnswer struct {
	Timestamp string                       `json:"timestamp"`
	TotalHits int64                        `json:"total_hits"`
	Found     []map[string]json.RawMessage `json:"found_records"`
}

func (c checkAnswer) ids() []string {
	var out []string
	for _, r := range c.Found {
		var id string
		json.Unmarshal(r["id"], &id)
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func (f *fixture) check(key, path string) checkAnswer {
	f.t.Helper()
	a := f.get(key, path)
	if a.StatusCode != 200 {
		f.t.Fatalf("%s: %d %s", path, a.StatusCode, a.body)
	}
	if ct := a.Header.Get("Content-Type"); ct != "application/json" {
		f.t.Errorf("%s: Content-Type %q", path, ct)
	}
	var c checkAnswer
	if err := json.Unmarshal(a.body, &c); err != nil {
		f.t.Fatalf("%s: %v: %s", path, err, a.body)
	}
	if int(c.TotalHits) < len(c.Found) {
		f.t.Errorf("%s: total_hits %d < %d records", path, c.TotalHits, len(c.Found))
	}
	return c
}

func TestChecks(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, key, path string
		want            []string
	}{
		// Entity types per endpoint.
		{"individual", keyBasic, "/v1/checkIndividual?names=putin", []string{"AML001"}},
		{"name: every type", keyBasic, "/v1/checkName?names=putin", []string{"AML001", "AML009"}},
		{"entity", keyBasic, "/v1/checkEntity?names=acme", []string{"AML002", "AML010"}},
		{"entity: legal form synonym", keyBasic, "/v1/checkEntity?names=acme%20trading%20limited%20liability%20company", []string{"AML002"}},
		{"individual includes UNKNOWN", keyBasic, "/v1/checkIndividual?names=maria%20ivanova", []string{"AML006", "AML007"}},
		{"entity includes UNKNOWN", keyBasic, "/v1/checkEntity?names=maria%20ivanova", []string{"AML007"}},
		// fuzzy_search "", "0", "1", "2".
		{"fuzzy empty", keyBasic, "/v1/checkIndividual?names=putn&fuzzy_search=", nil},
		{"fuzzy 0", keyBasic, "/v1/checkIndividual?names=putn&fuzzy_search=0", nil},
		{"fuzzy 1", keyBasic, "/v1/checkIndividual?names=putn&fuzzy_search=1", []string{"AML001"}},
		{"fuzzy 2", keyBasic, "/v1/checkIndividual?names=vladimr%20ptin&fuzzy_search=2", []string{"AML001"}},
		{"search_all", keyBasic, "/v1/checkIndividual?search_all=putin%2014024", []string{"AML001"}},
		// Filters.
		{"dob", keyBasic, "/v1/checkIndividual?names=maria%20ivanova&dob=12/03/1960", []string{"AML006", "AML007"}},
		{"dob other year", keyBasic, "/v1/checkIndividual?names=maria%20ivanova&dob=12/03/1961", []string{"AML007"}},
		{"gender", keyBasic, "/v1/checkIndividual?names=maria%20ivanova&gender=MALE", []string{"AML007"}},
		{"citizenship lower case", keyBasic, "/v1/checkIndividual?names=putin&citizenship=ru", []string{"AML001"}},
		{"citizenship other", keyBasic, "/v1/checkIndividual?names=putin&citizenship=de", nil},
		{"checkName takes the filters", keyBasic, "/v1/checkName?names=maria%20ivanova&gender=female", []string{"AML006", "AML007"}},
		// Sources per key and includes.
		{"OTHER not included by default", keyBasic, "/v1/checkIndividual?names=vladimir%20putin", []string{"AML001"}},
		{"OTHER included for the key", keyFull, "/v1/checkIndividual?names=vladimir%20putin", []string{"AML001", "AML008"}},
		{"includes one source", keyBasic, "/v1/checkIndividual?names=vladimir%20putin&includes=media_watch", []string{"AML008"}},
		{"includes union", keyBasic, "/v1/checkIndividual?names=vladimir%20putin&includes=included,media_watch", []string{"AML001", "AML008"}},
		{"excluded source", keyPicky, "/v1/checkIndividual?names=kim%20jong%20un", nil},
		{"excluded source named", keyPicky, "/v1/checkIndividual?names=kim%20jong%20un&includes=un_sc", []string{"AML003"}},
		{"extra source", keyPicky, "/v1/checkEntity?names=acme", []string{"AML002", "AML012"}},
		{"derived source id", keyBasic, "/v1/checkIndividual?names=olaf%20scholz&includes=pep_de", []string{"AML005"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := f.check(c.key, c.path).ids()
			if !slices.Equal(got, c.want) {
				t.Errorf("hits %v, want %v", got, c.want)
			}
		})
	}
}

// TestCheckResponseShape: snake_case keys, list_date as a string,
// timestamp RFC 3339 UTC with milliseconds, feature-flagged attributes
// only for keys that enable them.
func TestCheckResponseShape(t *testing.T) {
	f := newFixture(t)
	f.clock.Set(time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.FixedZone("X", 3600)))
	basic := f.check(keyBasic, "/v1/checkIndividual?names=putin")
	if basic.Timestamp != "2026-11-22T09:00:00.123Z" {
		t.Errorf("timestamp %q", basic.Timestamp)
	}
	r := basic.Found[0]
	for _, k := range []string{"id", "source_id", "source_type", "entity_type", "list_date", "given_names", "last_names", "date_of_birth", "sanction_details"} {
		if _, ok := r[k]; !ok {
			t.Errorf("record lacks %s: %v", k, r)
		}
	}
	for k := range r {
		if strings.ToLower(k) != k {
			t.Errorf("key %s is not snake_case", k)
		}
	}
	if string(r["list_date"]) != `"1646092800000"` {
		t.Errorf("list_date %s, want a string", r["list_date"])
	}

	pep := f.check(keyBasic, "/v1/checkIndividual?names=angela%20merkel")
	if _, ok := pep.Found[0]["pep_level"]; ok {
		t.Error("pep_level sent to a key without the feature")
	}
	if _, ok := pep.Found[0]["source_country"]; ok {
		t.Error("source_country sent to a key without the feature")
	}
	if string(pep.Found[0]["pep_type"]) != `"POLITICIAN"` || string(pep.Found[0]["list_date"]) != `"0"` {
		t.Errorf("record %v", pep.Found[0])
	}
	pep = f.check(keyFull, "/v1/checkIndividual?names=angela%20merkel")
	if string(pep.Found[0]["pep_level"]) != "1" || string(pep.Found[0]["source_country"]) != `"DE"` {
		t.Errorf("feature attributes missing for the full key: %v", pep.Found[0])
	}

	none := f.get(keyBasic, "/v1/checkName?names="+url.QueryEscape("nobody at all"))
	if string(none.body) != `{"timestamp":"2026-11-22T09:00:00.123Z","total_hits":0,"found_records":[]}` {
		t.Errorf("empty answer %s", none.body)
	}
}
