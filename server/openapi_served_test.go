package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/amlscreen/amlscreen/api"
)

// The tests of openapi_test.go validate answers with kin-openapi against
// the YAML as written. These validate them again against the document as
// served at /openapi.json, the one clients generate types from, with a
// JSON Schema validator of its own (santhosh-tekuri/jsonschema), so that a
// fault of the YAML-to-JSON conversion or of one validator shows.

// servedDocURL names the served document inside the schema compiler.
const servedDocURL = "https://amlscreen.invalid/openapi.json"

// servedDoc fetches /openapi.json from f's server.
func servedDoc(t *testing.T, f *fixture) []byte {
	t.Helper()
	resp, err := testClient.Get(f.ts.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/openapi.json: %d %v", resp.StatusCode, err)
	}
	return body
}

// docValidator validates answers against one served document.
type docValidator struct {
	doc      map[string]any
	compiler *jsonschema.Compiler
}

func newDocValidator(served []byte) (*docValidator, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(served))
	if err != nil {
		return nil, fmt.Errorf("the served document is not JSON: %w", err)
	}
	doc, ok := inst.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the served document is not an object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(servedDocURL, inst); err != nil {
		return nil, err
	}
	return &docValidator{doc: doc, compiler: c}, nil
}

// pointerPart escapes one JSON Pointer reference token.
func pointerPart(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// response returns the response object the document gives route and
// status, following a $ref to components, with its JSON Pointer.
func (v *docValidator) response(route string, status int) (map[string]any, string, error) {
	get, _ := dig(v.doc, "paths", route, "get").(map[string]any)
	if get == nil {
		return nil, "", fmt.Errorf("no GET operation for %s", route)
	}
	code := strconv.Itoa(status)
	resp, _ := dig(get, "responses", code).(map[string]any)
	ptr := "/paths/" + pointerPart(route) + "/get/responses/" + code
	if resp == nil {
		if resp, _ = dig(get, "responses", "default").(map[string]any); resp == nil {
			return nil, "", fmt.Errorf("%s: no response for status %d", route, status)
		}
		ptr = "/paths/" + pointerPart(route) + "/get/responses/default"
	}
	if ref, ok := resp["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/components/responses/")
		if !ok {
			return nil, "", fmt.Errorf("%s %d: $ref %s outside components/responses", route, status, ref)
		}
		resp, _ = dig(v.doc, "components", "responses", name).(map[string]any)
		if resp == nil {
			return nil, "", fmt.Errorf("%s %d: $ref %s leads nowhere", route, status, ref)
		}
		ptr = "/components/responses/" + pointerPart(name)
	}
	return resp, ptr, nil
}

// validate checks one answer's body against the schema of its media type.
func (v *docValidator) validate(a servedAnswer) error {
	resp, ptr, err := v.response(a.route, a.status)
	if err != nil {
		return err
	}
	media, _, err := mime.ParseMediaType(a.contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", a.contentType, err)
	}
	content, _ := resp["content"].(map[string]any)
	if _, ok := content[media]; !ok {
		return fmt.Errorf("the document gives status %d no content of type %s", a.status, media)
	}
	if _, ok := dig(content, media, "schema").(map[string]any); !ok {
		return fmt.Errorf("the document gives %s of status %d no schema", media, a.status)
	}
	sch, err := v.compiler.Compile(servedDocURL + "#" + ptr + "/content/" + pointerPart(media) + "/schema")
	if err != nil {
		return fmt.Errorf("compile the schema: %w", err)
	}
	inst, err := decodeAnswer(media, a.body)
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// decodeAnswer reads a body as the value its schema describes: JSON, an
// array of the lines of JSON Lines, or the text itself.
func decodeAnswer(media string, body []byte) (any, error) {
	switch {
	case media == "application/json":
		return jsonschema.UnmarshalJSON(bytes.NewReader(body))
	case media == jsonLines:
		out := []any{}
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
			}
			out = append(out, v)
		}
		return out, sc.Err()
	case strings.HasPrefix(media, "text/") || media == "application/openmetrics-text":
		return string(body), nil
	}
	return nil, fmt.Errorf("no reader for %s", media)
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// validateServed validates every answer against the document f serves.
func validateServed(t *testing.T, f *fixture, answers []servedAnswer) {
	t.Helper()
	v, err := newDocValidator(servedDoc(t, f))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range answers {
		if err := v.validate(a); err != nil {
			t.Errorf("%s (%s %d): the served document refuses the answer: %v\nbody: %.400s", a.name, a.route, a.status, err, a.body)
		}
	}
}

