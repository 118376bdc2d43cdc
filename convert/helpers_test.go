package convert

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// wantRecord fails t when got and want differ, showing both as JSON so that
// the differing attribute is easy to spot.
func wantRecord(t *testing.T, got, want *record.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("record differs\n got: %s\nwant: %s",
			got.Append(nil, record.WriteOptions{}), want.Append(nil, record.WriteOptions{}))
	}
}

// collect runs a converter and returns its records by id, in order.
func collect(t *testing.T, conv Converter) []*record.Record {
	t.Helper()
	var out []*record.Record
	if err := conv(func(r *record.Record) error {
		out = append(out, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

var dateShape = regexp.MustCompile(`^(\d\d)/(\d\d)/(\d{4})$`)

// checkDate reports whether s is a date of birth the service accepts in a
// record: dd/mm/yyyy, 00 for unknown parts, a day only with a month, and a
// day that exists.
func checkDate(s string) error {
	m := dateShape.FindStringSubmatch(s)
	if m == nil {
		return errors.New("not dd/mm/yyyy")
	}
	d, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	if !(ymd{y: y, m: mo, d: d}).valid() {
		return errors.New("no such date")
	}
	return nil
}

// sharedLists finds ../shared/lists next to the repository root (the
// directory holding go.mod), or skips t: the real lists are read at run
// time and never committed.
func sharedLists(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory; cannot locate ../shared/lists")
		}
		dir = parent
	}
	lists := filepath.Join(dir, "..", "shared", "lists")
	if _, err := os.Stat(filepath.Join(lists, "sdn.csv")); err != nil {
		t.Skipf("real lists not available (%s): %v", lists, err)
	}
	return lists
}

// OFAC converts the SDN list in dir (see SDNList), as the CLI's
// "convert ofac" does.
func OFAC(dir string, emit func(*record.Record) error) error {
	return ConvertOFAC(SDNList(dir), emit)
}
