package batch

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// HistogramBuckets are the upper bounds of the hits-per-customer histogram:
// 0, 1, 2, 3–5, 6–10, 11–100 and more than 100 hits.
var HistogramBuckets = []int{0, 1, 2, 5, 10, 100}

// bucketLabels name the histogram's buckets, the last being open.
var bucketLabels = []string{"0", "1", "2", "3–5", "6–10", "11–100", "over 100"}

func bucketOf(hits int) int {
	for i, b := range HistogramBuckets {
		if hits <= b {
			return i
		}
	}
	return len(HistogramBuckets)
}

// Counts are what a run has done so far. They are kept in checkpoints, so
// a resumed run reports the whole book.
type Counts struct {
	// RowsRead counts the rows of this shard read: screened plus rejected.
	RowsRead     int64 `json:"rows_read"`
	RowsScreened int64 `json:"rows_screened"`
	RowsWithHits int64 `json:"rows_with_hits"`
	RowsRejected int64 `json:"rows_rejected"`
	// RowsOtherShards counts rows left to the other shards of --shard.
	RowsOtherShards int64 `json:"rows_other_shards"`
	// Hits counts the lines of the hits file; TotalHits counts every
	// matching record, including those beyond the per-customer limit.
	Hits      int64 `json:"hits"`
	TotalHits int64 `json:"total_hits"`
	// Suppressed counts the hits decisions suppressed (the lines of the
	// suppressed file); they are not in Hits, TotalHits, RowsWithHits or
	// HitsPerCustomer, which count what is left to review.
	Suppressed       int64            `json:"suppressed,omitempty"`
	HitsBySourceType map[string]int64 `json:"hits_by_source_type"`
	HitsBySource     map[string]int64 `json:"hits_by_source"`
	RejectsByField   map[string]int64 `json:"rejects_by_field"`
	// HitsPerCustomer is a histogram of the customers screened by their
	// total hits, over HistogramBuckets.
	HitsPerCustomer []int64 `json:"hits_per_customer"`
}

func (c *Counts) init() {
	if c.HitsBySourceType == nil {
		c.HitsBySourceType = map[string]int64{}
	}
	if c.HitsBySource == nil {
		c.HitsBySource = map[string]int64{}
	}
	if c.RejectsByField == nil {
		c.RejectsByField = map[string]int64{}
	}
	if len(c.HitsPerCustomer) != len(HistogramBuckets)+1 {
		c.HitsPerCustomer = append(c.HitsPerCustomer, make([]int64, len(HistogramBuckets)+1-len(c.HitsPerCustomer))...)
	}
}

// add folds in the counts of a later part of the book.
func (c *Counts) add(o *Counts) {
	c.init()
	c.RowsRead += o.RowsRead
	c.RowsScreened += o.RowsScreened
	c.RowsWithHits += o.RowsWithHits
	c.RowsRejected += o.RowsRejected
	c.RowsOtherShards += o.RowsOtherShards
	c.Hits += o.Hits
	c.TotalHits += o.TotalHits
	c.Suppressed += o.Suppressed
	for k, v := range o.HitsBySourceType {
		c.HitsBySourceType[k] += v
	}
	for k, v := range o.HitsBySource {
		c.HitsBySource[k] += v
	}
	for k, v := range o.RejectsByField {
		c.RejectsByField[k] += v
	}
	for i, v := range o.HitsPerCustomer {
		c.HitsPerCustomer[i] += v
	}
}

// count records the outcome of one row.
func (c *Counts) count(s *Screened) {
	c.init()
	c.RowsRead++
	if s.Reject != nil {
		c.RowsRejected++
		c.RejectsByField[s.Reject.Field]++
		return
	}
	c.RowsScreened++
	total := s.Total - len(s.Suppressed)
	if total > 0 {
		c.RowsWithHits++
	}
	c.TotalHits += int64(total)
	c.Suppressed += int64(len(s.Suppressed))
	c.HitsPerCustomer[bucketOf(total)]++
	for i := range s.Hits {
		c.Hits++
		c.HitsBySourceType[s.Hits[i].SourceType]++
		c.HitsBySource[s.Hits[i].SourceID]++
	}
}

