// Package api holds the OpenAPI 3.1 document of the local API
// (openapi.yaml), so that integrators can generate clients from it and
// the server can publish it at /openapi.json. The document is written by
// hand from the server as built; a test of package server validates real
// answers of every endpoint against it, so the two cannot drift apart.
package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

// YAML is the document as written, OpenAPI 3.1 in YAML.
//
//go:embed openapi.yaml
var YAML []byte

// JSON returns the document converted to JSON, as /openapi.json serves
// it. The conversion runs once; every caller shares the result and must
// not change it.
func JSON() ([]byte, error) { return jsonDoc() }

var jsonDoc = sync.OnceValues(func() ([]byte, error) {
	b, err := toJSON(YAML)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return b, nil
})

// toJSON converts a YAML document to JSON, keeping the order of mapping
// keys. It reads YAML 1.2, as OpenAPI 3.1 requires: a YAML 1.1 reader
// takes keys such as y, n, on or off for booleans, and the JWK schema's y
// would become "true". A key that is not a string is an error, since JSON
// has no other kind.
func toJSON(doc []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if len(root.Content) == 0 {
		buf.WriteString("null")
		return buf.Bytes(), nil
	}
	if err := writeNode(&buf, root.Content[0], 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxDepth bounds the nesting writeNode follows, so that an alias cycle
// ends in an error.
const maxDepth = 200

func writeNode(buf *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("line %d: nested deeper than %d levels", n.Line, maxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return writeNode(buf, n.Content[0], depth+1)
	case yaml.AliasNode:
		return writeNode(buf, n.Alias, depth+1)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return fmt.Errorf("line %d: key %q is not a string (%s)", k.Line, k.Value, k.ShortTag())
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k.Value)
			buf.Write(kb)
			buf.WriteByte(':')
			if err := writeNode(buf, v, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, v := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeNode(buf, v, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		// JSON has no timestamps: one stays the text it was written as.
		var v any
		if tag := n.ShortTag(); tag == "!!str" || tag == "!!timestamp" {
			v = n.Value
		} else if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: value %q: %w", n.Line, n.Value, err)
		}
		buf.Write(b)
		return nil
	}
	return fmt.Errorf("line %d: unknown YAML node kind %d", n.Line, n.Kind)
}
