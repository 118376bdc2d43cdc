package media

//go:generate go run ../cmd/amlscreen media gen --articles 4000 --seed 1 --out sample/articles.jsonl.gz

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
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
	if _, err := c.ImportSample(); err != nil {
		return nil, err
	}
	return c, nil
}

// ImportSample upserts the embedded sample corpus, as Import of
// SampleFile does. With the default lexicon the articles are analysed once
// per process: serve --demo and import --sample would otherwise tokenise
// and compress the same 4,000 articles on every call.
func (c *Corpus) ImportSample() (*ImportStats, error) {
	if c.lex != DefaultLexicon() {
		st, err := c.Import(bytes.NewReader(sampleFile))
		if err != nil {
			return nil, fmt.Errorf("embedded sample corpus: %w", err)
		}
		return st, nil
	}
	arts, err := sampleAnalysis()
	if err != nil {
		return nil, err
	}
	chunks := make(chan chunk, 1)
	chunks <- chunk{arts: arts}
	close(chunks)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.commit(c.newBatch(), chunks)
}

// sampleAnalysis is the embedded sample analysed with the default lexicon,
// each article's import line compressed as a store keeps it. Imports only
// read it: a batch copies terms and positions and never changes an
// Article.
var sampleAnalysis = sync.OnceValues(func() ([]*analyzed, error) {
	rd, err := NewReader(bytes.NewReader(sampleFile))
	if err != nil {
		return nil, fmt.Errorf("embedded sample corpus: %w", err)
	}
	c := New(Options{})
	chunks, stop := c.analyzeAll(func() (*Article, error) { return rd.Next() })
	defer stop()
	var arts []*analyzed
	for ch := range chunks {
		arts = append(arts, ch.arts...)
		if ch.err != nil {
			return nil, fmt.Errorf("embedded sample corpus: %w", ch.err)
		}
	}
	for _, an := range arts {
		line := an.a.AppendLine(nil)
		an.blob = codec().enc.EncodeAll(line, make([]byte, 0, len(line)/2))
	}
	return arts, nil
})

// SampleFile returns the embedded sample corpus as gzip JSON Lines, the
// import format, so that it can be imported into a store.
func SampleFile() []byte { return bytes.Clone(sampleFile) }
