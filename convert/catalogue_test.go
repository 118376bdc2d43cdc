package convert

import (
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/uk"
	"github.com/amlscreen/amlscreen/convert/un"
)

// TestCatalogueCoversEverySource: every source a converter writes has an
// entry, once, with a name and a link.
func TestCatalogueCoversEverySource(t *testing.T) {
	want := []string{ofac.SourceOFACSDN, ofac.SourceOFACNonSDN, un.SourceUN, dpl.SourceBISDPL, eu.SourceEUFSF, uk.SourceUKSanctions, uk.SourceOFSI}
	for _, l := range csl.CSLLists {
		want = append(want, l.SourceID)
	}
	seen := map[string]bool{}
	for _, e := range Catalogue() {
		if seen[e.Source] {
			t.Errorf("%s listed twice", e.Source)
		}
		seen[e.Source] = true
		if e.Name == "" || e.Link == "" || e.SourceType != "sanction" || e.IssuerName == "" {
			t.Errorf("%s: incomplete entry %+v", e.Source, e)
		}
		if !slices.Contains(want, e.Source) {
			t.Errorf("%s is no source of a converter", e.Source)
		}
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("no entry for %s", id)
		}
	}
}
