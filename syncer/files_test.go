package syncer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "store.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// ids returns the store's record ids, sorted, with each record's name.
func contents(t *testing.T, db *store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := db.ForEachRecord(func(r *record.Record) error { out[r.ID] = r.Name; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func importFixture(t *testing.T, db *store.Store, name, version string) *store.Applied {
	t.Helper()
	a, err := ImportFile(db, bytes.NewReader(readFixture(t, name)), version, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var wantV1 = map[string]string{"S1": "Ivan Petrov", "S2": "Northwind Trading LLC", "P1": "Erika Muster", "C1": "The Fox"}
var wantV2 = map[string]string{"S1": "Ivan Petrov", "S2": "Northwind Trading LLC", "P1": "Erika Muster", "S3": "Sea Dragon", "N1": "New By Update"}
var wantV3 = map[string]string{"S1": "Ivan Petrov", "P1": "Erika Muster", "S3": "Sea Dragon II", "N1": "New By Update"}

func TestImportFilePlainAndGzip(t *testing.T) {
	for name, body := range map[string][]byte{"plain": readFixture(t, "full_v1.jsonl"), "gzip": gzipped(readFixture(t, "full_v1.jsonl"))} {
		t.Run(name, func(t *testing.T) {
			db := openStore(t)
			a, err := ImportFile(db, bytes.NewReader(body), "v1", nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Records != 4 || !a.Full {
				t.Fatalf("Applied %+v", a)
			}
			if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
				t.Fatalf("records %v", got)
			}
			// Both key casings, list_date as number and string, unknown
			// attributes kept.
			p1, _ := db.Get("P1")
			c1, _ := db.Get("C1")
			s2, _ := db.Get("S2")
			if p1.SourceID != "pep-de" || p1.PEPLevel != 2 || p1.SourceCountry != "DE" || s2.ListDate != 1600000000000 || string(c1.Extra["futureAttribute"]) != `{"kept":true}` {
				t.Fatalf("attributes lost: %+v %+v %+v", p1, s2, c1)
			}
		})
	}
}

func TestBadLineStopsFileAndAppliesNothing(t *testing.T) {
	tests := []struct {
		file  string
		delta bool
		line  int
		field string
	}{
		{"bad_full_json.jsonl", false, 3, ""},
		{"bad_full_noid.jsonl", false, 3, "id"},
		{"bad_delta_json.jsonl", true, 2, ""}, // a line that does not parse blames no field
		{"bad_delta_type.jsonl", true, 3, "type"},
		{"bad_delta_noid.jsonl", true, 2, "record.id"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			db := openStore(t)
			importFixture(t, db, "full_v1.jsonl", "v1")
			body := bytes.NewReader(readFixture(t, tt.file))
			var err error
			if tt.delta {
				_, err = ApplyFile(db, body, "v1", "v2", nil)
			} else {
				_, err = ImportFile(db, body, "v2", nil)
			}
			var le *record.LineError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a LineError", err)
			}
			if le.Line != tt.line || le.Field != tt.field {
				t.Fatalf("error at line %d field %q, want line %d field %q (%v)", le.Line, le.Field, tt.line, tt.field, err)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("line %d", tt.line)) {
				t.Fatalf("message %q does not name the line", err)
			}
			if v, _ := db.Version(); v.ID != "v1" {
				t.Fatalf("store at %q after a bad file", v.ID)
			}
			if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
				t.Fatalf("records changed: %v", got)
			}
		})
	}
}

func TestApplyFileChain(t *testing.T) {
	db := openStore(t)
	importFixture(t, db, "full_v1.jsonl", "v1")
	a, err := ApplyFile(db, bytes.NewReader(readFixture(t, "delta_v1_v2.jsonl")), "v1", "v2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Added != 2 || a.Updated != 1 || a.Deleted != 1 || a.Ignored != 1 {
		t.Fatalf("Applied: %+v", a)
	}
	notes := map[string]string{}
	for _, c := range a.Changes {
		notes[c.ID] = c.Note
	}
	if notes["N1"] != store.NoteUpdateUnknown || notes["GONE"] != store.NoteDeleteUnknown {
		t.Fatalf("notes %v", notes)
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV2) {
		t.Fatalf("records %v", got)
	}
	// The update carried no listDate; the stored one stays.
	if s1, _ := db.Get("S1"); s1.ListDate != 1600000000000 || len(s1.AliasNames) != 1 {
		t.Fatalf("S1 after update: %+v", s1)
	}
	// The same delta again is refused by the version check.
	_, err = ApplyFile(db, bytes.NewReader(readFixture(t, "delta_v1_v2.jsonl")), "v1", "v2", nil)
	var vm *store.VersionMismatchError
	if !errors.As(err, &vm) {
		t.Fatalf("same delta twice: %v", err)
	}
}

func TestExportRoundTrip(t *testing.T) {
	src := openStore(t)
	importFixture(t, src, "full_v1.jsonl", "v1")
	for _, gz := range []bool{false, true} {
		var buf bytes.Buffer
		v, n, err := ExportFile(src, &buf, ExportOptions{Gzip: gz})
		if err != nil || v != "v1" || n != 4 {
			t.Fatalf("ExportFile: %q %d %v", v, n, err)
		}
		if gz != bytes.HasPrefix(buf.Bytes(), []byte{0x1f, 0x8b}) {
			t.Fatalf("gzip %v, output starts %x", gz, buf.Bytes()[:2])
		}
		dst := openStore(t)
		if _, err := ImportFile(dst, &buf, v, nil); err != nil {
			t.Fatal(err)
		}
		var want, got []string
		src.ForEachRecord(func(r *record.Record) error {
			want = append(want, string(r.Append(nil, record.WriteOptions{})))
			return nil
		})
		dst.ForEachRecord(func(r *record.Record) error {
			got = append(got, string(r.Append(nil, record.WriteOptions{})))
			return nil
		})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("export then import changed records:\n got %v\nwant %v", got, want)
		}
	}
	// A connected machine carries deltas to an air-gapped one.
	air := openStore(t)
	var full bytes.Buffer
	ExportFile(src, &full, ExportOptions{})
	ImportFile(air, &full, "v1", nil)
	ApplyFile(src, bytes.NewReader(readFixture(t, "delta_v1_v2.jsonl")), "v1", "v2", nil)
	ApplyFile(src, bytes.NewReader(readFixture(t, "delta_v2_v3.jsonl")), "v2", "v3", nil)
	var delta bytes.Buffer
	v, n, err := ExportDelta(src, &delta, "v1", ExportOptions{})
	if err != nil || v != "v3" || n != 5 {
		t.Fatalf("ExportDelta: %q %d %v\n%s", v, n, err, delta.String())
	}
	if _, err := ApplyFile(air, &delta, "v1", v, nil); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, air); !reflect.DeepEqual(got, wantV3) {
		t.Fatalf("air-gapped store %v, want %v", got, wantV3)
	}
	if _, _, err := ExportDelta(src, &delta, "v0", ExportOptions{}); !errors.Is(err, store.ErrUnknownVersion) {
		t.Fatalf("delta from an unknown version: %v", err)
	}
}
