package api

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestToJSONReadsYAML12: keys and values a YAML 1.1 reader takes for
// booleans stay strings, key order is kept, and numbers, booleans, null
// and aliases convert as JSON has them.
func TestToJSONReadsYAML12(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"JWK keys", "x: a\ny: b\n", `{"x":"a","y":"b"}`},
		{"YAML 1.1 words as keys", "n: 1\nno: 2\non: 3\noff: 4\nyes: 5\nY: 6\n", `{"n":1,"no":2,"on":3,"off":4,"yes":5,"Y":6}`},
		{"YAML 1.1 words as values", "a: [y, n, yes, no, on, off]\n", `{"a":["y","n","yes","no","on","off"]}`},
		{"order kept", "zeta: 1\nalpha: 2\nmid: 3\n", `{"zeta":1,"alpha":2,"mid":3}`},
		{"scalars", "i: 43\nf: 1.5\nb: true\nnull_: null\ns: '43'\nd: 2026-11-01\n", `{"i":43,"f":1.5,"b":true,"null_":null,"s":"43","d":"2026-11-01"}`},
		{"alias", "a: &x {k: v}\nb: *x\n", `{"a":{"k":"v"},"b":{"k":"v"}}`},
		{"quoting", "\"a\\\"b\": \"<&>\"\n", `{"a\"b":"\u003c\u0026\u003e"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toJSON([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("not JSON: %s", got)
			}
		})
	}
	for _, in := range []string{"1: a\n", "[a]: b\n", "a: [\n"} {
		if got, err := toJSON([]byte(in)); err == nil {
			t.Errorf("%q: got %s, want an error", in, got)
		}
	}
}

// TestJSONIsTheDocument: the embedded document converts, and keeps the
// JWK's y as a property and a required name.
func TestJSONIsTheDocument(t *testing.T) {
	b, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	jwk := doc.Components.Schemas["JWK"]
	if _, ok := jwk.Properties["y"]; !ok || !slices.Contains(jwk.Required, "y") {
		t.Errorf("JWK lost y: required %v", jwk.Required)
	}
}
