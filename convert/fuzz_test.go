package convert

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// The fuzz targets feed every list parser arbitrary bytes: each must
// return an error or records that pass the consolidated-file rules, and
// never panic. Their seeds (the fixtures) run in go test.

func fuzzSeed(f *testing.F, path string) {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// checkEmitted returns an emit that fails t on a record the rules refuse.
func checkEmitted(t *testing.T) func(*record.Record) error {
	return func(r *record.Record) error {
		if err := CheckRecord(r); err != nil {
			t.Fatalf("emitted a bad record: %v: %s", err, r.Append(nil, record.WriteOptions{}))
		}
		return nil
	}
}

func FuzzCSL(f *testing.F) {
	fuzzSeed(f, "testdata/csl/consolidated.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		CSL(bytes.NewReader(data), CSLOptions{}, checkEmitted(t))
	})
}

func FuzzDPL(f *testing.F) {
	fuzzSeed(f, "testdata/dpl/dpl.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		DPL(bytes.NewReader(data), "", checkEmitted(t))
	})
}

func FuzzSenzing(f *testing.F) {
	fuzzSeed(f, "testdata/senzing/senzing.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		Senzing(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, SenzingOptions{}, checkEmitted(t))
	})
}

func FuzzOFACEnhanced(f *testing.F) {
	fuzzSeed(f, "testdata/ofacxml/cons.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		OFACEnhanced(bytes.NewReader(data), NonSDNList(""), checkEmitted(t))
	})
}

func FuzzEU(f *testing.F) {
	fuzzSeed(f, "testdata/eu/fsf.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		EU(bytes.NewReader(data), checkEmitted(t))
	})
}

func FuzzUK(f *testing.F) {
	fuzzSeed(f, "testdata/uk/uk_sanctions_list.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		UK(bytes.NewReader(data), checkEmitted(t))
	})
}

func FuzzEUCSV(f *testing.F) {
	fuzzSeed(f, "testdata/eucsv/csvFullSanctionsList_1_1.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		EUCSV(bytes.NewReader(data), checkEmitted(t))
	})
}

func FuzzUKCSV(f *testing.F) {
	fuzzSeed(f, "testdata/ukcsv/UK-Sanctions-List.csv")
	fuzzSeed(f, "testdata/ukcsv/ConList.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		UKCSV(bytes.NewReader(data), checkEmitted(t))
	})
}

func FuzzOpenSanctionsDetect(f *testing.F) {
	fuzzSeed(f, "testdata/opensanctions/entities.ftm.json")
	fuzzSeed(f, "testdata/opensanctions/targets.simple.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		OpenSanctions(bytes.NewReader(data), OpenSanctionsOptions{}, checkEmitted(t))
	})
}
