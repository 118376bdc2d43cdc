// Package report renders PDF screening reports: the evidence a compliance
// officer files for one screening (generateIndividualReport and
// generateEntityReport, and `amlscreen report`).
//
// A report holds a cover block (the query and its parameters, the time in
// UTC, the database version, the sources searched and the number of hits,
// or a plain statement that there were none), a summary table, one section
// per hit with every non-empty attribute of the record under readable
// labels and the reason it matched, the list of sources searched and a
// box for the reviewer's decision. Every page carries the report id, the
// database version and its page number; a report on the embedded sample
// database carries the watermark SampleMark on every page too.
//
// Only SANCTION, PEP and CRIMINAL records appear (docs/MATCHING.md "Filters"):
// Render drops any other hit it is given, and ReportableSources narrows a
// query's sources before the search so that the total is exact too.
//
// Output is deterministic: the same Input gives the same bytes, because the
// time is an input (it also becomes the PDF's creation date), resources are
// written in sorted order and nothing is random. A report id derived with
// ID is stable for the same query, time and version.
//
// Text is real, extractable Unicode in embedded TrueType fonts (DejaVu Sans
// for Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic; Droid
// Sans Fallback for Chinese and Japanese; Nanum Square for Korean; see
// fonts/README.md), subset into each PDF. Each character is drawn with the
// first of these fonts that has it.
//
// Limitations, all from fpdf having no text shaping engine:
//   - Arabic is shaped here with the Unicode presentation forms (contextual
//     letter forms and the lam-alef ligature; vowel marks are drawn
//     unpositioned) and put in display order with the bidirectional
//     algorithm (without explicit embeddings). Text extractors return it as
//     presentation-form characters, which NFKC normalisation maps back to
//     the ordinary letters, and may order right-to-left words around
//     punctuation by their own rules (poppler's pdftotext does).
//   - Scripts that need complex shaping (Devanagari, Thai, ...) or that no
//     embedded font holds show as boxes, though their characters stay in
//     the text layer.
//   - Characters beyond the Basic Multilingual Plane (emoji, rare CJK
//     ideographs) are drawn as U+FFFD; the line's /ActualText keeps the
//     original characters for copying and extraction.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Input is everything a report shows. Render only reads it.
type Input struct {
	// Query is the screening as the caller ran it; its Sources are the
	// source ids searched.
	Query query.Query
	// Result is the engine's answer to Query. Hits of source types other
	// than SANCTION, PEP and CRIMINAL are left out (see Filter).
	Result *engine.Result
	// Time is when the screening ran. It is printed in UTC and becomes the
	// PDF's creation date, so that the same inputs give the same bytes.
	// Required.
	Time time.Time
	// Version is the File-Version of the database searched.
	Version string
	// Origin says which database was searched ("embedded sample", a store
	// or file name); printed when set.
	Origin string
	// Sample marks a screening of the sample database embedded in amlscreen
	// (sampledata.Is of the version): generated records, not the lists.
	// Every page then carries the watermark SampleMark, and the result says
	// that a search of the sample screens no one, so that a "No hits" on it
	// never reads as a clearance.
	Sample bool
	// Sources describes the sources searched, with their catalogue names
	// where known; entries of types that reports leave out are not listed.
	// When nil, the ids of Query.Sources are listed without names.
	Sources []record.Source
	// ID identifies the report on every page; "" means ID(Query, Time,
	// Version).
	ID string
	// Casework is the review of the hits (the workbench's alerts), shown
	// in a section of its own before the reviewer's box; nil shows none.
	Casework []CaseNote
}

// SampleMark is the watermark on every page of a report on the embedded
// sample.
const SampleMark = "SAMPLE DATA — not a screening"

// Reportable reports whether records of a source type may appear in a
// report: SANCTION, PEP and CRIMINAL, in any case (the catalogue writes
// types in lower case, records in upper case).
func Reportable(sourceType string) bool {
	switch strings.ToUpper(sourceType) {
	case record.SourceSanction, record.SourcePEP, record.SourceCriminal:
		return true
	}
	return false
}

// Filter returns a copy of res with only the hits a report may show, in
// their order. Total drops by the number of hits removed; hits that res had
// already cut at its limit cannot be told apart, so for an exact total
// search with ReportableSources in the first place.
func Filter(res *engine.Result) *engine.Result {
	if res == nil {
		return &engine.Result{}
	}
	out := &engine.Result{Total: res.Total}
	for _, h := range res.Hits {
		if h.Record != nil && Reportable(h.Record.SourceType) {
			out.Hits = append(out.Hits, h)
		} else {
			out.Total--
		}
	}
	out.Total = max(out.Total, len(out.Hits))
	return out
}

// ReportableSources narrows a source selection (query.Query.Sources; nil
// means every source) to the sources whose type, in types (source id to
// source type, as engine.Index.SourceTypes gives), may appear in a report.
// The result is never nil: an empty set searches nothing, which is right
// when every selected source is of another type.
func ReportableSources(sel map[string]bool, types map[string]string) map[string]bool {
	out := make(map[string]bool)
	for id, t := range types {
		if (sel == nil || sel[id]) && Reportable(t) {
			out[id] = true
		}
	}
	return out
}

// ID derives a report id from what the report is about: the query (with
// its sources), the time to the nanosecond and the database version. The
// same screening gives the same id; any difference gives another, with the
// odds of a collision of a 64-bit hash.
func ID(q query.Query, t time.Time, version string) string {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	field("amlscreen report v1")
	field(q.Kind.String())
	field(q.Names)
	field(q.SearchAll)
	field(strconv.Itoa(q.Fuzzy))
	field(q.DOB)
	field(strings.ToLower(q.Gender))
	field(strings.ToUpper(q.Citizenship))
	if q.Sources == nil {
		field("*")
	} else {
		ids := make([]string, 0, len(q.Sources))
		for id, ok := range q.Sources {
			if ok {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		field(strings.Join(ids, ","))
	}
	field(t.UTC().Format(time.RFC3339Nano))
	field(version)
	if q.Match == query.Scored {
		// Strict reports keep the ids they always had.
		field("match=scored")
		field(strconv.FormatFloat(q.MinScore, 'g', -1, 64))
	}
	x := strings.ToUpper(hex.EncodeToString(h.Sum(nil)[:8]))
	return "AMLR-" + x[0:4] + "-" + x[4:8] + "-" + x[8:12] + "-" + x[12:16]
}

// ErrNoTime is returned by Render for an Input without a Time: a report
// must say when the screening ran, and taking the clock here would make
// the output differ from run to run.
var ErrNoTime = errors.New("report: input has no screening time")

// Render writes the PDF report of in to w. A query that breaks the rules
// of docs/MATCHING.md gives the engine's *query.ParamError, so that callers
// can answer it as they answer a check.
func Render(w io.Writer, in Input) (err error) {
	if in.Time.IsZero() {
		return ErrNoTime
	}
	if err := query.Validate(in.Query); err != nil {
		return err
	}
	faces, err := loadFaces()
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	// fpdf reports most problems through its error state, but a library
	// panic on some unforeseen input must not take a server down.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("report: render: %v", p)
		}
	}()
	pdf, err := build(in, faces)
	if err != nil {
		return err
	}
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("report: write PDF: %w", err)
	}
	return nil
}
