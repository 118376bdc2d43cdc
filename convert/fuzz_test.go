package convert

import (
	"bytes"
	"io"
	"testing"

	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/opensanctions"
	"github.com/amlscreen/amlscreen/convert/uk"
)

// The fuzz targets feed every list parser arbitrary bytes: each must
// return an error or records that pass the consolidated-file rules, and
// never panic. Their seeds (the fixtures) run in go test.

func FuzzCSL(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/csl/consolidated.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		csl.CSL(bytes.NewReader(data), csl.CSLOptions{}, convtest.CheckEmitted(t))
	})
}

func FuzzDPL(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/dpl/dpl.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		dpl.DPL(bytes.NewReader(data), "", convtest.CheckEmitted(t))
	})
}

func FuzzSenzing(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/senzing/senzing.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		opensanctions.Senzing(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, opensanctions.SenzingOptions{}, convtest.CheckEmitted(t))
	})
}

func FuzzOFACEnhanced(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/ofacxml/cons.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		ofac.OFACEnhanced(bytes.NewReader(data), ofac.NonSDNList(""), convtest.CheckEmitted(t))
	})
}

func FuzzEU(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/eu/fsf.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		eu.EU(bytes.NewReader(data), convtest.CheckEmitted(t))
	})
}

func FuzzUK(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/uk/uk_sanctions_list.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		uk.UK(bytes.NewReader(data), convtest.CheckEmitted(t))
	})
}

func FuzzEUCSV(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/eucsv/csvFullSanctionsList_1_1.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		eu.EUCSV(bytes.NewReader(data), convtest.CheckEmitted(t))
	})
}

func FuzzUKCSV(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/ukcsv/UK-Sanctions-List.csv")
	convtest.FuzzSeed(f, "testdata/ukcsv/ConList.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		uk.UKCSV(bytes.NewReader(data), convtest.CheckEmitted(t))
	})
}

func FuzzOpenSanctionsDetect(f *testing.F) {
	convtest.FuzzSeed(f, "testdata/opensanctions/entities.ftm.json")
	convtest.FuzzSeed(f, "testdata/opensanctions/targets.simple.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		opensanctions.OpenSanctions(bytes.NewReader(data), opensanctions.OpenSanctionsOptions{}, convtest.CheckEmitted(t))
	})
}
