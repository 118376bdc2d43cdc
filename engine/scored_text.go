package engine

import (
	"math"
	"strconv"
	"strings"
)

// Summary says in one line why a scored hit scored what it did, as an
// analyst reads it in the check table, the batch hits file, the PDF report
// and the workbench: the word pairs with how each matched, then the words
// without a partner, e.g.
// "john=john, smith~smyth (edit, 1 edit); unpaired query: michael".
// Like Reason for strict hits, it is the one wording every front end
// shares; the full figures are in the ScoreReason itself (match_reason).
func (r *ScoreReason) Summary() string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	for i, p := range r.Pairs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Query)
		if p.Kind == "exact" && p.Query == p.Record {
			continue
		}
		if p.Kind == "exact" {
			b.WriteString("=" + p.Record)
			continue
		}
		b.WriteString("~" + p.Record + " (" + p.Kind)
		if p.Edits > 0 {
			b.WriteString(", " + pluralEdits(p.Edits))
		}
		b.WriteByte(')')
	}
	writeWords := func(label string, ws []ScoreWord) {
		if len(ws) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(label)
		for i, w := range ws {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + w.Word)
		}
	}
	writeWords("unpaired query:", r.UnpairedQuery)
	writeWords("unpaired record:", r.UnpairedRecord)
	if ev := r.evidenceSummary(); ev != "" {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(ev)
	}
	return b.String()
}

// FormatScore writes a score as the front ends show it: two decimals,
// rounded down so that a hit shown at the threshold is never below it.
func FormatScore(s float64) string {
	// The epsilon keeps 0.29, stored as 0.28999…, from showing as 0.28.
	return strconv.FormatFloat(math.Floor(s*100+1e-9)/100, 'f', 2, 64)
}
