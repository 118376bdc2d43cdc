package record

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) []*Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestReadBothCasings(t *testing.T) {
	recs := readFile(t, "testdata/camel.jsonl")
	if len(recs) != 2 {
		t.Fatalf("got %d records (blank line must be skipped), want 2", len(recs))
	}
	a := recs[0]
	if a.SourceID != "eu_fsf" || a.EntityType != "INDIVIDUAL" || a.ListDate != 1577836800000 || a.PEPLevel != 2 ||
		!reflect.DeepEqual(a.AliasNames, []string{"Иван Петров"}) || !reflect.DeepEqual(a.SanctionDetails, []string{"EU 269/2014"}) {
		t.Errorf("camelCase record read as %+v", a)
	}
	if string(a.Extra["futureAttribute"]) != `{"nested":[1,2]}` {
		t.Errorf("unknown attribute not kept: %v", a.Extra)
	}
	b := recs[1]
	if b.SourceID != "pep_de" || b.PEPType != "POLITICIAN" || b.ListDate != 1577836800000 || b.TLName != "" ||
		!reflect.DeepEqual(b.AliasGivenNames, []string{"Anne"}) || b.SourceCountry != "DE" {
		t.Errorf("snake_case record read as %+v", b)
	}
}

func TestWriteCasings(t *testing.T) {
	r := readFile(t, "testdata/camel.jsonl")[0]
	snake := string(r.Append(nil, WriteOptions{}))
	for _, want := range []string{`"source_id":"eu_fsf"`, `"list_date":"1577836800000"`, `"alias_names":["Иван Петров"]`, `"pep_level":2`, `"futureAttribute":{"nested":[1,2]}`} {
		if !strings.Contains(snake, want) {
			t.Errorf("snake output lacks %s: %s", want, snake)
		}
	}
	camel := string(r.Append(nil, WriteOptions{Case: Camel, OmitListDate: true, OmitPEPLevel: true}))
	for _, want := range []string{`"sourceId":"eu_fsf"`, `"aliasNames":["Иван Петров"]`, `"dateOfBirth":["00/00/1960"]`} {
		if !strings.Contains(camel, want) {
			t.Errorf("camel output lacks %s: %s", want, camel)
		}
	}
	for _, absent := range []string{"listDate", "pepLevel", `"tlName"`, `"titles"`} {
		if strings.Contains(camel, absent) {
			t.Errorf("camel output has %s: %s", absent, camel)
		}
	}
	// Empty record: only id and the list_date the API always carries.
	if got := string((&Record{ID: "Z"}).Append(nil, WriteOptions{})); got != `{"id":"Z","list_date":"0"}` {
		t.Errorf("empty record = %s", got)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []Case{Snake, Camel} {
		for _, r := range readFile(t, "testdata/camel.jsonl") {
			var back Record
			if err := back.UnmarshalJSON(r.Append(nil, WriteOptions{Case: c})); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*r, back) {
				t.Errorf("case %d round trip:\n got %+v\nwant %+v", c, back, *r)
			}
		}
	}
}

func TestEscaping(t *testing.T) {
	r := &Record{ID: "E", Name: "a\"b\\c\nd<e>&\u2028\x01"}
	var back Record
	if err := json.Unmarshal(r.Append(nil, WriteOptions{}), &back); err != nil {
		t.Fatal(err)
	}
	if back.Name != r.Name {
		t.Errorf("got %q, want %q", back.Name, r.Name)
	}
}

func TestGzipInput(t *testing.T) {
	plain, _ := os.ReadFile("testdata/camel.jsonl")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(plain)
	zw.Close()
	recs, err := ReadAll(&buf)
	if err != nil || len(recs) != 2 || recs[0].ID != "A1" {
		t.Fatalf("gzip: %d records, %v", len(recs), err)
	}
}

func TestBadLines(t *testing.T) {
	tests := []struct {
		file  string
		line  int
		field string
	}{
		{"testdata/bad_field.jsonl", 3, "dateOfBirth"},
		{"testdata/bad_json.jsonl", 2, ""},
		{"testdata/no_id.jsonl", 2, "id"},
	}
	for _, tt := range tests {
		f, _ := os.Open(tt.file)
		_, err := ReadAll(f)
		f.Close()
		var le *LineError
		if !errors.As(err, &le) || le.Line != tt.line || le.Field != tt.field {
			t.Errorf("%s: got %v, want line %d field %q", tt.file, err, tt.line, tt.field)
		}
	}
}

