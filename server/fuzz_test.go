package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/monitor"
)

// fuzzPaths are the endpoints FuzzQuery sends query strings to: every GET
// endpoint whose answer depends on its parameters. (testWebhookDelivery
// checks the profile id, then answers 400: the fuzzing key has no webhook
// URL to post to.)
var fuzzPaths = []string{
	"/v1/checkIndividual", "/v1/checkEntity", "/v1/checkName",
	"/v1/generateIndividualReport", "/v1/generateEntityReport",
	"/v1/media/checkIndividual", "/v1/media/checkEntity", "/v1/media/search",
	"/v1/getSourceList", "/v1/listSources", "/v1/usage", "/v1/getConsolidatedDelta",
	"/v1/registerIndividual", "/v1/registerEntity", "/v1/removeSearchProfile",
	"/v1/testWebhookDelivery",
}

// FuzzQuery sends arbitrary query strings to every endpoint over loopback
// HTTP: the answer is a success or a client error (400; 429 once a quota
// is used up), never a server
// error; every error is a JSON object with a non-empty error_message of at
// most maxErrorMessage bytes and nothing else; and there is at most one
// Warning header, however many unknown parameters. The seeds include
// values at and beyond every limit of limits.go.
func FuzzQuery(f *testing.F) {
	corpus := mediaCorpus(f)
	fx := newFixture(f, func(c *Config) {
		m := monitor.New(c.Store, monitor.Options{})
		c.Endpoints = append(MediaEndpoints(corpus), MonitorEndpoints(m)...)
		c.ProfileCount = m.Count
	})
	for k, q := range []string{
		"names=vladimir%20putin&fuzzy_search=1&dob=07/10/1952",
		"names=acme&search_all=acme",
		"search_all=petrov&fetch_articles=true",
		"names=x&dob=32/01/2000&gender=m&citizenship=RUS",
		"names=%00%ff&includes=nope,included",
		"names=a&names=b",
		"previous=2026-11-01T00:00:00Z~1",
		"profile_id=p1&names=ivan%20petrov",
		"month=2026-13&scope=all",
		"cursor=%7B%7D&search_all=ivan",
		"names=" + url.QueryEscape("Владимир Путин"),
		// The limits, at and beyond them.
		"names=" + strings.Repeat("ab ", 170) + "&fuzzy_search=2",
		"search_all=" + strings.Repeat("ab ", 171),
		"names=ivan&dob=" + strings.Repeat("1", MaxParamChars+1),
		"names=ivan&includes=" + strings.Repeat("x,", MaxIncludesChars/2),
		"profile_id=" + strings.Repeat("p", MaxProfileIDBytes) + "&names=ivan",
		"profile_id=" + strings.Repeat("p", MaxProfileIDBytes+1) + "&names=ivan",
		"profile_id=a%00b&names=ivan", "profile_id=%C2%85&search_all=acme",
		"month=" + strings.Repeat("2026-11", 1000),
		"previous=" + strings.Repeat("v", 300),
		"search_all=ivan&cursor=" + strings.Repeat("A", maxCursorChars+1),
		"names=ivan&q=" + strings.Repeat("z", MaxURLBytes),
		"names=ivan&" + strings.Repeat("u=1&", 100) + strings.Repeat("v=&w=2&", 60),
	} {
		for i, p := range fuzzPaths {
			// Under the race detector, ten times slower, each seed goes to
			// every fourth endpoint, a different quarter for the next seed,
			// so every endpoint still gets six of them. The plain run sends
			// every seed everywhere but to the report endpoints, which get
			// six each too: rendering a PDF is three quarters of the test's
			// CPU, and the reports read their parameters as the checks do.
			// AMLSCREEN_LONG_TESTS=1 sends every seed everywhere.
			quarter := raceEnabled || strings.HasPrefix(p, "/v1/generate")
			if quarter && !longTests() && (i+k)%4 != 0 {
				continue
			}
			f.Add(uint8(i), q)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, query string) {
		path := fuzzPaths[int(which)%len(fuzzPaths)]
		// What a client can send: the parameters re-encoded, so that any
		// bytes reach the handlers as values (a raw space or control byte
		// in a request line is refused by net/http before any handler).
		v, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		query = v.Encode()
		fx.t = t // the fixture's helpers report on this input
		a := fx.get(keyFull, path+"?"+query)
		if w := a.Header.Values("Warning"); len(w) > 1 {
			t.Fatalf("%s?%.200s: %d Warning headers", path, query, len(w))
		}
		switch {
		case a.StatusCode == 200:
			return
		case a.StatusCode != 400 && a.StatusCode != 429:
			t.Fatalf("%s?%s: status %d: %s", path, query, a.StatusCode, a.body)
		}
		if ct := a.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s?%s: error with Content-Type %q", path, query, ct)
		}
		var e map[string]any
		if err := json.Unmarshal(a.body, &e); err != nil {
			t.Fatalf("%s?%s: error body is not JSON: %s", path, query, a.body)
		}
		if msg, ok := e["error_message"].(string); !ok || msg == "" || len(e) != 1 || len(msg) > maxErrorMessage {
			t.Fatalf("%s?%.200s: error body %.1000s", path, query, a.body)
		}
	})
}
