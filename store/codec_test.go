package store

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

func testCodec() *codec {
	return &codec{current: 0, schemas: []schema{bind(currentSchema)}}
}

func TestCodecCoversEveryRecordField(t *testing.T) {
	if len(unsupported) > 0 {
		t.Fatalf("record.Record fields %v have kinds the binary form cannot hold; records would be stored as slow JSON", unsupported)
	}
	exported := 0
	for i := range recordType.NumField() {
		if recordType.Field(i).IsExported() {
			exported++
		}
	}
	if len(currentSchema) != exported {
		t.Fatalf("schema has %d fields, record.Record %d exported", len(currentSchema), exported)
	}
}

// fullRecord sets every field, so that a field the codec forgot fails the
// round trip.
func fullRecord() *record.Record {
	r := &record.Record{}
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		name := v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.String:
			f.SetString(name + " värde \u2028 \"q\"")
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{name + " 1", "", name + " три"}))
		case reflect.Int32:
			f.SetInt(3)
		case reflect.Int64:
			f.SetInt(-1_600_000_000_000)
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]json.RawMessage{"zeta": json.RawMessage(`{"a":[1,2]}`), "alpha": json.RawMessage(`"x"`)}))
		}
	}
	return r
}

func TestCodecRoundTrip(t *testing.T) {
	c := testCodec()
	long := &record.Record{ID: "L1", Name: "x"}
	for range 50 {
		long.OtherInformation = append(long.OtherInformation, "the same remark repeated to make s2 pay")
	}
	tests := []struct {
		name string
		rec  *record.Record
		s2   bool
	}{
		{"id only", &record.Record{ID: "A1"}, false},
		{"every field", fullRecord(), false},
		{"compressible", long, true},
		{"generated", genRecord(7, 7), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blob := c.encode(tt.rec)
			if got := blob[0] == formatFieldsS2; tt.s2 && !got {
				t.Errorf("format %d, want s2 for a compressible record", blob[0])
			}
			got, err := c.decode(blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.rec) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.rec)
			}
			// Lists share storage; appending to one must not touch the next.
			if len(got.LastNames) > 0 && len(got.GivenNames) > 0 {
				want := got.GivenNames[0]
				got.LastNames = append(got.LastNames, "appended")
				if got.GivenNames[0] != want {
					t.Error("append to one list changed another")
				}
			}
		})
	}
}

func TestCodecIsDeterministic(t *testing.T) {
	c := testCodec()
	r := fullRecord()
	a, b := c.encode(r), c.encode(r.Clone())
	if string(a) != string(b) {
		t.Fatal("two encodings of one record differ; full imports would rewrite unchanged records")
	}
}

func TestCodecReadsOlderSchemas(t *testing.T) {
	// A blob written when the record type had a field it no longer has,
	// and its fields in another order.
	stored := "Gone:l,Name:s,ID:s,PEPLevel:i"
	s, err := parseSchema(stored)
	if err != nil {
		t.Fatal(err)
	}
	c := &codec{current: 1, schemas: []schema{bind(s), bind(currentSchema)}}
	var p []byte
	p = append(p, 1, 2, 3, 'o', 'n', 'e', 3, 't', 'w', 'o') // Gone: ["one","two"]
	p = append(p, 2, 4, 'N', 'a', 'm', 'e')                 // Name
	p = append(p, 3, 2, 'I', '1')                           // ID
	p = append(p, 4, 4)                                     // PEPLevel 2 (zigzag)
	p = append(p, 0)
	got, err := c.decode(append([]byte{formatFields, 0}, p...))
	if err != nil {
		t.Fatal(err)
	}
	want := &record.Record{ID: "I1", Name: "Name", PEPLevel: 2}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestCodecRejectsCorruptBlobs(t *testing.T) {
	c := testCodec()
	good := c.encode(fullRecord())
	cases := map[string][]byte{
		"empty":          nil,
		"unknown format": {9, 0, 0},
		"unknown schema": {formatFields, 5, 0},
		"truncated":      good[:len(good)/2],
		"bad field":      {formatFields, 0, 200, 0},
		"bad s2":         {formatFieldsS2, 0, 1, 2, 3},
	}
	for name, blob := range cases {
		if _, err := c.decode(blob); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	// Random damage must give an error or a record, never a panic.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		b := append([]byte(nil), good...)
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		}
		c.decode(b[:rng.IntN(len(b)+1)])
	}
}

func BenchmarkCodec(b *testing.B) {
	c := testCodec()
	recs := genRecords(1, 10000)
	blobs := make([][]byte, len(recs))
	size := 0
	for i, r := range recs {
		blobs[i] = c.encode(r)
		size += len(blobs[i])
	}
	b.Run("encode", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c.encode(recs[i%len(recs)])
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c.decode(blobs[i%len(blobs)])
		}
		b.ReportMetric(float64(size)/float64(len(blobs)), "bytes/record")
	})
}

// FuzzDecode: a blob from a damaged store file is an error, never a panic,
// a hang or a huge allocation; whatever does decode is a record the codec
// stores and reads back unchanged.
func FuzzDecode(f *testing.F) {
	c := testCodec()
	f.Add(c.encode(fullRecord()))
	f.Add(c.encode(&record.Record{ID: "A1", Name: "Anna"}))
	long := &record.Record{ID: "L1", Name: "x"}
	for range 50 {
		long.OtherInformation = append(long.OtherInformation, "the same remark repeated to make s2 pay")
	}
	f.Add(c.encode(long))
	f.Add([]byte{formatJSON, 0, '{', '}'})
	f.Add([]byte{formatFields, 0, 0})
	f.Add([]byte{formatFieldsS2, 0, 0xff})
	f.Fuzz(func(t *testing.T, blob []byte) {
		r, err := c.decode(blob)
		if err != nil {
			return
		}
		// Whatever decoded is a record the codec can store again and read
		// back unchanged (compared as blobs: an empty list and a missing
		// one are the same record).
		blob1 := c.encode(r)
		again, err := c.decode(blob1)
		if err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if blob2 := c.encode(again); !bytes.Equal(blob1, blob2) {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", r, again)
		}
	})
}
