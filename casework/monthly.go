package casework

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/amlscreen/amlscreen/internal/csvsafe"
)

// MonthSummary is the casework of one calendar month (UTC): how many
// alerts were opened and closed, the closures by outcome and by reviewer,
// and how long closing took.
type MonthSummary struct {
	Month string `json:"month"` // 2026-11
	// Opened counts alerts created in the month; Closed alerts whose
	// closure was approved in it (whenever they were opened).
	Opened int `json:"opened"`
	Closed int `json:"closed"`
	// OpenAtEnd counts alerts created before the month's end and not
	// closed by then, as the store holds them now.
	OpenAtEnd int `json:"open_at_end"`
	// ByOutcome counts the month's closures by outcome; ByReviewer by
	// who approved them (the proposer when four eyes were off).
	ByOutcome  map[string]int `json:"by_outcome"`
	ByReviewer map[string]int `json:"by_reviewer"`
	// MedianHoursToClose is the median of (approved − created) over the
	// month's closures, in hours; 0 when none closed.
	MedianHoursToClose float64 `json:"median_hours_to_close"`
}

// ParseMonth reads a month as YYYY-MM and returns its first instant in
// UTC.
func ParseMonth(s string) (time.Time, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return time.Time{}, &FieldError{Field: "month", Msg: fmt.Sprintf("%q is not a month as YYYY-MM", s)}
	}
	return t.UTC(), nil
}

// Month summarises the alerts of the month starting at start (UTC), from
// one read of the alerts.
func (c *Casework) Month(start time.Time) (*MonthSummary, error) {
	start = time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	m := &MonthSummary{Month: start.Format("2006-01"), ByOutcome: map[string]int{}, ByReviewer: map[string]int{}}
	var hours []float64
	err := c.EachAlert(Filter{}, func(a *Alert) error {
		if !a.Created.Before(start) && a.Created.Before(end) {
			m.Opened++
		}
		closedBy := a.Status == Closed && a.Closure != nil && a.Closure.ApprovedAt.Before(end)
		if a.Created.Before(end) && !closedBy {
			m.OpenAtEnd++
		}
		if a.Status != Closed || a.Closure == nil {
			return nil
		}
		at := a.Closure.ApprovedAt
		if at.Before(start) || !at.Before(end) {
			return nil
		}
		m.Closed++
		m.ByOutcome[a.Closure.Outcome]++
		m.ByReviewer[a.Closure.ApprovedBy]++
		hours = append(hours, at.Sub(a.Created).Hours())
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n := len(hours); n > 0 {
		slices.Sort(hours)
		if n%2 == 1 {
			m.MedianHoursToClose = hours[n/2]
		} else {
			m.MedianHoursToClose = (hours[n/2-1] + hours[n/2]) / 2
		}
	}
	return m, nil
}

// MonthColumns are the columns of WriteMonthCSV.
var MonthColumns = []string{"month", "measure", "key", "value"}

// MonthRows returns m as rows of MonthColumns, one measure a row:
// opened, closed, open_at_end, median_hours_to_close, then closed_by_outcome
// and closed_by_reviewer with the outcome or reviewer as key, sorted.
func MonthRows(m *MonthSummary) [][]string {
	rows := [][]string{
		{m.Month, "opened", "", strconv.Itoa(m.Opened)},
		{m.Month, "closed", "", strconv.Itoa(m.Closed)},
		{m.Month, "open_at_end", "", strconv.Itoa(m.OpenAtEnd)},
		{m.Month, "median_hours_to_close", "", strconv.FormatFloat(m.MedianHoursToClose, 'f', 2, 64)},
	}
	for _, g := range []struct {
		measure string
		m       map[string]int
	}{{"closed_by_outcome", m.ByOutcome}, {"closed_by_reviewer", m.ByReviewer}} {
		keys := make([]string, 0, len(g.m))
		for k := range g.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			rows = append(rows, []string{m.Month, g.measure, k, strconv.Itoa(g.m[k])})
		}
	}
	return rows
}

// WriteMonthCSV writes m as CSV: a header of MonthColumns and MonthRows,
// cells quoted by package csvsafe.
func WriteMonthCSV(w io.Writer, m *MonthSummary) error {
	cw := csvsafe.NewWriter(w)
	if err := cw.Write(MonthColumns); err != nil {
		return err
	}
	for _, r := range MonthRows(m) {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
