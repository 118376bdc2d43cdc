// Package sampledata is the sample consolidated database built into the
// amlscreen binary, so that every command can be tried without a download
// or a store: about 5,000 generated records across all source and entity
// types (see internal/gen), with their source catalogue.
//
// The files are generated, committed and embedded. To regenerate them after
// a change to the generator, run `go generate ./sampledata`; the output
// depends only on the flags below, so an unchanged generator gives
// identical files.
package sampledata

//go:generate go run ../cmd/amlscreen gen --records 5000 --seed 1 --out default.jsonl.gz --sources sources.json

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/amlscreen/amlscreen/record"
)

// Version is the File-Version of the embedded data, in the form our
// File-Version takes (RFC 3339 UTC time ~ sequence number). Change it
// whenever the files are regenerated with different content, so that a
// replica syncing from the sample sees new data.
const Version = "2026-11-01T00:00:00Z~1"

// Is reports whether a database at the File-Version version is the
// embedded sample. The version travels with the records into every store
// the sample is imported into and every index opened on it, so this is
// the one test every output applies (reports, tables, the workbench, API
// answers) to say that a result screens generated records, not the lists.
func Is(version string) bool { return version == Version }

// Mark is what outputs made from the embedded sample say on every page,
// table or answer.
const Mark = "SAMPLE DATA — not a screening"

var (
	//go:embed default.jsonl.gz
	defaultFile []byte
	//go:embed sources.json
	sourcesFile []byte
)

// Records decodes the embedded consolidated file. Each call decodes afresh
// and returns records the caller owns.
func Records() ([]*record.Record, error) {
	recs, err := record.ReadAll(bytes.NewReader(defaultFile))
	if err != nil {
		return nil, fmt.Errorf("embedded sample data: %w", err)
	}
	return recs, nil
}

// Sources returns the embedded source catalogue, with each source's size
// counted in the embedded records.
func Sources() ([]record.Source, error) {
	var out []record.Source
	if err := json.Unmarshal(sourcesFile, &out); err != nil {
		return nil, fmt.Errorf("embedded source catalogue: %w", err)
	}
	return out, nil
}
