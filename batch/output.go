package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/internal/csvsafe"
)

// OutputFormat is the shape of the hits file.
type OutputFormat uint8

const (
	// CSVOutput writes a header row and one comma-separated row per hit.
	CSVOutput OutputFormat = iota
	// JSONLOutput writes one JSON object per hit, keys as in the CSV header.
	JSONLOutput
)

// String returns the name ParseOutputFormat reads.
func (f OutputFormat) String() string {
	if f == JSONLOutput {
		return "jsonl"
	}
	return "csv"
}

// ParseOutputFormat reads csv or jsonl; "" picks by the file name's
// extension, CSV unless it is .jsonl, .ndjson or .json.
func ParseOutputFormat(s, path string) (OutputFormat, error) {
	switch strings.ToLower(s) {
	case "csv":
		return CSVOutput, nil
	case "jsonl", "ndjson", "json":
		return JSONLOutput, nil
	case "":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".jsonl", ".ndjson", ".json":
			return JSONLOutput, nil
		}
		return CSVOutput, nil
	}
	return CSVOutput, fmt.Errorf("%q is not csv or jsonl", s)
}

// HitColumns is the header of a CSV hits file.
var HitColumns = []string{"line", "customer_id", "customer_name", "record_id", "source_id", "source_type", "entity_type",
	"record_name", "matched_field", "matched_name", "edits", "exact", "reason"}

// ScoreColumn follows HitColumns in the hits and suppressed files of a
// scored run (Screener.Match): the score in [0, 1]. Strict runs have no
// such column, so their files are as they always were.
const ScoreColumn = "score"

// hitHeader is the CSV header of the hits file of a run.
func hitHeader(scored, decisions bool) []string {
	cols := slices.Clone(HitColumns)
	if scored {
		cols = append(cols, ScoreColumn)
	}
	if decisions {
		cols = append(cols, DecisionColumns...)
	}
	return cols
}

// DecisionColumns follow HitColumns in the hits and suppressed files of a
// run that applies decisions (Screener.Decide).
var DecisionColumns = []string{"decision", "decision_note", "decided_by", "decided_at", "changed_since_decision"}

// RejectColumns is the header of the rejects file (always CSV: it is read
// by people fixing the book, in the same spreadsheet).
var RejectColumns = []string{"line", "customer_id", "field", "value", "reason"}

// encoder writes the hits and rejects of one batch into its buffers.
type encoder struct {
	format OutputFormat
	out    *bytes.Buffer
	cw     *csvsafe.Writer
	rw     *csvsafe.Writer
	rec    []string
	// scored adds ScoreColumn.
	scored bool
	// decisions adds DecisionColumns; sup and sw take suppressed hits.
	decisions bool
	sup       *bytes.Buffer
	sw        *csvsafe.Writer
}

func newEncoder(f OutputFormat, out, rej *bytes.Buffer) *encoder {
	return &encoder{format: f, out: out, cw: csvsafe.NewWriter(out), rw: csvsafe.NewWriter(rej), rec: make([]string, 0, len(HitColumns)+1+len(DecisionColumns))}
}

// withDecisions makes the encoder write decision columns and suppressed
// hits into sup.
func (e *encoder) withDecisions(sup *bytes.Buffer) *encoder {
	e.decisions, e.sup, e.sw = true, sup, csvsafe.NewWriter(sup)
	return e
}

func (e *encoder) hit(h *Hit) error { return e.write(h, e.out, e.cw) }

func (e *encoder) suppressed(h *Hit) error { return e.write(h, e.sup, e.sw) }

func (e *encoder) write(h *Hit, out *bytes.Buffer, cw *csvsafe.Writer) error {
	if e.format == JSONLOutput {
		b, err := json.Marshal(h)
		if err != nil {
			return fmt.Errorf("encode hit of line %d: %w", h.Line, err)
		}
		out.Write(b)
		out.WriteByte('\n')
		return nil
	}
	r := e.rec[:0]
	r = append(r, strconv.Itoa(h.Line), h.CustomerID, h.CustomerName, h.RecordID, h.SourceID, h.SourceType, h.EntityType,
		h.RecordName, h.MatchedField, h.MatchedName, strconv.Itoa(h.Edits), strconv.FormatBool(h.Exact), h.Reason)
	if e.scored {
		score := ""
		if h.Score != nil {
			score = strconv.FormatFloat(*h.Score, 'f', 4, 64)
		}
		r = append(r, score)
	}
	if e.decisions {
		if d := h.Decision; d != nil {
			r = append(r, d.Status, d.Note, d.DecidedBy, d.DecidedAt, strconv.FormatBool(d.Changed))
		} else {
			r = append(r, "", "", "", "", "")
		}
	}
	return cw.Write(r)
}

func (e *encoder) reject(r *Reject) error {
	return e.rw.Write([]string{strconv.Itoa(r.Line), r.CustomerID, r.Field, r.Value, r.Reason})
}

// flush makes the buffers complete.
func (e *encoder) flush() error {
	e.cw.Flush()
	e.rw.Flush()
	if e.sw != nil {
		e.sw.Flush()
		if err := e.sw.Error(); err != nil {
			return err
		}
	}
	if err := e.cw.Error(); err != nil {
		return err
	}
	return e.rw.Error()
}

// csvHeader is a header row as encoding/csv writes it.
func csvHeader(cols []string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cols)
	w.Flush()
	return b.Bytes()
}

// DefaultRejectsPath is where rejects go when no path is given: next to
// the hits file, hits.csv → hits.rejects.csv.
func DefaultRejectsPath(out string) string { return stem(out) + ".rejects.csv" }

// DefaultSuppressedPath is where a run that applies decisions writes the
// hits they suppressed: hits.csv → hits.suppressed.csv.
func DefaultSuppressedPath(out string) string { return stem(out) + ".suppressed" + filepath.Ext(out) }

// DefaultReportPath is where the Markdown report goes: hits.csv →
// hits.report.md.
func DefaultReportPath(out string) string { return stem(out) + ".report.md" }

// CheckpointPath is the sidecar file that makes a run resumable.
func CheckpointPath(out string) string { return out + ".checkpoint" }

func stem(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path))
}
