package record_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert"
	"github.com/amlscreen/amlscreen/record"
)

// sameAsGeneral checks the contract of the fast path on one line: when it
// reads the line, the general decoder reads it too, into the same Record,
// and UnmarshalJSON returns that Record. It reports whether the fast path
// read the line.
func sameAsGeneral(t *testing.T, line []byte) bool {
	t.Helper()
	fast, ok := record.DecodeFast(line)
	general, err := record.DecodeGeneral(line)
	var got record.Record
	uerr := got.UnmarshalJSON(line)
	if (uerr == nil) != (err == nil) || err != nil && uerr.Error() != err.Error() {
		t.Fatalf("UnmarshalJSON says %v, the general decoder %v, on %.300q", uerr, err, line)
	}
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path read a line the general decoder refuses (%v): %.300q", err, line)
	}
	if !reflect.DeepEqual(fast, general) {
		t.Fatalf("fast path read %.300q as\n%+v\nthe general decoder as\n%+v", line, fast, general)
	}
	if !reflect.DeepEqual(got, general) {
		t.Fatalf("UnmarshalJSON read %.300q as\n%+v\nwant\n%+v", line, got, general)
	}
	return true
}

// corpusCount tallies how many lines of a corpus the fast path read.
type corpusCount struct{ lines, fast int }

func (c *corpusCount) add(t *testing.T, line []byte) {
	t.Helper()
	c.lines++
	if sameAsGeneral(t, line) {
		c.fast++
	}
}

// atLeast fails t unless the fast path read at least share of the lines,
// so that a fast path that silently stops being taken is caught.
func (c corpusCount) atLeast(t *testing.T, what string, share float64) {
	t.Helper()
	t.Logf("%s: %d of %d lines took the fast path", what, c.fast, c.lines)
	if c.lines == 0 {
		t.Fatalf("%s: no lines", what)
	}
	if float64(c.fast) < share*float64(c.lines) {
		t.Errorf("%s: only %d of %d lines took the fast path, want %.1f%%", what, c.fast, c.lines, 100*share)
	}
}

// TestFastPathGeneratedLines: every generated line (20,000 records of four
// seeds, and the sample data built into the binary) reads the same through
// the fast path as through encoding/json, and all of them take it.
func TestFastPathGeneratedLines(t *testing.T) {
	var c corpusCount
	for seed := int64(1); seed <= 4; seed++ {
		for _, line := range generatedLines(t, 5000, seed) {
			c.add(t, line)
		}
	}
	c.atLeast(t, "generated", 1)

	f, err := os.Open("../sampledata/default.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var s corpusCount
	eachLine(t, zr, func(line []byte) { s.add(t, line) })
	s.atLeast(t, "sampledata", 1)
}

// TestFastPathRepoTestdata runs the differential check over every line of
// every JSON Lines file in the repository's testdata directories (records,
// deltas, articles, rules: whatever they hold, the fast path must agree or
// give up), and over the record of every delta line.
func TestFastPathRepoTestdata(t *testing.T) {
	var c corpusCount
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "fuzz") {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Base(filepath.Dir(path)) != "testdata" && !strings.Contains(path, "/testdata/") || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		files++
		eachLine(t, f, func(line []byte) {
			c.add(t, line)
			var delta struct{ Record json.RawMessage }
			if json.Unmarshal(line, &delta) == nil && len(delta.Record) > 0 {
				c.add(t, delta.Record)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("found %d testdata files, expected the repository's", files)
	}
	t.Logf("%d files", files)
	c.atLeast(t, "repository testdata", 0.5)
}

// TestFastPathConvertedLists converts the lists of convert's testdata and,
// when present, the real lists in ../shared/lists, writes every record in
// both casings, compact and indented, and checks each line.
func TestFastPathConvertedLists(t *testing.T) {
	type list struct {
		name string
		conv func(emit func(*record.Record) error) error
	}
	open := func(path string, fn func(io.Reader, func(*record.Record) error) error) func(func(*record.Record) error) error {
		return func(emit func(*record.Record) error) error {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			var r io.Reader = f
			if strings.HasSuffix(path, ".gz") {
				zr, err := gzip.NewReader(f)
				if err != nil {
					return err
				}
				r = zr
			}
			return fn(r, emit)
		}
	}
	csl := func(r io.Reader, emit func(*record.Record) error) error {
		return convert.CSL(r, convert.CSLOptions{}, emit)
	}
	dpl := func(r io.Reader, emit func(*record.Record) error) error { return convert.DPL(r, "", emit) }
	senzing := func(path string) func(func(*record.Record) error) error {
		return func(emit func(*record.Record) error) error {
			_, err := convert.Senzing(func() (io.ReadCloser, error) { return os.Open(path) }, convert.SenzingOptions{}, emit)
			return err
		}
	}
	td := "../convert/testdata"
	lists := []list{
		{"testdata ofac", func(emit func(*record.Record) error) error { return convert.OFAC(td+"/ofac", emit) }},
		{"testdata eu", open(td+"/eu/fsf.xml", convert.EU)},
		{"testdata uk", open(td+"/uk/uk_sanctions_list.xml", convert.UK)},
		{"testdata csl", open(td+"/csl/consolidated.csv", csl)},
		{"testdata dpl", open(td+"/dpl/dpl.txt", dpl)},
		{"testdata senzing", senzing(td + "/senzing/senzing.json")},
	}
	shared := filepath.Join("..", "..", "shared", "lists")
	if _, err := os.Stat(filepath.Join(shared, "sdn.csv")); err != nil {
		t.Logf("real lists not available (%s): converting the testdata lists only", shared)
	} else {
		lists = append(lists,
			list{"real ofac sdn", func(emit func(*record.Record) error) error { return convert.OFAC(shared, emit) }},
			list{"real ofac non-sdn", func(emit func(*record.Record) error) error {
				return convert.ConvertOFAC(convert.NonSDNList(shared), emit)
			}},
			list{"real csl", open(filepath.Join(shared, "consolidated.csv.gz"), csl)},
			list{"real dpl", open(filepath.Join(shared, "dpl.txt"), dpl)},
			list{"real senzing", senzing(filepath.Join(shared, "us_congress_senzing.json"))},
		)
	}
	for _, l := range lists {
		t.Run(l.name, func(t *testing.T) {
			var c corpusCount
			var buf bytes.Buffer
			err := l.conv(func(r *record.Record) error {
				for _, o := range []record.WriteOptions{{Case: record.Camel}, {}} {
					line := r.Append(nil, o)
					c.add(t, line)
					buf.Reset()
					if err := json.Indent(&buf, line, " ", "\t"); err != nil {
						t.Fatalf("own output %s: %v", line, err)
					}
					c.add(t, buf.Bytes())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			c.atLeast(t, l.name, 1)
		})
	}
}

// eachLine calls fn with every non-blank line of r.
func eachLine(t *testing.T, r io.Reader, fn func([]byte)) {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, record.MaxLine+1)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			fn(line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
