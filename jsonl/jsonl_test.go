package jsonl

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func lines(t *testing.T, r io.Reader, max int) ([]string, []int, error) {
	t.Helper()
	rd, err := NewReader(r, max)
	if err != nil {
		return nil, nil, err
	}
	defer rd.Close()
	var out []string
	var nums []int
	for {
		b, err := rd.Next()
		if err == io.EOF {
			return out, nums, nil
		}
		if err != nil {
			return out, nums, err
		}
		out = append(out, string(b))
		nums = append(nums, rd.Line())
	}
}

func TestReaderSkipsBlankLinesAndCounts(t *testing.T) {
	got, nums, err := lines(t, strings.NewReader("a\n\n  \n b \nc"), 0)
	if err != nil || strings.Join(got, ",") != "a,b,c" || nums[1] != 4 || nums[2] != 5 {
		t.Errorf("got %q at %v, %v", got, nums, err)
	}
}

func TestReaderGzipAndLongLines(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("x\n" + strings.Repeat("y", 600000) + "\n"))
	zw.Close()
	got, _, err := lines(t, bytes.NewReader(buf.Bytes()), 0)
	if err != nil || len(got) != 2 || len(got[1]) != 600000 {
		t.Fatalf("gzip: %d lines, %v", len(got), err)
	}
	_, _, err = lines(t, bytes.NewReader(buf.Bytes()), 1000)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("max line: got %v, want a LineError on line 2", err)
	}
}

func TestAppendStringRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", "<p>a & b</p>", "q\"uote\\", "tab\tnl\n\x01", "\u2028\u2029", "Путин 中国", "bad\xffutf8"} {
		b := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q: %s does not parse: %v", s, b, err)
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if back != want {
			t.Errorf("%q: round trip gave %q", s, back)
		}
		if strings.Contains(s, "<p>") && !bytes.Contains(b, []byte("<p>")) {
			t.Errorf("%q: HTML escaped: %s", s, b)
		}
	}
}

// TestReaderSkipsByteOrderMark: a UTF-8 BOM at the start (plain or inside
// gzip) is not part of the first line; one later in the input is data.
func TestReaderSkipsByteOrderMark(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("\ufeffa\nb\n"))
	zw.Close()
	for name, in := range map[string][]byte{"plain": []byte("\ufeffa\n\ufeffb\n"), "gzip": buf.Bytes()} {
		got, _, err := lines(t, bytes.NewReader(in), 0)
		if err != nil || len(got) != 2 || got[0] != "a" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
		if name == "plain" && got[1] != "\ufeffb" {
			t.Errorf("a BOM inside the input was dropped: %q", got[1])
		}
	}
}
