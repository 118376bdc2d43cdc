package opensanctions

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestOpenSanctionsDetect checks that each export, plain or compressed, is
// read by its own converter, with the records that converter gives.
func TestOpenSanctionsDetect(t *testing.T) {
	for _, c := range []struct {
		file string
		conv func([]byte, func(*record.Record) error) error
	}{
		{"entities.ftm.json", func(b []byte, emit func(*record.Record) error) error {
			return FtM(bytes.NewReader(b), OpenSanctionsOptions{}, emit)
		}},
		{"targets.simple.csv", func(b []byte, emit func(*record.Record) error) error {
			return OpenSanctionsSimple(bytes.NewReader(b), OpenSanctionsOptions{}, emit)
		}},
	} {
		b, err := os.ReadFile("../testdata/opensanctions/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		want := convtest.Collect(t, func(emit func(*record.Record) error) error { return c.conv(b, emit) })
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(b)
		zw.Close()
		for name, in := range map[string][]byte{"plain": b, "gzip": gz.Bytes(), "leading space": append([]byte("\n  "), b...)} {
			got := convtest.Collect(t, func(emit func(*record.Record) error) error {
				return OpenSanctions(bytes.NewReader(in), OpenSanctionsOptions{}, emit)
			})
			if len(got) == 0 || len(got) != len(want) {
				t.Fatalf("%s %s: %d records, want %d", c.file, name, len(got), len(want))
			}
			for i := range want {
				convtest.WantRecord(t, got[i], want[i])
			}
		}
	}
	for _, c := range []struct{ name, in, want string }{
		{"empty", " \n", "empty"},
		{"bad json", "{\"id\": \n", "FtM entities line 1"},
		{"not the CSV", "a,b\n1,2\n", `no "id" column`},
		{"XML", "<?xml version=\"1.0\"?><export/>", "an XML file"},
	} {
		err := OpenSanctions(strings.NewReader(c.in), OpenSanctionsOptions{}, func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