func TestChanges(t *testing.T) {
	f, _ := os.Open("testdata/delta.jsonl")
	defer f.Close()
	rd, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for {
		c, err := rd.Change()
		if err == io.EOF {
			t.Fatal("RENAME line accepted")
		}
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line != 4 || le.Field != "type" {
				t.Errorf("got %v, want line 4 field type", err)
			}
			break
		}
		types = append(types, c.Type+":"+c.Record.ID)
	}
	if want := []string{"ADD:X1", "UPDATE:X2", "DELETE:X3"}; !reflect.DeepEqual(types, want) {
		t.Errorf("changes %v, want %v", types, want)
	}
	c := Change{Type: ChangeUpdate, Record: Record{ID: "X2", SourceID: "s", ListDate: 5}}
	if got := string(c.Append(nil)); got != `{"type":"UPDATE","record":{"id":"X2","sourceId":"s"}}` {
		t.Errorf("delta line = %s", got)
	}
}

func TestCloneIsDeep(t *testing.T) {
	r := readFile(t, "testdata/camel.jsonl")[0]
	c := r.Clone()
	c.AliasNames[0] = "changed"
	c.Extra["futureAttribute"][0] = 'X'
	if r.AliasNames[0] == "changed" || r.Extra["futureAttribute"][0] == 'X' {
		t.Error("Clone shares memory with the original")
	}
}

// FuzzRecordJSON checks that any input either fails cleanly or round-trips
// through both casings unchanged.
func FuzzRecordJSON(f *testing.F) {
	f.Add([]byte(`{"id":"A","name":"x","listDate":"12","aliasNames":["a","b"]}`))
	f.Add([]byte(`{"id":"A","pep_level":"3","x":{"y":null}}`))
	f.Add([]byte(`{"id":"A","dateOfBirth":"01/01/1990"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Record
		if r.UnmarshalJSON(data) != nil {
			return
		}
		for _, c := range []Case{Snake, Camel} {
			out := r.Append(nil, WriteOptions{Case: c})
			var back Record
			if err := back.UnmarshalJSON(out); err != nil {
				t.Fatalf("own output %s does not read back: %v", out, err)
			}
			if !reflect.DeepEqual(normalizeExtra(r), normalizeExtra(back)) {
				t.Fatalf("round trip changed the record:\n%+v\n%+v", r, back)
			}
		}
	})
}

// normalizeExtra compacts raw extra values, whose whitespace may differ.
func normalizeExtra(r Record) Record {
	if r.Extra != nil {
		m := make(map[string]json.RawMessage, len(r.Extra))
		for k, v := range r.Extra {
			var b bytes.Buffer
			json.Compact(&b, v)
			m[k] = b.Bytes()
		}
		r.Extra = m
	}
	return r
}

// FuzzChangeLine: any delta line either fails with a field error (or, for
// a line that is not a JSON object, a plain message naming no field) or is
// a change whose own delta line reads back to the same change (delta lines
// carry no list_date, so it is left out of the comparison).
func FuzzChangeLine(f *testing.F) {
	f.Add([]byte(`{"type":"ADD","record":{"id":"A","name":"x","aliasNames":["a"]}}`))
	f.Add([]byte(`{"type":"DELETE","record":{"id":"A"}}`))
	f.Add([]byte(`{"type":"UPDATE","record":{"id":"B","source_id":"s","list_date":"5"}}`))
	f.Add([]byte(`{"type":"ADD"}`))
	f.Add([]byte(` { "type" : "UPDATE" , "record" : {"id":"B","name":"Ann"} } `))
	f.Add([]byte(`{"type":"ADD","record":{"id":"A"},"type":"DELETE"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Change
		err := c.UnmarshalJSON(data)
		var general Change
		generalErr := general.decodeGeneral(data)
		if (err == nil) != (generalErr == nil) || err == nil && !reflect.DeepEqual(c, general) ||
			err != nil && err.Error() != generalErr.Error() {
			t.Fatalf("own-line path and general path differ on %q:\n%+v %v\n%+v %v", data, c, err, general, generalErr)
		}
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) && !errors.Is(err, ErrNotObject) && !strings.HasPrefix(err.Error(), "not valid JSON") {
				t.Fatalf("error %v names no field", err)
			}
			return
		}
		if c.Validate() != nil {
			return
		}
		line := c.Append(nil)
		var back Change
		if err := back.UnmarshalJSON(line); err != nil {
			t.Fatalf("own line %s does not read back: %v", line, err)
		}
		if err := back.Validate(); err != nil {
			t.Fatalf("own line %s no longer valid: %v", line, err)
		}
		c.Record.ListDate = 0
		if back.Type != c.Type || !reflect.DeepEqual(normalizeExtra(back.Record), normalizeExtra(c.Record)) {
			t.Fatalf("round trip changed the change:\n%+v\n%+v", c, back)
		}
	})
}

