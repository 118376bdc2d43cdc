package query

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Date is a possibly partial date packed as year<<9 | month<<5 | day, where
// 0 in a component means unknown. A zero Date is wholly unknown. It is a
// number so that the matcher can keep one per record without allocation.
type Date uint32

// NewDate packs year y, month m and day d; 0 means unknown.
func NewDate(y, m, d int) Date { return Date(y<<9 | m<<5 | d) }

// Year returns the year, 0 when unknown.
func (d Date) Year() int { return int(d >> 9) }

// Month returns the month, 0 when unknown.
func (d Date) Month() int { return int(d>>5) & 0xf }

// Day returns the day of the month, 0 when unknown.
func (d Date) Day() int { return int(d) & 0x1f }

// Agrees reports whether two partial dates agree on every component that
// both know.
func (d Date) Agrees(o Date) bool {
	return agree(d.Year(), o.Year()) && agree(d.Month(), o.Month()) && agree(d.Day(), o.Day())
}

func agree(a, b int) bool { return a == 0 || b == 0 || a == b }

// ParseQueryDate reads the dob parameter: exactly dd/mm/yyyy, where dd and
// mm may be 00 for unknown; the year must be known and the day must exist
// in its month.
func ParseQueryDate(s string) (Date, error) {
	if len(s) != 10 || s[2] != '/' || s[5] != '/' {
		return 0, fmt.Errorf("%s is not dd/mm/yyyy", QuoteValue(s))
	}
	d, err1 := strconv.Atoi(s[0:2])
	m, err2 := strconv.Atoi(s[3:5])
	y, err3 := strconv.Atoi(s[6:10])
	if err := errors.Join(err1, err2, err3); err != nil || !digits(s[0:2]) || !digits(s[3:5]) || !digits(s[6:10]) {
		return 0, fmt.Errorf("%q is not dd/mm/yyyy", s)
	}
	if y == 0 {
		return 0, fmt.Errorf("%q has no year", s)
	}
	if m > 12 {
		return 0, fmt.Errorf("%q: month %d does not exist", s, m)
	}
	if d > daysIn(m, y) {
		return 0, fmt.Errorf("%q: day %d does not exist", s, d)
	}
	return NewDate(y, m, d), nil
}

// daysIn returns the most days month m of year y can have; 31 when the
// month is unknown.
func daysIn(m, y int) int {
	if m == 0 {
		return 31
	}
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ParseRecordDate reads a record's date_of_birth entry leniently: dd/mm/yyyy
// (one- or two-digit parts, 00 unknown), mm/yyyy, yyyy, yyyy-mm-dd and
// yyyy-mm. Parts it cannot read are unknown, so "circa 1960" agrees with
// every query date (docs/MATCHING.md "Filters").
func ParseRecordDate(s string) Date {
	s = strings.TrimSpace(s)
	var parts []string
	iso := strings.Contains(s, "-")
	if iso {
		parts = strings.Split(s, "-")
	} else {
		parts = strings.Split(s, "/")
	}
	num := func(p string, max int) int {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n > max {
			return 0
		}
		return n
	}
	switch {
	case iso && len(parts) == 3:
		return NewDate(num(parts[0], 9999), num(parts[1], 12), num(parts[2], 31))
	case iso && len(parts) == 2:
		return NewDate(num(parts[0], 9999), num(parts[1], 12), 0)
	case len(parts) == 3:
		return NewDate(num(parts[2], 9999), num(parts[1], 12), num(parts[0], 31))
	case len(parts) == 2:
		return NewDate(num(parts[1], 9999), num(parts[0], 12), 0)
	case len(parts) == 1:
		return NewDate(num(parts[0], 9999), 0, 0)
	}
	return 0
}

// DOBAllows reports whether a record with date_of_birth entries dobs
// passes the query date q. Records without a date of birth pass, and
// records with one date that agrees with q.
func DOBAllows(q Date, dobs []string) bool {
	if len(dobs) == 0 {
		return true
	}
	for _, s := range dobs {
		if ParseRecordDate(s).Agrees(q) {
			return true
		}
	}
	return false
}
