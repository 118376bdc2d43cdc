package lists

import (
	"context"
	"testing"
)

// TestFormatLists fetches the lists whose fixtures were written from the
// issuers' published CSV schemas (no real edition was at hand) from a
// local server, into a fresh store each.
func TestFormatLists(t *testing.T) {
	for _, c := range []struct {
		list, dir string
		records   int
	}{
		{"eu-csv", "../convert/testdata/eucsv", 2},
		{"uk-csv", "../convert/testdata/ukcsv", 3},
		{"uk-ofsi", "../convert/testdata/ukcsv", 2},
	} {
		s := newListServer(t)
		s.addDir(t, c.dir)
		res := s.fetcher().Fetch(context.Background(), openStore(t), mustResolve(t, c.list))
		checkOK(t, res)
		if res[0].Records != c.records {
			t.Errorf("%s: %+v, want %d records", c.list, res[0], c.records)
		}
	}
}
