package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/api"
	"github.com/amlscreen/amlscreen/api/client"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/response"
	"github.com/amlscreen/amlscreen/store"
)

// The OpenAPI document (package api) is written by hand; these tests hold
// it to the server as built: every answer of every endpoint, success and
// error, is validated against it, the document's operations and the
// server's routes are the same set, and each parameter's limit is the
// server's.

// Keys the OpenAPI fixture adds to testdata/keys.json.
const (
	keyWebhook  = "webhook-key-0006" // has a webhook_url
	keyDownload = "download-key-0007"
)

// pendingParams are parameters the document describes before the server
// defines them; none now. Every parameter is checked against the server's
// route table and limits.
var pendingParams = map[string]bool{}

// loadDoc loads and validates the embedded document, answering at base.
func loadDoc(t *testing.T, base string) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.YAML)
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	if base != "" {
		doc.Servers = openapi3.Servers{{URL: base}}
	}
	return doc
}

func init() {
	// JSON Lines: each line is one item of the array schema the document
	// gives the body.
	openapi3filter.RegisterBodyDecoder("application/x-ndjson",
		func(r io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
			out := []any{}
			sc := bufio.NewScanner(r)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var v any
				if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
					return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
				}
				out = append(out, v)
			}
			return out, sc.Err()
		})
}

// openAPIFixture is a server with every endpoint serve has: monitoring
// and media too.
func openAPIFixture(t *testing.T) *fixture {
	t.Helper()
	keys, err := access.LoadFile("testdata/keys.json")
	if err != nil {
		t.Fatal(err)
	}
	one := int64(1)
	keys = append(keys,
		&access.Key{Key: keyWebhook, Name: "webhook", WebhookURL: "http://127.0.0.1:9/hook"},
		&access.Key{Key: keyDownload, Name: "download", DailyDownloadLimit: &one})
	corpus := mediaCorpus(t)
	f := newFixture(t, func(c *Config) {
		m := monitor.New(c.Store, monitor.Options{})
		c.KeysFile, c.Keys = "", keys
		c.Endpoints = append(MonitorEndpoints(m), MediaEndpoints(corpus)...)
		c.ProfileCount = m.Count
		c.Outbox = monitor.NewOutbox(c.Store).Stats
	})
	return f
}

// apiCase is one request and the status it must get.
type apiCase struct {
	name   string
	method string // "" is GET
	key    string
	path   string
	status int
	// valid marks a request the document must accept as well; error
	// cases send what it forbids on purpose.
	valid bool
	// before runs first (to use up a quota, say).
	before func(f *fixture)
}