// TestLineRules: what the contract forbids in a consolidated line is
// refused with the line, the field at fault as written and a plain
// message; what it allows reads.
func TestLineRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, line string
		field      string // "" with want "" means the line reads
		want       string // part of the message
	}{
		{"plain", `{"id":"A1","name":"Anna"}`, "", ""},
		{"separators in id", `{"id":"OFAC-CONS_1.2:3","name":"Anna"}`, "", ""},
		{"duplicate key", `{"id":"A1","name":"Anna","name":"Bert"}`, "name", "more than once"},
		{"duplicate id", `{"id":"A1","id":"A2"}`, "id", "more than once"},
		{"one attribute in two casings", `{"id":"A1","aliasNames":["a"],"alias_names":["b"]}`, "alias_names", `same attribute as key "aliasNames"`},
		{"same key inside nested values is fine", `{"id":"A1","x":{"k":1,"y":{"k":2}},"z":[{"k":1},{"k":1}]}`, "", ""},
		{"escaped quote in a key", `{"id":"A1","a\"b":1,"a\"c":2}`, "", ""},
		{"space in id", `{"id":"A 1"}`, "id", "a space"},
		{"slash in id", `{"id":"A/1"}`, "id", `'/'`},
		{"control char in id", `{"id":"A\u00011"}`, "id", "control character"},
		{"non-ASCII id", `{"id":"Ä1"}`, "id", "non-ASCII"},
		{"id too long", `{"id":"` + long(129) + `"}`, "id", "more than 128"},
		{"id at the limit", `{"id":"` + long(128) + `"}`, "", ""},
		{"no id", `{"name":"Anna"}`, "id", "no id"},
		{"name too long", `{"id":"A1","name":"` + long(MaxNameLen+1) + `"}`, "name", "more than 1024"},
		{"alias too long, camelCase key named as written", `{"id":"A1","aliasNames":["ok","` + long(MaxNameLen+1) + `"]}`, "aliasNames", "value 2"},
		{"other value too long", `{"id":"A1","otherInformation":["` + long(MaxValueLen+1) + `"]}`, "otherInformation", "more than 65536"},
		{"other value at the limit", `{"id":"A1","otherInformation":["` + long(MaxValueLen) + `"]}`, "", ""},
		{"unknown attribute too long", `{"id":"A1","future":"` + long(MaxValueLen) + `"}`, "future", "more than 65536"},
		{"wrong type names the field", `{"id":"A1","dateOfBirth":[1960]}`, "dateOfBirth", "array of strings"},
		{"not JSON names no field", `{"id":"A1", "name": `, "", "not valid JSON"},
		{"array", `[{"id":"A1"}]`, "", "expected one JSON object per line, found an array"},
		{"first line of a pretty-printed array", `[`, "", "expected one JSON object per line, found an array"},
		{"string", `"A1"`, "", "expected one JSON object per line, found a string"},
		{"null", `null`, "", "expected one JSON object per line, found null"},
		{"number", `12`, "", "expected one JSON object per line, found a number"},
		{"pep level", `{"id":"A1","pepLevel":7}`, "pep_level", "outside 1..4"},
		// Past int32 it once wrapped to 2 and passed the range check.
		{"pep level past int32", `{"id":"A1","pepLevel":"4294967298"}`, "pepLevel", "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := ReadAll(strings.NewReader(`{"id":"OK1"}` + "\n" + tc.line + "\n"))
			if tc.field == "" && tc.want == "" {
				if err != nil || len(recs) != 2 {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var le *LineError
			if !errors.As(err, &le) || le.Line != 2 || le.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want line 2 field %q saying %q", err, tc.field, tc.want)
			}
			if strings.Contains(err.Error(), "Go value") || strings.Contains(err.Error(), "map[string]") {
				t.Errorf("message shows Go internals: %v", err)
			}
			if len(err.Error()) > 400 {
				t.Errorf("message of %d bytes echoes the input", len(err.Error()))
			}
		})
	}
}

// TestLongLineRefused: a 20 MB name never reaches the parser; the line is
// refused by its length, with its number.
func TestLongLineRefused(t *testing.T) {
	in := `{"id":"A1"}` + "\n" + `{"id":"A2","name":"` + strings.Repeat("x", 20<<20) + `"}` + "\n"
	_, err := ReadAll(strings.NewReader(in))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("got %v, want line 2 longer than the limit", err)
	}
}

