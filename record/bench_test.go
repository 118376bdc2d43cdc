package record

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReadAll reads consolidated lines shaped like real list records
// (the two of testdata/camel.jsonl, repeated): the parsing and checking
// every import, sync and --data load pays per line.
//
//	go test ./record -run '^$' -bench ReadAll -count 6
func BenchmarkReadAll(b *testing.B) {
	one, err := os.ReadFile("testdata/camel.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat(one, 500)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		recs, err := ReadAll(bytes.NewReader(data))
		if err != nil || len(recs) != 1000 {
			b.Fatalf("%d records, %v", len(recs), err)
		}
	}
}
