// Package api holds the OpenAPI 3.1 document of the local API
// (openapi.yaml), so that integrators can generate clients from it and
// the server can publish it at /openapi.json. The document is written by
// hand from the server as built; a test of package server validates real
// answers of every endpoint against it, so the two cannot drift apart.
package api

import (
	_ "embed"
	"fmt"
	"sync"

	"sigs.k8s.io/yaml"
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
	b, err := yaml.YAMLToJSON(YAML)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return b, nil
})