// TestByteOrderMark: a file saved with a UTF-8 byte-order mark reads, plain
// or gzip.
func TestByteOrderMark(t *testing.T) {
	data := "\ufeff" + `{"id":"A1","name":"Anna"}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(data))
	zw.Close()
	for name, in := range map[string][]byte{"plain": []byte(data), "gzip": gz.Bytes()} {
		recs, err := ReadAll(bytes.NewReader(in))
		if err != nil || len(recs) != 1 || recs[0].ID != "A1" {
			t.Errorf("%s: %d records, %v", name, len(recs), err)
		}
	}
}

// TestChangeLineRules: a delta line's errors name the field at fault; a
// line that does not parse names none (it used to blame "type").
func TestChangeLineRules(t *testing.T) {
	tests := []struct{ line, field, want string }{
		{`{"type":"ADD","record":{"id":"X1"}}`, "", ""},
		{`{"type":"ADD","record":{"id":"X1"}`, "", "not valid JSON"},
		{`[{"type":"ADD"}]`, "", "expected one JSON object per line"},
		{`{"type":7,"record":{"id":"X1"}}`, "type", "want a string"},
		{`{"type":"ADD","record":"X1"}`, "record", "want a JSON object"},
		{`{"type":"ADD"}`, "record", "missing"},
		{`{"type":"ADD","type":"DELETE","record":{"id":"X1"}}`, "type", "more than once"},
		{`{"type":"ADD","Type":"DELETE","record":{"id":"X1"}}`, "type", "more than once"},
		{`{"type":"ADD","record":{"id":"X1","name":"a","name":"b"}}`, "record.name", "more than once"},
		{`{"type":"ADD","record":{"id":"X 1"}}`, "record.id", "a space"},
		{`{"type":"MOVE","record":{"id":"X1"}}`, "type", "not ADD, UPDATE or DELETE"},
	}
	for _, tc := range tests {
		rd, err := NewReader(strings.NewReader(tc.line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = rd.Change()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.line, err)
			}
			continue
		}
		var le *LineError
		if !errors.As(err, &le) || le.Line != 1 || le.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want field %q saying %q", tc.line, err, tc.field, tc.want)
		}
	}
}

// FuzzRecordLine: any consolidated line is either a record that passes
// Validate and reads back from its own output, or a *LineError on its
// line whose message is short whatever the input's size.
func FuzzRecordLine(f *testing.F) {
	f.Add([]byte(`{"id":"A1","name":"Anna","aliasNames":["a"]}`))
	f.Add([]byte(`{"id":"A1","name":"a","name":"b"}`))
	f.Add([]byte(`{"id":"A1","Name":"a","name":"b"}`))
	f.Add([]byte(`{"id":"A 1"}`))
	f.Add([]byte(`[{"id":"A1"}]`))
	f.Add([]byte("\xef\xbb\xbf" + `{"id":"A1"}`))
	f.Add([]byte(`{"id":"A1","x":{"k":"\"}","k":1}}`))
	f.Add([]byte(`{"id":"A1","name":"` + strings.Repeat("n", MaxNameLen+1) + `"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadAll(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				if strings.Contains(err.Error(), "gzip") || strings.Contains(err.Error(), "EOF") {
					return // a gzip magic with a broken stream behind it
				}
				t.Fatalf("error %v has no line", err)
			}
			if le.Line < 1 {
				t.Fatalf("line %d", le.Line)
			}
			if len(err.Error()) > 600 {
				t.Fatalf("message of %d bytes: %.200s", len(err.Error()), err)
			}
			return
		}
		for _, r := range recs {
			if err := r.Validate(); err != nil {
				t.Fatalf("read a record that does not validate: %v", err)
			}
			back, err := ReadAll(bytes.NewReader(r.Append(nil, WriteOptions{Case: Camel})))
			if err != nil || len(back) != 1 {
				t.Fatalf("own output does not read back: %v", err)
			}
		}
	})
}

// TestChangeOwnLine: the lines the store writes take the own-line path,
// and every other line is read by the general path with its errors.
func TestChangeOwnLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		own  bool
		err  string
	}{
		{`{"type":"ADD","record":{"id":"A","name":"Ann Lee"}}`, true, ""},
		{` {"type" : "DELETE", "record": {"id":"A"}} `, true, ""},
		{`{"record":{"id":"A"},"type":"ADD"}`, false, ""},
		{`{"Type":"ADD","Record":{"id":"A"}}`, false, ""},
		{`{"type":"AD\u0044","record":{"id":"A"}}`, false, ""},
		{`{"type":"ADD","record":{"id":"A"},"extra":1}`, false, ""},
		{`{"type":"ADD","record":{"id":"A"}`, false, "not valid JSON"},
		{`{"type":"ADD","record":{"id":"A","name":7}}`, false, "record.name"},
		{`{"type":"ADD","record":[1]}`, false, "record"},
		{`{"type":7,"record":{"id":"A"}}`, false, "type"},
	} {
		var own Change
		if got := own.decodeOwnLine([]byte(tc.line)); got != tc.own {
			t.Errorf("%s: own-line path %v, want %v", tc.line, got, tc.own)
		}
		var c Change
		err := c.UnmarshalJSON([]byte(tc.line))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.line, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one naming %q", tc.line, err, tc.err)
		case tc.own && !reflect.DeepEqual(own, c):
			t.Errorf("%s: own-line path read %+v, UnmarshalJSON %+v", tc.line, own, c)
		}
	}
}
