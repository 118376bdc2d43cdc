package convert

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

func fixtureConverter(emit func(*record.Record) error) error { return OFAC("testdata/ofac", emit) }

func TestWriteFileRoundTrip(t *testing.T) {
	want := collect(t, fixtureConverter)
	for _, name := range []string{"out.jsonl", "out.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			n, err := WriteFile(path, fixtureConverter)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(want) {
				t.Fatalf("wrote %d records, want %d", n, len(want))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if gz := bytes.HasPrefix(data, []byte{0x1f, 0x8b}); gz != strings.HasSuffix(name, ".gz") {
				t.Fatalf("gzip = %v for %s", gz, name)
			}
			got, err := record.ReadAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				wantRecord(t, got[i], want[i])
			}
			if !strings.HasSuffix(name, ".gz") && !bytes.Contains(data, []byte(`"sourceId":"us_ofac_sdn"`)) {
				t.Errorf("keys are not camelCase: %.200s", data)
			}
		})
	}
}

func TestWriteFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl.gz")
	boom := errors.New("boom")
	_, err := WriteFile(path, func(emit func(*record.Record) error) error {
		if err := emit(&record.Record{ID: "X-1", SourceID: "x", Name: "A"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error = %v, want boom", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("directory holds %v after a failed conversion, want nothing", entries)
	}
}

func TestWriteRefusesBadRecords(t *testing.T) {
	ok := record.Record{ID: "X-1", SourceID: "x", Name: "A"}
	cases := []struct {
		name string
		recs []record.Record
		want string
	}{
		{"duplicate id", []record.Record{ok, ok}, "comes twice"},
		{"space in id", []record.Record{{ID: "X 1", SourceID: "x", Name: "A"}}, "ids are"},
		{"id too long", []record.Record{{ID: strings.Repeat("a", MaxIDLen+1), SourceID: "x", Name: "A"}}, "ids are"},
		{"no source", []record.Record{{ID: "X-1", Name: "A"}}, "no source_id"},
		{"no name", []record.Record{{ID: "X-1", SourceID: "x", Name: " "}}, "no name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := WriteJSONL(&buf, false, func(emit func(*record.Record) error) error {
				for i := range c.recs {
					if err := emit(&c.recs[i]); err != nil {
						return err
					}
				}
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want one saying %q", err, c.want)
			}
		})
	}
}
