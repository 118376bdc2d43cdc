package record_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/opensanctions"
	"github.com/amlscreen/amlscreen/convert/uk"
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

// TestFastPathGeneratedLines: every generated line (5,000 records of one
// seed, and every other line of the sample data built into the binary;
// AMLSCREEN_LONG_TESTS=1: 20,000 of four seeds and every sample line)
// reads the same through the fast path as through encoding/json, and all
// of them take it. Under the race detector it reads 1,000 lines of one
// seed and every tenth line of the sample: the decoders run on one
// goroutine, and the plain run reads more.
func TestFastPathGeneratedLines(t *testing.T) {
	t.Parallel()
	var c corpusCount
	seeds, lines, every := int64(1), 5000, 2
	switch {
	case longTests():
		seeds, every = 4, 1
	case raceEnabled:
		seeds, lines, every = 1, 1000, 10
	}
	for seed := int64(1); seed <= seeds; seed++ {
		for _, line := range generatedLines(t, lines, seed) {
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
	n := 0
	eachLine(t, zr, func(line []byte) {
		if n++; n%every == 0 {
			s.add(t, line)
		}
	})
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
		return csl.CSL(r, csl.CSLOptions{}, emit)
	}
	dpl := func(r io.Reader, emit func(*record.Record) error) error { return dpl.DPL(r, "", emit) }
	senzing := func(path string) func(func(*record.Record) error) error {
		return func(emit func(*record.Record) error) error {
			_, err := opensanctions.Senzing(func() (io.ReadCloser, error) { return os.Open(path) }, opensanctions.SenzingOptions{}, emit)
			return err
		}
	}
	td := "../convert/testdata"
	lists := []list{
		{"testdata ofac", func(emit func(*record.Record) error) error {
			return ofac.ConvertOFAC(ofac.SDNList(td+"/ofac"), emit)
		}},
		{"testdata eu", open(td+"/eu/fsf.xml", eu.EU)},
		{"testdata uk", open(td+"/uk/uk_sanctions_list.xml", uk.UK)},
		{"testdata csl", open(td+"/csl/consolidated.csv", csl)},
		{"testdata dpl", open(td+"/dpl/dpl.txt", dpl)},
		{"testdata senzing", senzing(td + "/senzing/senzing.json")},
	}
	shared := filepath.Join("..", "..", "shared", "lists")
	if _, err := os.Stat(filepath.Join(shared, "sdn.csv")); err != nil {
		t.Logf("real lists not available (%s): converting the testdata lists only", shared)
	} else {
		lists = append(lists,
			list{"real ofac sdn", func(emit func(*record.Record) error) error { return ofac.ConvertOFAC(ofac.SDNList(shared), emit) }},
			list{"real ofac non-sdn", func(emit func(*record.Record) error) error {
				return ofac.ConvertOFAC(ofac.NonSDNList(shared), emit)
			}},
			list{"real csl", open(filepath.Join(shared, "consolidated.csv.gz"), csl)},
			list{"real dpl", open(filepath.Join(shared, "dpl.txt"), dpl)},
			list{"real senzing", senzing(filepath.Join(shared, "us_congress_senzing.json"))},
		)
	}
	// The real lists hold tens of thousands of records: by default every
	// fifth is checked, AMLSCREEN_LONG_TESTS=1 checks them all.
	every := 5
	if longTests() {
		every = 1
	}
	for _, l := range lists {
		t.Run(l.name, func(t *testing.T) {
			if raceEnabled && strings.HasPrefix(l.name, "real ") {
				t.Skip("the race detector finds nothing in this one-goroutine comparison and runs it ten times slower: the plain run checks the real lists")
			}
			t.Parallel()
			var c corpusCount
			var buf bytes.Buffer
			n := 0
			err := l.conv(func(r *record.Record) error {
				n++
				if strings.HasPrefix(l.name, "real ") && n%every != 0 {
					return nil
				}
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

// fastCases are lines at the edges of the fast path: whether it reads
// them (fast) and, either way, that the result is the general decoder's.
var fastCases = []struct {
	name string
	line string
	fast bool
}{
	{"plain", `{"id":"A1","name":"Anna","aliasNames":["a","b"],"listDate":"12","pepLevel":2}`, true},
	{"empty object", `{}`, true},
	{"whitespace everywhere", " \t\r\n{ \"id\" :\n\"A1\" , \"aliasNames\" : [ \"a\" ,\t\"b\" ] , \"x\" : { \"k\" : [ 1 , 2 ] } }\r\n", true},
	{"escapes", `{"id":"A1","name":"q\"b\\s\/\b\f\n\r\t\u0041\u00e9\u2028<>&"}`, true},
	{"surrogate pair", `{"id":"A1","name":"\ud83d\ude00"}`, true},
	{"lone high surrogate", `{"id":"A1","name":"a\ud83db"}`, true},
	{"lone low surrogate", `{"id":"A1","name":"a\ude00b"}`, true},
	{"high surrogate then a letter escape", `{"id":"A1","name":"\ud83d\u0041"}`, true},
	{"two high surrogates", `{"id":"A1","name":"\ud83d\ud83d\ude00"}`, true},
	{"high surrogate at the end", `{"id":"A1","name":"\ud83d"}`, true},
	{"invalid UTF-8 replaced", "{\"id\":\"A1\",\"name\":\"a\xffb\xe2\x82\",\"x\xfe\":1}", true},
	{"UTF-8 surrogate bytes replaced", "{\"id\":\"A1\",\"name\":\"\xed\xa0\x80\"}", true},
	{"names in many scripts", `{"id":"A1","name":"Путин 中国 محمد","aliasNames":["Ελλάδα"]}`, true},
	{"null attribute", `{"id":"A1","name":null,"aliasNames":null,"pepLevel":null}`, true},
	{"null and empty list elements dropped", `{"id":"A1","aliasNames":[null,"","a",null]}`, true},
	{"empty list", `{"id":"A1","aliasNames":[],"titles":[""]}`, true},
	{"single string for a list", `{"id":"A1","dateOfBirth":"01/01/1990","titles":""}`, true},
	{"numbers as numbers", `{"id":"A1","pepLevel":3,"listDate":1577836800000}`, true},
	{"numbers as strings", `{"id":"A1","pepLevel":"3","listDate":"1577836800000"}`, true},
	{"float list date", `{"id":"A1","listDate":1.6e12}`, true},
	{"float list date string", `{"id":"A1","listDate":"1.6e12"}`, true},
	{"empty string number", `{"id":"A1","pepLevel":"","listDate":""}`, true},
	{"signed number string", `{"id":"A1","pepLevel":"+3","listDate":"-5"}`, true},
	{"escaped number string", `{"id":"A1","pepLevel":"\u0033"}`, true},
	{"pep level past int32 is refused", `{"id":"A1","pepLevel":"4294967298"}`, false},
	{"pep level past int32 as a number is refused", `{"id":"A1","pepLevel":4294967298}`, false},
	{"negative zero", `{"id":"A1","listDate":-0}`, true},
	{"camel snake and odd casings", `{"ID":"A1","source_id":"s","SOURCE_TYPE":"PEP","Given_Names":["g"]}`, true},
	{"escaped key", `{"id":"A1","n\u0061me":"x"}`, true},
	{"Kelvin sign folds to k", "{\"id\":\"A1\",\"lin\u212as\":[\"l\"]}", true},
	{"escaped Kelvin sign", `{"id":"A1","lin\u212As":["l"]}`, true},
	{"extras of every kind", `{"id":"A1","s":"x","n":-1.5e+3,"t":true,"f":false,"z":null,"o":{"a":[1,{"b":"}"}]},"l":[]}`, true},
	{"extra key with underscore only", `{"id":"A1","_":1,"__":2}`, true},
	{"unknown source type", `{"id":"A1","sourceType":"NEW_KIND","entityType":"INDIVIDUAL","gender":"","pepType":"POLITICIAN"}`, true},
	{"long unknown key", `{"id":"A1","` + strings.Repeat("k", 100) + `":1}`, true},
	{"name at its limit", `{"id":"A1","name":"` + strings.Repeat("n", record.MaxNameLen) + `"}`, true},
	{"id over the name limit is Validate's", `{"id":"` + strings.Repeat("i", record.MaxNameLen+1) + `"}`, true},

	{"longer than a line may be", `{"id":"A1"}` + strings.Repeat(" ", record.MaxLine), false},
	{"not an object", `["A1"]`, false},
	{"byte order mark", "\ufeff{\"id\":\"A1\"}", false},
	{"trailing garbage", `{"id":"A1"}x`, false},
	{"two objects", `{"id":"A1"}{"id":"A2"}`, false},
	{"unterminated", `{"id":"A1"`, false},
	{"trailing comma", `{"id":"A1",}`, false},
	{"duplicate key", `{"id":"A1","name":"a","name":"b"}`, false},
	{"duplicate key through an escape", `{"id":"A1","name":"a","n\u0061me":"b"}`, false},
	{"one attribute in two casings", `{"id":"A1","name":"a","Name":"b"}`, false},
	{"null then a value", `{"id":"A1","name":null,"name":"b"}`, false},
	{"duplicate extra", `{"id":"A1","x":1,"x":2}`, false},
	{"duplicate extra through an escape", `{"id":"A1","x":1,"\u0078":2}`, false},
	{"number for a string", `{"id":1}`, false},
	{"object for a list", `{"id":"A1","aliasNames":{"a":1}}`, false},
	{"number in a list", `{"id":"A1","aliasNames":["a",1]}`, false},
	{"nested list", `{"id":"A1","aliasNames":[["a"]]}`, false},
	{"bool for a number", `{"id":"A1","pepLevel":true}`, false},
	{"not an integer", `{"id":"A1","pepLevel":"three"}`, false},
	{"fraction", `{"id":"A1","listDate":1.5}`, false},
	{"leading zero", `{"id":"A1","listDate":01}`, false},
	{"NaN string", `{"id":"A1","listDate":"NaN"}`, false},
	{"single quote escape", `{"id":"A1","name":"\'"}`, false},
	{"bad escape", `{"id":"A1","name":"\x"}`, false},
	{"short unicode escape", `{"id":"A1","name":"\u12"}`, false},
	{"control character", "{\"id\":\"A1\",\"name\":\"a\tb\"}", false},
	{"bad literal", `{"id":"A1","x":nul}`, false},
	{"invalid nested extra", `{"id":"A1","x":{"a":}}`, false},
	{"many extras", `{"id":"A1"` + func() string {
		var b strings.Builder
		for i := range 33 {
			fmt.Fprintf(&b, `,"x%d":%d`, i, i)
		}
		return b.String()
	}() + `}`, false},
	{"deep extra", `{"id":"A1","x":` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + `}`, false},
	{"too deep for encoding/json", `{"id":"A1","x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, false},
	{"name over its limit", `{"id":"A1","name":"` + strings.Repeat("n", record.MaxNameLen+1) + `"}`, false},
	{"alias over its limit", `{"id":"A1","aliasNames":["a","` + strings.Repeat("n", record.MaxNameLen+1) + `"]}`, false},
	{"other value over its limit", `{"id":"A1","titles":"` + strings.Repeat("t", record.MaxValueLen+1) + `"}`, false},
	{"extra over its limit", `{"id":"A1","x":"` + strings.Repeat("x", record.MaxValueLen-1) + `"}`, false},
}

// TestFastPathEdgeCases pins down which lines the fast path reads and that
// it reads them as the general decoder does.
func TestFastPathEdgeCases(t *testing.T) {
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameAsGeneral(t, []byte(tc.line)); got != tc.fast {
				_, err := record.DecodeGeneral([]byte(tc.line))
				t.Errorf("fast path taken %v, want %v (general decoder: %v)", got, tc.fast, err)
			}
		})
	}
}

// FuzzFastPath: whatever the input, the fast path either gives up or reads
// it exactly as the general decoder does; it never reads a line the
// general decoder refuses.
//
//	go test ./record -run '^$' -fuzz FuzzFastPath -fuzztime 3m
func FuzzFastPath(f *testing.F) {
	for _, tc := range fastCases {
		// The huge lines are the table's: as seeds they would slow every
		// mutation down.
		if len(tc.line) <= 4<<10 {
			f.Add([]byte(tc.line))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsGeneral(t, data)
	})
}

// TestFastPathListsApart: the fast path keeps all list elements of a line
// in one array; appending to one list must not write into the next.
func TestFastPathListsApart(t *testing.T) {
	r, ok := record.DecodeFast([]byte(`{"id":"A1","lastNames":["l"],"givenNames":["g1","g2"],"aliasNames":["a"]}`))
	if !ok {
		t.Fatal("fast path not taken")
	}
	r.LastNames = append(r.LastNames, "x")
	r.GivenNames = append(r.GivenNames, "y")
	if !reflect.DeepEqual(r.GivenNames, []string{"g1", "g2", "y"}) || !reflect.DeepEqual(r.AliasNames, []string{"a"}) {
		t.Errorf("appending wrote into the next list: given %q, alias %q", r.GivenNames, r.AliasNames)
	}
}