// Summary describes a finished (or interrupted) run.
type Summary struct {
	Counts
	Input, Output, Rejects, Report string
	// SuppressedFile is the file of hits decisions suppressed; "" when
	// the run applied no decisions.
	SuppressedFile string
	// Database says what was screened against: origin and version.
	Database string
	Fuzzy    int
	// Match is the run's match mode, MinScore its threshold in scored
	// mode (the default filled in).
	Match    query.MatchMode
	MinScore float64
	Shard    Shard
	// Duration is the screening time of every run over this book, resumed
	// ones included; the loading of the database is not in it.
	Duration time.Duration
	// ResumedAt is the row a resumed run started from; 0 for a fresh run.
	ResumedAt int64
	// Interrupted is set when the run stopped before the end of the book.
	Interrupted bool
	// LinesRead counts the book's physical lines, BlankLines those that
	// were blank: every other line is the header or a row read (screened
	// or rejected), so the counts add up to the lines. Set when the run
	// finished.
	LinesRead, BlankLines int64
}

// RowsPerSecond is the rate over Duration.
func (s *Summary) RowsPerSecond() float64 {
	if s.Duration <= 0 {
		return 0
	}
	return float64(s.RowsRead) / s.Duration.Seconds()
}

// lineParts says what the lines read were: the header, rows, blank lines.
func (s *Summary) lineParts() string {
	rows := s.RowsRead + s.RowsOtherShards
	parts := []string{}
	if h := s.LinesRead - rows - s.BlankLines; h > 0 {
		parts = append(parts, fmt.Sprintf("%s header", num(h)))
	}
	parts = append(parts, fmt.Sprintf("%s rows", num(rows)))
	if s.BlankLines > 0 {
		parts = append(parts, fmt.Sprintf("%s blank, skipped", num(s.BlankLines)))
	}
	return strings.Join(parts, ", ")
}

type kv struct {
	k string
	v int64
}

// sortedCounts orders a count map by count, largest first, then by key.
func sortedCounts(m map[string]int64) []kv {
	out := make([]kv, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, kv{k, m[k]})
	}
	slices.SortStableFunc(out, func(a, b kv) int { return cmp.Compare(b.v, a.v) })
	return out
}

