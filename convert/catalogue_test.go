package convert

import (
	"slices"
	"testing"
)

// TestCatalogueCoversEverySource: every source a converter writes has an
// entry, once, with a name and a link.
func TestCatalogueCoversEverySource(t *testing.T) {
	want := []string{SourceOFACSDN, SourceOFACNonSDN, SourceUN, SourceBISDPL, SourceEUFSF, SourceUKSanctions, SourceOFSI}
	for _, l := range CSLLists {
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
