package conv

import (
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// wantRecord fails t when got and want differ, showing both as JSON.
func wantRecord(t *testing.T, got, want *record.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("record differs\n got: %s\nwant: %s",
			got.Append(nil, record.WriteOptions{}), want.Append(nil, record.WriteOptions{}))
	}
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
	if !(Ymd{Y: y, M: mo, D: d}).Valid() {
		return errors.New("no such date")
	}
	return nil
}