// TestServedDocKeepsTheYAMLKeys: /openapi.json is the YAML document with
// every mapping key as written, in the same order, none renamed (a YAML
// 1.1 reader turned the JWK's y into true).
func TestServedDocKeepsTheYAMLKeys(t *testing.T) {
	f := newFixture(t)
	served := servedDoc(t, f)
	want, err := yamlKeyPaths(api.YAML)
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsonKeyPaths(served)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 1000 {
		t.Fatalf("only %d keys read from openapi.yaml", len(want))
	}
	for i := range max(len(want), len(got)) {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			w, g := "(end)", "(end)"
			if i < len(want) {
				w = want[i]
			}
			if i < len(got) {
				g = got[i]
			}
			t.Fatalf("key %d: the YAML has %s, /openapi.json %s", i, w, g)
		}
	}
	if !strings.Contains(strings.Join(got, "\n"), "/components/schemas/JWK/properties/y\n") {
		t.Error("/openapi.json has no JWK property y")
	}
}

// TestServedDocValidationBites: the second validator refuses an answer
// the served document does not describe, so that validateServed can fail.
func TestServedDocValidationBites(t *testing.T) {
	f := newFixture(t)
	served := servedDoc(t, f)
	// The document as a YAML 1.1 reader converted it: the JWK's y renamed.
	broken := bytes.Replace(served, []byte(`"y":{`), []byte(`"true":{`), 1)
	broken = bytes.Replace(broken, []byte(`"x","y"`), []byte(`"x","true"`), 1)
	if bytes.Equal(broken, served) {
		t.Fatal("the JWK schema has no y to break")
	}
	jwk := f.get(keyBasic, "/v1/keys/current")
	if jwk.StatusCode != http.StatusOK {
		t.Fatalf("keys/current: %d %s", jwk.StatusCode, jwk.body)
	}
	a := servedAnswer{name: "keys current", route: "/v1/keys/{kid}", status: 200, contentType: jwk.Header.Get("Content-Type"), body: jwk.body}
	good, err := newDocValidator(served)
	if err != nil {
		t.Fatal(err)
	}
	if err := good.validate(a); err != nil {
		t.Fatalf("the served document refuses keys/current: %v", err)
	}
	bad, err := newDocValidator(broken)
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.validate(a); err == nil {
		t.Errorf("a document without y accepted %s", jwk.body)
	}
	// A status the document does not list.
	if err := good.validate(servedAnswer{route: "/v1/getSourceList", status: 418, contentType: "application/json", body: []byte(`{}`)}); err == nil {
		t.Error("a status the document lacks was accepted")
	}
	// A body of the wrong shape.
	if err := good.validate(servedAnswer{route: "/v1/getSourceList", status: 200, contentType: "application/json", body: []byte(`{"sources":[]}`)}); err == nil {
		t.Error("an object was accepted where the document has an array")
	}
}

// yamlKeyPaths lists every mapping key of a YAML document as a JSON
// Pointer, in document order, as the YAML's author wrote them: plain
// strings, never read as booleans or numbers.
func yamlKeyPaths(doc []byte) ([]string, error) {
	var out []string
	var walk func(n *yaml.Node, at string)
	walk = func(n *yaml.Node, at string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, at)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := at + "/" + pointerPart(n.Content[i].Value)
				out = append(out, p)
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, at+"/"+strconv.Itoa(i))
			}
		}
	}
	// A second YAML 1.2 reader (the one kin-openapi uses), not api's.
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	walk(&root, "")
	return out, nil
}

// jsonKeyPaths lists every object key of a JSON document as a JSON
// Pointer, in document order.
func jsonKeyPaths(doc []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var out []string
	var value func(at string) error
	value = func(at string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				p := at + "/" + pointerPart(k.(string))
				out = append(out, p)
				if err := value(p); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := value(at + "/" + strconv.Itoa(i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	return out, value("")
}
