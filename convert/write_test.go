package convert

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func fixtureConverter(emit func(*record.Record) error) error {
	return convertSDN("testdata/ofac", emit)
}

func TestWriteJSONLRoundTrip(t *testing.T) {
	want := convtest.Collect(t, fixtureConverter)
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			var buf bytes.Buffer
			n, err := conv.WriteJSONL(&buf, gz, fixtureConverter)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(want) {
				t.Fatalf("wrote %d records, want %d", n, len(want))
			}
			data := buf.Bytes()
			if isGz := bytes.HasPrefix(data, []byte{0x1f, 0x8b}); isGz != gz {
				t.Fatalf("gzip = %v, want %v", isGz, gz)
			}
			got, err := record.ReadAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				convtest.WantRecord(t, got[i], want[i])
			}
			if !gz && !bytes.Contains(data, []byte(`"sourceId":"us_ofac_sdn"`)) {
				t.Errorf("keys are not camelCase: %.200s", data)
			}
		})
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
		{"id too long", []record.Record{{ID: strings.Repeat("a", conv.MaxIDLen+1), SourceID: "x", Name: "A"}}, "ids are"},
		{"no source", []record.Record{{ID: "X-1", Name: "A"}}, "no source_id"},
		{"no name", []record.Record{{ID: "X-1", SourceID: "x", Name: " "}}, "no name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := conv.WriteJSONL(&buf, false, func(emit func(*record.Record) error) error {
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