func TestOpenAPIResponses(t *testing.T) {
	f := openAPIFixture(t)
	delta := f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	doc := loadDoc(t, f.ts.URL)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	q := url.QueryEscape
	cases := []apiCase{
		{name: "checkIndividual", key: keyBasic, path: "/v1/checkIndividual?names=" + q("John Smith") + "&fuzzy_search=1&citizenship=us", status: 200, valid: true},
		{name: "checkIndividual unknown parameter", key: keyBasic, path: "/v1/checkIndividual?names=Kim&colour=red", status: 200},
		{name: "checkEntity", key: keyBasic, path: "/v1/checkEntity?names=" + q("Acme Trading Limited Liability Company"), status: 200, valid: true},
		{name: "checkName every feature", key: keyFull, path: "/v1/checkName?search_all=" + q("Merkel"), status: 200, valid: true},
		{name: "checkName no hit", key: keyBasic, path: "/v1/checkName?names=Zzyzx", status: 200, valid: true},
		{name: "checkIndividual bad citizenship", key: keyBasic, path: "/v1/checkIndividual?names=Kim&citizenship=XYZ", status: 400},
		{name: "checkIndividual names and search_all", key: keyBasic, path: "/v1/checkIndividual?names=Kim&search_all=Kim", status: 400},
		{name: "checkIndividual names twice", key: keyBasic, path: "/v1/checkIndividual?names=Kim&names=Jong", status: 400},
		{name: "checkIndividual names too long", key: keyBasic, path: "/v1/checkIndividual?names=" + strings.Repeat("a", MaxTextChars+1), status: 400},
		{name: "checkName no key", path: "/v1/checkName?names=Kim", status: 401},
		{name: "checkName unknown key", key: "no-such-key", path: "/v1/checkName?names=Kim", status: 401},
		{name: "checkName disabled key", key: keyDisabled, path: "/v1/checkName?names=Kim", status: 403},
		{name: "checkName POST", method: http.MethodPost, key: keyBasic, path: "/v1/checkName?names=Kim", status: 405},
		{name: "checkName over quota", key: keyQuota, path: "/v1/checkName?names=Kim", status: 429, before: func(f *fixture) {
			for range 3 {
				f.get(keyQuota, "/v1/checkName?names=Kim")
			}
		}},
		{name: "generateIndividualReport", key: keyBasic, path: "/v1/generateIndividualReport?names=" + q("John Smith"), status: 200, valid: true},
		{name: "generateIndividualReport without names", key: keyBasic, path: "/v1/generateIndividualReport?dob=" + q("00/00/1952"), status: 400},
		{name: "generateEntityReport", key: keyBasic, path: "/v1/generateEntityReport?names=Acme&fuzzy_search=1", status: 200, valid: true},
		{name: "getSourceList", key: keyBasic, path: "/v1/getSourceList", status: 200, valid: true},
		{name: "getSourceList all", key: keyPicky, path: "/v1/getSourceList?scope=all", status: 200, valid: true},
		{name: "listSources", key: keyBasic, path: "/v1/listSources", status: 200, valid: true},
		{name: "listSources all", key: keyPicky, path: "/v1/listSources?scope=all", status: 200, valid: true},
		{name: "listSources disabled key", key: keyDisabled, path: "/v1/listSources", status: 403},
		{name: "getConsolidatedFile", key: keyFull, path: "/v1/getConsolidatedFile", status: 200, valid: true},
		{name: "getConsolidatedFile includes", key: keyBasic, path: "/v1/getConsolidatedFile?includes=un_sc", status: 200, valid: true},
		{name: "getConsolidatedFile unknown source", key: keyBasic, path: "/v1/getConsolidatedFile?includes=no_such_list", status: 400},
		{name: "getConsolidatedDelta", key: keyFull, path: "/v1/getConsolidatedDelta?previous=" + q(testVersion), status: 200, valid: true},
		{name: "getConsolidatedDelta current", key: keyBasic, path: "/v1/getConsolidatedDelta?previous=" + q(delta.Version), status: 200, valid: true},
		{name: "getConsolidatedDelta unknown previous", key: keyBasic, path: "/v1/getConsolidatedDelta?previous=nope", status: 400},
		{name: "getConsolidatedDelta without previous", key: keyBasic, path: "/v1/getConsolidatedDelta", status: 400},
		{name: "getConsolidatedFile over the daily limit", key: keyDownload, path: "/v1/getConsolidatedFile", status: 429, before: func(f *fixture) {
			f.get(keyDownload, "/v1/getConsolidatedFile")
		}},
		{name: "usage", key: keyQuota, path: "/v1/usage", status: 200, valid: true, before: func(f *fixture) {
			f.get(keyQuota, "/v1/registerIndividual?profile_id=counted&names=Kim")
		}},
		{name: "usage month", key: keyBasic, path: "/v1/usage?month=2026-10", status: 200, valid: true},
		{name: "usage bad month", key: keyBasic, path: "/v1/usage?month=2026-13", status: 400},
		{name: "usage unknown parameter", key: keyBasic, path: "/v1/usage?colour=red", status: 400},
		{name: "keys current", key: keyBasic, path: "/v1/keys/current", status: 200, valid: true},
		{name: "keys forbidden characters", key: keyBasic, path: "/v1/keys/a%21b", status: 400},
		{name: "keys unknown", key: keyBasic, path: "/v1/keys/no-such-kid", status: 404, valid: true},
		{name: "status", key: keyBasic, path: "/v1/status", status: 200, valid: true},
		{name: "getChangeDigest", key: keyFull, path: "/v1/getChangeDigest?since=" + q(testVersion) + "&limit=1&format=json", status: 200, valid: true},
		{name: "getChangeDigest last", key: keyBasic, path: "/v1/getChangeDigest?since=last", status: 200, valid: true},
		{name: "getChangeDigest bad since", key: keyBasic, path: "/v1/getChangeDigest?since=2026-13-01", status: 400},
		{name: "getChangeDigest unknown version", key: keyBasic, path: "/v1/getChangeDigest?since=nope", status: 400},
		{name: "registerIndividual", key: keyBasic, path: "/v1/registerIndividual?profile_id=p1&names=" + q("John Smith") + "&dob=" + q("00/00/1970") + "&gender=male&fuzzy_search=1", status: 200, valid: true},
		{name: "registerEntity", key: keyBasic, path: "/v1/registerEntity?profile_id=p2&names=Acme", status: 200, valid: true},
		{name: "registerIndividual without profile_id", key: keyBasic, path: "/v1/registerIndividual?names=Kim", status: 400},
		{name: "registerIndividual over the profile quota", key: keyQuota, path: "/v1/registerIndividual?profile_id=one-too-many&names=Kim", status: 429, before: func(f *fixture) {
			for i := range 5 {
				f.get(keyQuota, fmt.Sprintf("/v1/registerIndividual?profile_id=q%d&names=Kim", i))
			}
		}},
		{name: "removeSearchProfile", key: keyBasic, path: "/v1/removeSearchProfile?profile_id=p2", status: 200, valid: true},
		{name: "removeSearchProfile unknown", key: keyBasic, path: "/v1/removeSearchProfile?profile_id=never", status: 200, valid: true},
		{name: "testWebhookDelivery", key: keyWebhook, path: "/v1/testWebhookDelivery?profile_id=p9", status: 200, valid: true},
		{name: "testWebhookDelivery without webhook", key: keyBasic, path: "/v1/testWebhookDelivery?profile_id=p9", status: 400},
		{name: "media/checkIndividual", key: keyBasic, path: "/v1/media/checkIndividual?search_all=" + q("Ivan Petrov") + "&fetch_articles=true", status: 200, valid: true},
		{name: "media/checkEntity", key: keyBasic, path: "/v1/media/checkEntity?search_all=Acme", status: 200, valid: true},
		{name: "media/checkEntity without search_all", key: keyBasic, path: "/v1/media/checkEntity?fetch_articles=true", status: 400},
		{name: "media/search", key: keyBasic, path: "/v1/media/search?search_all=" + q("Ivan Petrov"), status: 200, valid: true},
		{name: "media/search bad cursor", key: keyBasic, path: "/v1/media/search?search_all=Ivan&cursor=nope", status: 400},
		{name: "healthz", path: "/healthz", status: 200, valid: true},
		{name: "healthz POST", method: http.MethodPost, path: "/healthz", status: 405},
		{name: "readyz", path: "/readyz", status: 200, valid: true},
		{name: "metrics", path: "/metrics", status: 200, valid: true},
		{name: "openapi.json", path: "/openapi.json", status: 200, valid: true},
	}
	seen := map[string]map[int]bool{}
	var answers []servedAnswer
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.before != nil {
				c.before(f)
			}
			a := f.checkAgainstDoc(router, c)
			answers = append(answers, a)
			if seen[a.route] == nil {
				seen[a.route] = map[int]bool{}
			}
			seen[a.route][c.status] = true
		})
	}
	// Readiness off: 503, as during a shutdown.
	f.srv.SetReady(false)
	answers = append(answers, f.checkAgainstDoc(router, apiCase{name: "readyz not ready", path: "/readyz", status: 503}))
	f.srv.SetReady(true)

	// A second, independent validator checks the same answers against the
	// document as served at /openapi.json, which is what clients read.
	validateServed(t, f, answers)

	// Every operation of the document was answered with a success.
	for path, item := range doc.Paths.Map() {
		if !seen[path][200] {
			t.Errorf("%s: no test case answered it with 200", path)
		}
		if item.Get == nil || len(item.Operations()) != 1 {
			t.Errorf("%s: the document must describe GET alone", path)
		}
	}
}

