package convert

import (
	"bytes"
	"os"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestAnyFormat checks that the EU and UK readers of either format are
// chosen by content.
func TestAnyFormat(t *testing.T) {
	for _, c := range []struct {
		file, first string
		n           int
		conv        func([]byte, func(*record.Record) error) error
	}{
		{"eu/fsf.xml", "EU-9001", 2, func(b []byte, emit func(*record.Record) error) error { return EUAnyFormat(bytes.NewReader(b), emit) }},
		{"eucsv/csvFullSanctionsList_1_1.csv", "EU-9001", 2, func(b []byte, emit func(*record.Record) error) error { return EUAnyFormat(bytes.NewReader(b), emit) }},
		{"uk/uk_sanctions_list.xml", "UK-RUS9001", 3, func(b []byte, emit func(*record.Record) error) error { return UKAnyFormat(bytes.NewReader(b), emit) }},
		{"ukcsv/UK-Sanctions-List.csv", "UK-RUS9001", 3, func(b []byte, emit func(*record.Record) error) error { return UKAnyFormat(bytes.NewReader(b), emit) }},
		{"ukcsv/ConList.csv", "OFSI-99001", 2, func(b []byte, emit func(*record.Record) error) error { return UKAnyFormat(bytes.NewReader(b), emit) }},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return c.conv(b, emit) })
		if len(recs) != c.n || recs[0].ID != c.first {
			t.Errorf("%s: %d records, first %v; want %d, first %s", c.file, len(recs), recs[0].ID, c.n, c.first)
		}
	}
}
