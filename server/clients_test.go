package server

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sign"
)

// updateClients rewrites the bodies of testdata/clients from the server's
// answers: go test ./server -run TestClientShapes -update-clients. Review
// the diff before committing it; the fixtures are what real clients read.
var updateClients = flag.Bool("update-clients", false, "rewrite testdata/clients from the server's answers")

// clientShape is one fixture of testdata/clients: a request a real client
// of the service makes and the answer it relies on.
type clientShape struct {
	// About says which client relies on the answer and how.
	About string `json:"about"`
	// Key names a key of testdata/keys.json by its name.
	Key    string `json:"key"`
	Path   string `json:"path"`
	Status int    `json:"status"`
	// Body is the answer, compared as JSON.
	Body json.RawMessage `json:"body"`
	// Absent are object keys that must appear nowhere in the body.
	Absent []string `json:"absent,omitempty"`
}

// keyByName is the secret of each key of testdata/keys.json by its name.
var keyByName = map[string]string{"basic": keyBasic, "full": keyFull, "quota": keyQuota, "disabled": keyDisabled, "picky": keyPicky}

// TestClientShapes replays the requests of testdata/clients, the shapes
// real clients of the service were found to rely on (the listSources
// envelope, a 400 for an unknown previous version, a default key's
// records without the experimental and beta attributes), and compares the
// answers with the fixtures.
func TestClientShapes(t *testing.T) {
	files, err := filepath.Glob("testdata/clients/*.json")
	if err != nil || len(files) < 3 {
		t.Fatalf("fixtures %v: %v", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c clientShape
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			key, ok := keyByName[c.Key]
			if !ok {
				t.Fatalf("%s: no key named %q", file, c.Key)
			}
			f := newFixture(t)
			a := f.get(key, c.Path)
			if a.StatusCode != c.Status {
				t.Fatalf("%s: status %d, want %d: %s", c.Path, a.StatusCode, c.Status, a.body)
			}
			for _, k := range c.Absent {
				if hasKey(t, a.body, k) {
					t.Errorf("%s: the answer has %q: %s", c.Path, k, a.body)
				}
			}
			if *updateClients {
				var out bytes.Buffer
				json.Indent(&out, a.body, "", "  ")
				c.Body = out.Bytes()
				b, err := json.MarshalIndent(c, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !sameJSON(t, a.body, c.Body) {
				t.Errorf("%s: answer differs from %s:\n got %s\nwant %s", c.Path, file, a.body, c.Body)
			}
		})
	}
}

// hasKey reports whether an object anywhere in the JSON body has key.
func hasKey(t *testing.T, body []byte, key string) bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v[key]; ok {
				return true
			}
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		case []any:
			return slices.ContainsFunc(v, walk)
		}
		return false
	}
	return walk(v)
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// TestDefaultKeyOmitsFeatureAttributes: a key without features gets no
// source_country or pep_level on records that have them; a key whose
// features turn them on (testdata/keys.json) does, so the fixture's
// absence means something.
func TestDefaultKeyOmitsFeatureAttributes(t *testing.T) {
	f := newFixture(t)
	path := "/v1/checkIndividual?names=Angela%20Merkel"
	for key, want := range map[string]bool{keyBasic: false, keyFull: true} {
		a := f.get(key, path)
		if a.StatusCode != 200 || !strings.Contains(string(a.body), "AML004") {
			t.Fatalf("%s: %d %s", key, a.StatusCode, a.body)
		}
		for _, attr := range []string{"source_country", "pep_level"} {
			if got := hasKey(t, a.body, attr); got != want {
				t.Errorf("key %s: %s present %v, want %v: %s", key, attr, got, want, a.body)
			}
		}
	}
}

// TestListSourcesAlias: listSources answers getSourceList's list for
// every key and scope in {"sources": [...]}, signed over its own body,
// with the same refusals, free and counted under its own path.
func TestListSourcesAlias(t *testing.T) {
	f := newFixture(t)
	for _, key := range []string{keyBasic, keyFull, keyPicky} {
		for _, q := range []string{"", "?scope=all"} {
			want, _ := f.sources(key, "/v1/getSourceList"+q)
			a := f.get(key, "/v1/listSources"+q)
			if a.StatusCode != 200 {
				t.Fatalf("listSources%s: %d %s", q, a.StatusCode, a.body)
			}
			var env struct {
				Sources []record.Source `json:"sources"`
			}
			dec := json.NewDecoder(bytes.NewReader(a.body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&env); err != nil {
				t.Fatalf("listSources%s: %v: %s", q, err, a.body)
			}
			if got := summary(env.Sources); got != summary(want) || len(want) == 0 {
				t.Errorf("key %s listSources%s:\n got %s\nwant %s", key, q, got, summary(want))
			}
		}
	}
	a := f.get(keyBasic, "/v1/listSources")
	header := a.Header.Get(sign.HeaderName)
	verifier := sign.NewVerifier(sign.HTTPFetcher(f.ts.URL, keyBasic, nil), time.Nanosecond)
	if err := verifier.Verify(context.Background(), a.body, header); err != nil {
		t.Fatalf("listSources signature: %v (%q)", err, header)
	}
	tampered := bytes.Replace(a.body, []byte(`"sources"`), []byte(`"Sources"`), 1)
	if err := verifier.Verify(context.Background(), tampered, header); err == nil {
		t.Error("the signature verifies a changed body")
	}
	f.get("", "/v1/listSources").errorMessage(t, 401)
	f.get(keyDisabled, "/v1/listSources").errorMessage(t, 403)
	if w := f.get(keyBasic, "/v1/listSources?colour=red").Header.Get("Warning"); !strings.Contains(w, "colour") {
		t.Errorf("unknown parameter not warned about: %q", w)
	}
	// Free: a key whose monthly quota is used up still lists sources.
	for range 3 {
		f.get(keyQuota, "/v1/checkName?names=Kim")
	}
	f.get(keyQuota, "/v1/checkName?names=Kim").errorMessage(t, 429)
	if a := f.get(keyQuota, "/v1/listSources"); a.StatusCode != 200 {
		t.Errorf("listSources over the billed quota: %d %s", a.StatusCode, a.body)
	}
	u := f.get(keyQuota, "/v1/usage")
	if !strings.Contains(string(u.body), `"path":"/v1/listSources","monthly_used":1`) || !strings.Contains(string(u.body), `"billed_requests_monthly_used":3`) {
		t.Errorf("usage: %s", u.body)
	}
}
