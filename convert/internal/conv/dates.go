package conv

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

// Ymd is a calendar date with 0 for an unknown day or month.
type Ymd struct{ Y, M, D int }

func (v Ymd) String() string { return fmt.Sprintf("%02d/%02d/%04d", v.D, v.M, v.Y) }

// Valid reports whether v is a date the service's format can carry: a year
// in range, a month when there is a day, and a day that exists in its month.
func (v Ymd) Valid() bool {
	if v.Y < minYear || v.Y > maxYear || v.M < 0 || v.M > 12 || v.D < 0 || v.D > 31 {
		return false
	}
	if v.D == 0 {
		return true
	}
	if v.M == 0 {
		return false
	}
	t := time.Date(v.Y, time.Month(v.M), v.D, 0, 0, 0, 0, time.UTC)
	return t.Day() == v.D
}

var monthNames = [...]string{"january", "february", "march", "april", "may", "june",
	"july", "august", "september", "october", "november", "december"}

// MonthOf reads an English month name, full or abbreviated to three letters
// or more, with or without a dot ("Mar", "Sept.", "July"); 0 when s is none.
func MonthOf(s string) int {
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

// AtoiLen reads s as a decimal number of min to max digits; ok is false
// for anything else.
func AtoiLen(s string, min, max int) (int, bool) {
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

// ParseDate reads one date in the shapes the lists use: "12 Mar 1960",
// "Mar 1960", "1960", "12 March 1960", "Nov. 1973" and ISO "1960-03-12"
// (where 00 parts are unknown). Slash dates are refused on purpose: the
// UN list writes Hijri dates that way.
func ParseDate(s string) (Ymd, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ","))
	if m := isoDate.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		v := Ymd{y, mo, d}
		return v, v.Valid()
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	var v Ymd
	switch len(f) {
	case 1:
		y, ok := AtoiLen(f[0], 4, 4)
		if !ok {
			return Ymd{}, false
		}
		v = Ymd{Y: y}
	case 2:
		m := MonthOf(f[0])
		y, ok := AtoiLen(f[1], 4, 4)
		if m == 0 || !ok {
			return Ymd{}, false
		}
		v = Ymd{Y: y, M: m}
	case 3:
		d, ok1 := AtoiLen(f[0], 1, 2)
		m := MonthOf(f[1])
		y, ok2 := AtoiLen(f[2], 4, 4)
		if !ok1 || m == 0 || !ok2 || d == 0 {
			return Ymd{}, false
		}
		v = Ymd{Y: y, M: m, D: d}
	default:
		return Ymd{}, false
	}
	return v, v.Valid()
}

// ExpandRange turns a range of dates into the dates the dob filter should
// accept: the date itself when both ends agree, the month when the range
// lies within one month, else every year from the first to the last.
func ExpandRange(a, b Ymd) []string {
	if a == b {
		return []string{a.String()}
	}
	if a.Y > b.Y || (a.Y == b.Y && a.M > b.M && b.M != 0) {
		return nil
	}
	if a.Y == b.Y && a.M == b.M && a.M != 0 {
		return []string{Ymd{Y: a.Y, M: a.M}.String()}
	}
	if b.Y-a.Y+1 > maxRangeYears {
		return nil
	}
	out := make([]string, 0, b.Y-a.Y+1)
	for y := a.Y; y <= b.Y; y++ {
		out = append(out, Ymd{Y: y}.String())
	}
	return out
}

var (
	yearSpan = regexp.MustCompile(`^(\d{4})\s*-\s*(\d{4})$`)
	// ApproxWord matches the word that makes a date approximate (circa,
	// about, ...) at the start of a value.
	ApproxWord = regexp.MustCompile(`(?i)^(circa|approximately|approx\.?|about|ca\.|c\.)\s+`)
)

// ParseDOB reads a date-of-birth phrase: a date, "circa <date>", "<date> to
// <date>", "1979-1982", "circa 1979-1982". It returns the dates in the
// service's format and, for approximate dates and ranges, the phrase as
// given so the vagueness is not lost; dates is empty when the phrase says
// no date this package can write, and the caller keeps it as a remark.
func ParseDOB(s string) (dates []string, remark string) {
	s = strings.TrimSpace(s)
	body := s
	approx := false
	if m := ApproxWord.FindStringIndex(body); m != nil {
		approx = true
		body = strings.TrimSpace(body[m[1]:])
	}
	if from, to, ok := strings.Cut(body, " to "); ok {
		a, ok1 := ParseDate(from)
		b, ok2 := ParseDate(to)
		if ok1 && ok2 {
			dates = ExpandRange(a, b)
		}
		return dates, s
	}
	if m := yearSpan.FindStringSubmatch(body); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if x, y := (Ymd{Y: a}), (Ymd{Y: b}); x.Valid() && y.Valid() {
			dates = ExpandRange(x, y)
		}
		return dates, s
	}
	v, ok := ParseDate(body)
	if !ok {
		return nil, s
	}
	if approx {
		return []string{v.String()}, s
	}
	return []string{v.String()}, ""
}