// WriteText prints the summary for a terminal: a few aligned lines.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	state := "done"
	if s.Interrupted {
		state = "interrupted"
	}
	fmt.Fprintf(&b, "batch %s: %s rows read in %s (%s rows/s)", state, num(s.RowsRead), s.Duration.Round(time.Millisecond), num(int64(s.RowsPerSecond())))
	if s.ResumedAt > 0 {
		fmt.Fprintf(&b, ", resumed at row %s", num(s.ResumedAt))
	}
	b.WriteString("\n")
	if s.LinesRead > 0 {
		fmt.Fprintf(&b, "  lines          %s (%s)\n", num(s.LinesRead), s.lineParts())
	}
	fmt.Fprintf(&b, "  screened       %s\n", num(s.RowsScreened))
	fmt.Fprintf(&b, "  with hits      %s (%s)\n", num(s.RowsWithHits), pct(s.RowsWithHits, s.RowsScreened))
	fmt.Fprintf(&b, "  hits           %s", num(s.Hits))
	if types := sortedCounts(s.HitsBySourceType); len(types) > 0 {
		var parts []string
		for _, t := range types {
			parts = append(parts, fmt.Sprintf("%s %s", t.k, num(t.v)))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	b.WriteString("\n")
	if s.SuppressedFile != "" {
		fmt.Fprintf(&b, "  suppressed     %s (decided false positive, record unchanged): %s\n", num(s.Suppressed), s.SuppressedFile)
	}
	fmt.Fprintf(&b, "  rejected       %s", num(s.RowsRejected))
	if f := sortedCounts(s.RejectsByField); len(f) > 0 {
		var parts []string
		for _, t := range f {
			parts = append(parts, fmt.Sprintf("%s %s", t.k, num(t.v)))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	b.WriteString("\n")
	if s.Shard.N > 1 {
		fmt.Fprintf(&b, "  other shards   %s (shard %s)\n", num(s.RowsOtherShards), s.Shard)
	}
	if s.Output != "" {
		fmt.Fprintf(&b, "  hits file      %s\n", s.Output)
	}
	if s.Rejects != "" {
		fmt.Fprintf(&b, "  rejects file   %s\n", s.Rejects)
	}
	if s.Report != "" {
		fmt.Fprintf(&b, "  report         %s\n", s.Report)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// topSources is how many sources the report lists.
const topSources = 15

// WriteMarkdown writes the report: what ran, the counts, the sources with
// most hits and the histogram of hits per customer.
func (s *Summary) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Batch screening report\n\n")
	if s.Interrupted {
		b.WriteString("**The run was interrupted; these counts cover the rows screened so far.**\n\n")
	}
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(&b, "| %s | %s |\n", k, mdCell(v)) }
	row("Customer book", s.Input)
	row("Database", s.Database)
	row("Fuzzy", fmt.Sprint(s.Fuzzy))
	if s.Match == query.Scored {
		row("Match", fmt.Sprintf("scored, min score %v", s.MinScore))
	} else {
		row("Match", "strict")
	}
	if s.Shard.N > 1 {
		row("Shard", s.Shard.String())
	}
	row("Hits file", s.Output)
	row("Rejects file", s.Rejects)
	if s.SuppressedFile != "" {
		row("Suppressed hits file", s.SuppressedFile)
	}
	b.WriteString("\n## Counts\n\n| | |\n|---|---:|\n")
	if s.LinesRead > 0 {
		row("Lines read", num(s.LinesRead)+" ("+s.lineParts()+")")
	}
	row("Rows read", num(s.RowsRead))
	row("Rows screened", num(s.RowsScreened))
	row("Rows with hits", num(s.RowsWithHits)+" ("+pct(s.RowsWithHits, s.RowsScreened)+")")
	row("Hits written", num(s.Hits))
	if s.TotalHits != s.Hits {
		row("Hits in total (beyond the per-customer limit too)", num(s.TotalHits))
	}
	if s.SuppressedFile != "" {
		row("Hits suppressed by decisions", num(s.Suppressed))
	}
	row("Rows rejected", num(s.RowsRejected))
	if s.Shard.N > 1 {
		row("Rows of other shards", num(s.RowsOtherShards))
	}
	row("Screening time", s.Duration.Round(time.Millisecond).String())
	row("Rows per second", num(int64(s.RowsPerSecond())))
	if s.ResumedAt > 0 {
		row("Resumed at row", num(s.ResumedAt))
	}

	if types := sortedCounts(s.HitsBySourceType); len(types) > 0 {
		b.WriteString("\n## Hits by source type\n\n| source type | hits |\n|---|---:|\n")
		for _, t := range types {
			fmt.Fprintf(&b, "| %s | %s |\n", mdCell(t.k), num(t.v))
		}
	}
	if srcs := sortedCounts(s.HitsBySource); len(srcs) > 0 {
		fmt.Fprintf(&b, "\n## Top sources\n\n| source | hits | share |\n|---|---:|---:|\n")
		for i, t := range srcs {
			if i == topSources {
				fmt.Fprintf(&b, "| %d more | | |\n", len(srcs)-topSources)
				break
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(t.k), num(t.v), pct(t.v, s.Hits))
		}
	}
	if f := sortedCounts(s.RejectsByField); len(f) > 0 {
		b.WriteString("\n## Rejected rows by field\n\n| field | rows |\n|---|---:|\n")
		for _, t := range f {
			fmt.Fprintf(&b, "| %s | %s |\n", mdCell(t.k), num(t.v))
		}
	}
	b.WriteString("\n## Hits per customer\n\n| hits | customers | |\n|---|---:|---|\n")
	var most int64
	for _, v := range s.HitsPerCustomer {
		most = max(most, v)
	}
	for i, v := range s.HitsPerCustomer {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", bucketLabels[i], num(v), bar(v, most, 40))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bar draws v against most in up to width blocks, with at least one for any
// non-zero count so that rare buckets stay visible.
func bar(v, most int64, width int) string {
	if v == 0 || most == 0 {
		return ""
	}
	n := max(1, int(v*int64(width)/most))
	return strings.Repeat("█", n)
}

func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func pct(a, b int64) string {
	if b == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(a)/float64(b))
}

// num writes n with thousands separators: counts of millions stay readable.
func num(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
