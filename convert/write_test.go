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
		if err := emit(&record.Record{ID: "X-1", Name: "A"}); err != nil {
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
