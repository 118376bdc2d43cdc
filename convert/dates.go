package convert

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Dates of birth are written as the service writes them: dd/mm/yyyy with 00
// for an unknown day or month. Lists give vaguer dates than that ("circa
// 1960", "1960 to 1962", "Mar 1960"); the rules below keep what is known
// and let the dob filter treat the rest as unknown.

const (
	minYear = 1800
	maxYear = 2100
	// maxRangeYears bounds how many years a range expands into. A wider
	// range says little; it is kept as a remark only, so the record has no
	// date to exclude it by.
	maxRangeYears = 15
)

// ymd is a calendar date with 0 for an unknown day or month.
type ymd struct{ y, m, d int }

func (v ymd) String() string { return fmt.Sprintf("%02d/%02d/%04d", v.d, v.m, v.y) }

// valid reports whether v is a date the service's format can carry: a year
// in range, a month when there is a day, and a day that exists in its month.
func (v ymd) valid() bool {
	if v.y < minYear || v.y > maxYear || v.m < 0 || v.m > 12 || v.d < 0 || v.d > 31 {
		return false
	}
	if v.d == 0 {
		return true
	}
	if v.m == 0 {
		return false
	}
	t := time.Date(v.y, time.Month(v.m), v.d, 0, 0, 0, 0, time.UTC)
	return t.Day() == v.d
}

var monthNames = [...]string{"january", "february", "march", "april", "may", "june",
	"july", "august", "september", "october", "november", "december"}

// monthOf reads an English month name, full or abbreviated to three letters
// or more, with or without a dot ("Mar", "Sept.", "July"); 0 when s is none.
func monthOf(s string) int {
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	if len(s) < 3 {
		return 0
	}
	for i, n := range monthNames {
		if strings.HasPrefix(n, s) {
			return i + 1
		}
	}
	return 0
}

func atoiLen(s string, min, max int) (int, bool) {
	if len(s) < min || len(s) > max {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

var isoDate = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)

// parseDate reads one date in the shapes the lists use: "12 Mar 1960",
// "Mar 1960", "1960", "12 March 1960", "Nov. 1973" and ISO "1960-03-12"
// (where 00 parts are unknown). Slash dates are refused on purpose: the
// UN list writes Hijri dates that way.
func parseDate(s string) (ymd, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ","))
	if m := isoDate.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		v := ymd{y, mo, d}
		return v, v.valid()
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	var v ymd
	switch len(f) {
	case 1:
		y, ok := atoiLen(f[0], 4, 4)
		if !ok {
			return ymd{}, false
		}
		v = ymd{y: y}
	case 2:
		m := monthOf(f[0])
		y, ok := atoiLen(f[1], 4, 4)
		if m == 0 || !ok {
			return ymd{}, false
		}
		v = ymd{y: y, m: m}
	case 3:
		d, ok1 := atoiLen(f[0], 1, 2)
		m := monthOf(f[1])
		y, ok2 := atoiLen(f[2], 4, 4)
		if !ok1 || m == 0 || !ok2 || d == 0 {
			return ymd{}, false
		}
		v = ymd{y: y, m: m, d: d}
	default:
		return ymd{}, false
	}
	return v, v.valid()
}

// expandRange turns a range of dates into the dates the dob filter should
// accept: the date itself when both ends agree, the month when the range
// lies within one month, else every year from the first to the last.
func expandRange(a, b ymd) []string {
	if a == b {
		return []string{a.String()}
	}
	if a.y > b.y || (a.y == b.y && a.m > b.m && b.m != 0) {
		return nil
	}
	if a.y == b.y && a.m == b.m && a.m != 0 {
		return []string{ymd{y: a.y, m: a.m}.String()}
	}
	if b.y-a.y+1 > maxRangeYears {
		return nil
	}
	out := make([]string, 0, b.y-a.y+1)
	for y := a.y; y <= b.y; y++ {
		out = append(out, ymd{y: y}.String())
	}
	return out
}

var (
	yearSpan   = regexp.MustCompile(`^(\d{4})\s*-\s*(\d{4})$`)
	approxWord = regexp.MustCompile(`(?i)^(circa|approximately|approx\.?|about|ca\.|c\.)\s+`)
)

// parseDOB reads a date-of-birth phrase: a date, "circa <date>", "<date> to
// <date>", "1979-1982", "circa 1979-1982". It returns the dates in the
// service's format and, for approximate dates and ranges, the phrase as
// given so the vagueness is not lost; dates is empty when the phrase says
// no date this package can write, and the caller keeps it as a remark.
func parseDOB(s string) (dates []string, remark string) {
	s = strings.TrimSpace(s)
	body := s
	approx := false
	if m := approxWord.FindStringIndex(body); m != nil {
		approx = true
		body = strings.TrimSpace(body[m[1]:])
	}
	if from, to, ok := strings.Cut(body, " to "); ok {
		a, ok1 := parseDate(from)
		b, ok2 := parseDate(to)
		if ok1 && ok2 {
			dates = expandRange(a, b)
		}
		return dates, s
	}
	if m := yearSpan.FindStringSubmatch(body); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if x, y := (ymd{y: a}), (ymd{y: b}); x.valid() && y.valid() {
			dates = expandRange(x, y)
		}
		return dates, s
	}
	v, ok := parseDate(body)
	if !ok {
		return nil, s
	}
	if approx {
		return []string{v.String()}, s
	}
	return []string{v.String()}, ""
}
