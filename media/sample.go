package media

//go:generate go run ../cmd/amlscreen media gen --articles 4000 --seed 1 --out sample/articles.jsonl.gz

import (
	"bytes"
	_ "embed"
	"fmt"
)

// sampleFile is the sample corpus built into the binary: about 4,000
// generated articles in English, German, French, Spanish and Russian that
// mention names of the embedded AML sample (sampledata) and many clean
// names. It is made by package internal/mediagen; regenerate it with
// `go generate ./media` after changing the generator.
//
//go:embed sample/articles.jsonl.gz
var sampleFile []byte

// Sample returns the embedded sample corpus, indexed in memory, so that
// media checks can be tried without importing anything. Each call builds a
// fresh corpus the caller owns.
func Sample(opts Options) (*Corpus, error) {
	c := New(opts)
	if _, err := c.Import(bytes.NewReader(sampleFile)); err != nil {
		return nil, fmt.Errorf("embedded sample corpus: %w", err)
	}
	return c, nil
}

// SampleFile returns the embedded sample corpus as gzip JSON Lines, the
// import format, so that it can be imported into a store.
func SampleFile() []byte { return bytes.Clone(sampleFile) }