// servedAnswer is one answer of the server with the route it answered.
type servedAnswer struct {
	name        string
	route       string // path template of the document
	status      int
	contentType string
	body        []byte
}

// checkAgainstDoc sends c and validates the answer (and, for valid cases,
// the request) against the document; it returns the answer with the path
// template of its route.
func (f *fixture) checkAgainstDoc(router routers.Router, c apiCase) servedAnswer {
	t := f.t
	t.Helper()
	method := c.method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, f.ts.URL+c.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.key != "" {
		req.Header.Set("x-api-key", c.key)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != c.status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, c.path, resp.StatusCode, c.status, body)
	}
	// The route is looked up as GET: the document describes GET alone, and
	// a 405 is the GET operation's answer to another method.
	get := req.Clone(context.Background())
	get.Method = http.MethodGet
	route, params, err := router.FindRoute(get)
	if err != nil {
		t.Fatalf("%s: the document has no route: %v", c.path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: get, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if c.valid {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("%s: the document refuses a request the server answers: %v", c.path, err)
		}
	}
	if err := validateAnswer(in, resp, body); err != nil {
		t.Errorf("%s %s: answer %d does not match the document: %v\nbody: %.600s", method, c.path, resp.StatusCode, err, body)
	}
	return servedAnswer{name: c.name, route: route.Path, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: body}
}

