package syncer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// readBoth reads input with record.Reader and with recordStream and
// returns what each saw: one line per record, then the final error.
func readBoth(t *testing.T, input []byte) (want, got []string) {
	t.Helper()
	show := func(r *record.Record) string { return string(r.Append(nil, record.WriteOptions{Case: record.Camel})) }
	end := func(err error) string {
		if errors.Is(err, io.EOF) {
			return "EOF"
		}
		var le *record.LineError
		if errors.As(err, &le) {
			return fmt.Sprintf("LineError line=%d field=%q: %v", le.Line, le.Field, err)
		}
		return "error: " + err.Error()
	}
	rd, err := record.NewReader(bytes.NewReader(input))
	if err != nil {
		want = append(want, "open: "+err.Error())
	} else {
		for {
			r, err := rd.Record()
			if err != nil {
				want = append(want, end(err))
				break
			}
			want = append(want, show(r))
		}
	}
	rs, err := newRecordStream(bytes.NewReader(input))
	if err != nil {
		return want, append(got, "open: "+err.Error())
	}
	defer rs.Close()
	for {
		r, err := rs.Next()
		if err != nil {
			got = append(got, end(err))
			break
		}
		got = append(got, show(r))
	}
	// After the end, Next keeps saying so.
	if _, err := rs.Next(); err == nil {
		t.Error("Next returned a record after the end")
	}
	return want, got
}

func sameReading(t *testing.T, name string, input []byte) {
	t.Helper()
	want, got := readBoth(t, input)
	if len(want) != len(got) {
		t.Fatalf("%s: record.Reader saw %d items, recordStream %d\nwant last %q\n got last %q", name, len(want), len(got), want[len(want)-1], got[len(got)-1])
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("%s: item %d differs:\nwant %s\n got %s", name, i, want[i], got[i])
		}
	}
}

func generatedFile(n int) []byte {
	var buf []byte
	for i := range n {
		buf = append(genRecord(i).Append(buf, record.WriteOptions{Case: record.Camel}), '\n')
	}
	return buf
}

func TestRecordStreamReadsLikeRecordReader(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		sameReading(t, f, b)
		sameReading(t, f+" gzip", gzipped(b))
	}
	big := generatedFile(900) // four batches
	bigGz := gzipped(big)
	long := `{"id":"LONG","name":"` + strings.Repeat("x", 600<<10) + `"}`
	cases := map[string][]byte{
		"empty":               nil,
		"only blank lines":    []byte("\n \n\t\n"),
		"no final newline":    []byte(`{"id":"A"}` + "\n" + `{"id":"B"}`),
		"crlf":                []byte("{\"id\":\"A\"}\r\n{\"id\":\"B\"}\r\n"),
		"line over buffer":    []byte(`{"id":"A"}` + "\n" + long + "\n" + `{"id":"B"}` + "\n"),
		"generated":           big,
		"generated gzip":      bigGz,
		"bad gzip header":     {0x1f, 0x8b, 0, 0, 0},
		"truncated gzip":      bigGz[:len(bigGz)/2],
		"wrong type":          []byte(`{"id":"A","aliasNames":7}`),
		"pep level too high":  []byte(`{"id":"A","pepLevel":9}`),
		"not an object":       []byte(`["id"]`),
		"bad line in batch 3": append(append(append([]byte(nil), big[:bytes.Index(big, []byte("G00000700"))]...), "{oops\n"...), big...),
	}
	for name, b := range cases {
		sameReading(t, name, b)
	}
	// Random damage anywhere in a multi-batch file.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 20 {
		b := append([]byte(nil), big...)
		for range 1 + rng.IntN(3) {
			b[rng.IntN(len(b))] = "{}\":,\n x"[rng.IntN(8)]
		}
		sameReading(t, fmt.Sprintf("damaged %d", i), b)
	}
}

func TestRecordStreamCloseEarly(t *testing.T) {
	rs, err := newRecordStream(bytes.NewReader(generatedFile(5000)))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := rs.Next(); err != nil {
			t.Fatal(err)
		}
	}
	rs.Close() // must not hang with batches in flight
	rs.Close()
	if _, err := rs.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after Close: %v", err)
	}
}
