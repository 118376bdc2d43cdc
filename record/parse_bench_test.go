package record_test

import (
	"bytes"
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// generatedLines returns the consolidated lines (camelCase, without their
// newlines) of n generated records of seed, as `amlscreen gen` writes them.
func generatedLines(tb testing.TB, n int, seed int64) [][]byte {
	tb.Helper()
	var buf bytes.Buffer
	if _, err := gen.WriteCounts(&buf, n, seed); err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != n {
		tb.Fatalf("%d lines, want %d", len(lines), n)
	}
	return lines
}

// BenchmarkParseRecordLine parses 1,000 generated consolidated lines per
// iteration: the decoding and checking an import pays for every line.
//
//	go test ./record -run '^$' -bench ParseRecordLine -count 6
func BenchmarkParseRecordLine(b *testing.B) {
	lines := generatedLines(b, 1000, 1)
	var size int64
	for _, l := range lines {
		size += int64(len(l))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for i, l := range lines {
			if _, err := record.ParseRecordLine(l, i+1); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkChangeLine reads 1,000 delta lines as the store's change log
// writes them (UPDATE of a generated record) per iteration: what a change
// set's apply and every change digest pay for each line.
//
//	go test ./record -run '^$' -bench ChangeLine -count 6
func BenchmarkChangeLine(b *testing.B) {
	lines := generatedLines(b, 1000, 1)
	changes := make([][]byte, len(lines))
	var size int64
	for i, l := range lines {
		r, err := record.ParseRecordLine(l, i+1)
		if err != nil {
			b.Fatal(err)
		}
		c := record.Change{Type: record.ChangeUpdate, Record: *r}
		changes[i] = c.Append(nil)
		size += int64(len(changes[i]))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range changes {
			var c record.Change
			if err := c.UnmarshalJSON(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