// validateAnswer validates a response to the request of in against the
// document of its route.
func validateAnswer(in *openapi3filter.RequestValidationInput, resp *http.Response, body []byte) error {
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
}

// TestOpenAPIValidationBites makes sure the validation above can fail: a
// document that lacks an attribute the server sends, a header it always
// sends, or a status it answers is refused.
func TestOpenAPIValidationBites(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name, path string
		break_     func(doc *openapi3.T)
	}{
		{"record attribute", "/v1/checkName?names=" + url.QueryEscape("John Smith"), func(doc *openapi3.T) {
			delete(doc.Components.Schemas["AMLRecord"].Value.Properties, "citizenship")
		}},
		{"File-Version header", "/v1/getConsolidatedFile", func(doc *openapi3.T) {
			doc.Components.Headers["FileVersion"].Value.Schema.Value.Pattern = "^never$"
		}},
		{"status", "/v1/checkName?names=Kim&citizenship=XYZ", func(doc *openapi3.T) {
			doc.Paths.Value("/v1/checkName").Get.Responses.Delete("400")
		}},
		{"consolidated line", "/v1/getConsolidatedFile", func(doc *openapi3.T) {
			delete(doc.Components.Schemas["ConsolidatedRecord"].Value.Properties, "sourceId")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := loadDoc(t, f.ts.URL)
			tc.break_(doc)
			router, err := legacy.NewRouter(doc)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodGet, f.ts.URL+tc.path, nil)
			req.Header.Set("x-api-key", keyBasic)
			resp, err := testClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatal(err)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
			if err := validateAnswer(in, resp, body); err == nil {
				t.Errorf("the broken document accepted %s: %.300s", tc.path, body)
			}
		})
	}
}

// TestOpenAPIUnknownPath: an unknown path has no operation; its 404 is the
// document's Error.
func TestOpenAPIUnknownPath(t *testing.T) {
	f := newFixture(t)
	doc := loadDoc(t, "")
	a := f.get(keyBasic, "/v1/noSuchEndpoint")
	if a.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d", a.StatusCode)
	}
	visitSchema(t, doc, "Error", a.body)
}

// TestOpenAPIScoredRecords validates a scored-mode answer of the engine,
// records with match_score and match_reason, against CheckResponse, so
// that the document describes the engine's ScoreReason as it is.
func TestOpenAPIScoredRecords(t *testing.T) {
	f := newFixture(t)
	doc := loadDoc(t, "")
	res, err := f.db.Index().Search(query.Query{Kind: query.Any, Names: "John Smyth", Fuzzy: 2, Match: query.Scored, MinScore: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Reason == nil {
		t.Fatalf("no scored hit to validate: %+v", res)
	}
	visitSchema(t, doc, "CheckResponse", response.AppendCheck(nil, res, f.clock.Now(), record.WriteOptions{Case: record.Snake}))
}

// TestOpenAPIStoreStatusFull: the status of a store with every optional
// part (local sources, the screening index as amlscreen status shows it,
// a last sync) matches StoreStatus, so the document follows store.Status.
func TestOpenAPIStoreStatusFull(t *testing.T) {
	doc := loadDoc(t, "")
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	st := store.Status{
		Index: &store.IndexStatus{State: "stale", Version: "v1", Segments: 2, Bytes: 4096, Records: 10, Tombstones: 1, Reason: "store ahead"},
		Store: "aml.db", SizeBytes: 1 << 20, Version: "v2", AppliedAt: &at, Full: true, Records: 11,
		BySourceType: map[string]int{"SANCTION": 11}, ByEntityType: map[string]int{"INDIVIDUAL": 11},
		LocalSources: map[string]int{"my_list": 1}, DownloadsToday: 1, DownloadLimit: 50, Sources: 3,
		SourcesAt: &at, DeltasFrom: "v1", LastSync: &store.LastSync{Upstream: "https://example.com", Attempt: &at, Success: &at},
	}
	body, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	visitSchema(t, doc, "StoreStatus", body)
}

func visitSchema(t *testing.T, doc *openapi3.T, name string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	if err := doc.Components.Schemas[name].Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		t.Errorf("%s does not match %s: %v", body, name, err)
	}
}

// TestOpenAPIRoutesAndLimits holds the document's operations and
// parameters to the server's route table: the same paths, the same
// parameters per endpoint, and each parameter's maxLength the limit the
// server enforces.
func TestOpenAPIRoutesAndLimits(t *testing.T) {
	f := openAPIFixture(t)
	doc := loadDoc(t, "")
	ops := []string{"/healthz", "/readyz", "/metrics", "/openapi.json"}
	var served []string
	for path, ep := range f.srv.routes {
		if ep.Sub {
			path += "/{kid}"
		}
		served = append(served, path)
	}
	served = append(served, ops...)
	var documented []string
	for path := range doc.Paths.Map() {
		documented = append(documented, path)
	}
	slices.Sort(served)
	slices.Sort(documented)
	if !slices.Equal(served, documented) {
		t.Errorf("paths differ:\nserved     %v\ndocumented %v", served, documented)
	}
	for path, ep := range f.srv.routes {
		if ep.Sub {
			path += "/{kid}"
		}
		item := doc.Paths.Value(path)
		if item == nil || item.Get == nil {
			continue
		}
		var inQuery []string
		for _, p := range item.Get.Parameters {
			if p.Value.In != openapi3.ParameterInQuery {
				continue
			}
			name := p.Value.Name
			if !slices.Contains(ep.Params, name) {
				if !pendingParams[name] {
					t.Errorf("%s: the document has parameter %s, the server does not", path, name)
				}
				continue
			}
			inQuery = append(inQuery, name)
			limit, ok := paramLimits[name]
			if !ok {
				limit = MaxParamChars
			}
			// fetch_articles and fuzzy_search are typed; their text limit
			// is the general one and is not worth a maxLength.
			s := p.Value.Schema.Value
			if s.Type.Is("string") && (s.MaxLength == nil || *s.MaxLength != uint64(limit)) {
				t.Errorf("%s %s: maxLength %s, the server allows %d", path, name, maxLength(s), limit)
			}
		}
		slices.Sort(inQuery)
		want := slices.Sorted(slices.Values(ep.Params))
		if !slices.Equal(inQuery, want) {
			t.Errorf("%s: documented parameters %v, the server defines %v", path, inQuery, want)
		}
	}
}

// TestGeneratedClientChecksName screens a name with the client generated
// from the document (package api/client), over loopback.
func TestGeneratedClientChecksName(t *testing.T) {
	f := newFixture(t)
	withKey := func(key string) client.ClientOption {
		return client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("x-api-key", key)
			return nil
		})
	}
	c, err := client.NewClientWithResponses(f.ts.URL, withKey(keyBasic))
	if err != nil {
		t.Fatal(err)
	}
	names := "John Smith"
	resp, err := c.CheckNameWithResponse(context.Background(), &client.CheckNameParams{Names: &names})
	if err != nil {
		t.Fatal(err)
	}
	if resp.JSON200 == nil {
		t.Fatalf("status %d: %s", resp.StatusCode(), resp.Body)
	}
	var ids []string
	for _, r := range resp.JSON200.FoundRecords {
		ids = append(ids, r.Id)
	}
	if resp.JSON200.TotalHits != 1 || !slices.Equal(ids, []string{"AML011"}) {
		t.Errorf("total_hits %d, records %v; want 1, [AML011]", resp.JSON200.TotalHits, ids)
	}

	bad, err := client.NewClientWithResponses(f.ts.URL, withKey("no-such-key"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err = bad.CheckNameWithResponse(context.Background(), &client.CheckNameParams{Names: &names})
	if err != nil {
		t.Fatal(err)
	}
	if resp.JSON401 == nil || resp.JSON401.ErrorMessage != "invalid API key" {
		t.Errorf("unknown key: status %d, %s", resp.StatusCode(), resp.Body)
	}
}

func maxLength(s *openapi3.Schema) string {
	if s.MaxLength == nil {
		return "none"
	}
	return fmt.Sprint(*s.MaxLength)
}
