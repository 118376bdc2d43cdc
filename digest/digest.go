// Package digest says what a period of change sets did to the database:
// one entry per record added, updated or deleted, and for an update the
// attributes that changed with their old and new values. The store keeps
// the records (store.Digest); this package compares them and writes the
// digest as JSON, CSV or a table.
package digest

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Field is one attribute an UPDATE changed. Old and New are its JSON
// values as the /v1 API writes them (a string or a list of strings), nil
// where the attribute was absent.
type Field struct {
	Name string          `json:"field"`
	Old  json.RawMessage `json:"old"`
	New  json.RawMessage `json:"new"`
}

// Change is one record a period changed.
type Change struct {
	Type      string    `json:"type"` // ADD, UPDATE or DELETE
	ID        string    `json:"id"`
	Version   string    `json:"version"`    // the version of the last change set that touched it
	AppliedAt time.Time `json:"applied_at"` // when that change set was applied
	Source    string    `json:"source"`     // the record's source_id (after the change; before it for a DELETE)
	Name      string    `json:"name"`
	// Fields lists, for an UPDATE, the attributes that differ, in the
	// order of docs/API.md "Records", then unknown attributes by key.
	Fields []Field `json:"fields,omitempty"`
	// OldUnknown marks an UPDATE logged before the store kept old values:
	// it has no field-level difference.
	OldUnknown bool `json:"old_values_unknown,omitempty"`
}

// FromStore turns the store's entries into digest changes, with every
// attribute the /v1 API writes.
func FromStore(entries []store.DigestEntry) []Change {
	return FromStoreOptions(entries, record.WriteOptions{})
}

// FromStoreOptions is FromStore comparing the attributes as opts writes
// them, so that an answer to an API key shows no difference in an
// attribute the key's features strip (access.Features.WriteOptions).
func FromStoreOptions(entries []store.DigestEntry, opts record.WriteOptions) []Change {
	out := Outline(entries)
	for i := range entries {
		if e := &entries[i]; e.Type == record.ChangeUpdate && e.Before != nil && e.After != nil {
			out[i].Fields = diff(e.Before, e.After, opts)
		}
	}
	return out
}

// Outline is FromStore without the field-level differences: enough to
// count a period's changes by type and source and to cut it into pages,
// at a fraction of the cost.
func Outline(entries []store.DigestEntry) []Change {
	out := make([]Change, len(entries))
	for i := range entries {
		e := &entries[i]
		c := Change{Type: e.Type, ID: e.ID, Version: e.Version, AppliedAt: e.AppliedAt.UTC(), OldUnknown: e.OldUnknown}
		r := e.After
		if r == nil {
			r = e.Before
		}
		if r != nil {
			c.Source, c.Name = r.SourceID, r.Name
		}
		out[i] = c
	}
	return out
}

// diff returns the attributes whose values differ between before and
// after, written with opts. list_date is left out: delta records never
// carry it, so the change log cannot say it changed.
func diff(before, after *record.Record, opts record.WriteOptions) []Field {
	opts.OmitListDate = true
	old, cur := attrs(before, opts), attrs(after, opts)
	var out []Field
	seen := map[string]bool{"list_date": true}
	check := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		o, n := old[k], cur[k]
		if o == nil && n == nil || bytes.Equal(o, n) {
			return
		}
		out = append(out, Field{Name: k, Old: o, New: n})
	}
	for _, k := range record.Attributes() {
		check(k)
	}
	for _, m := range []map[string]json.RawMessage{old, cur} {
		for _, k := range sortedKeys(m) {
			check(k)
		}
	}
	return out
}

// attrs returns r's attributes as the /v1 API writes them with opts, by key.
func attrs(r *record.Record, opts record.WriteOptions) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	// The writer makes valid JSON of every record, so this cannot fail.
	_ = json.Unmarshal(r.Append(nil, opts), &m)
	return m
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Summary counts a digest's changes.
type Summary struct {
	Added   int `json:"added"`
	Updated int `json:"updated"`
	Deleted int `json:"deleted"`
}

// Count returns the summary of changes.
func Count(changes []Change) Summary {
	var s Summary
	for i := range changes {
		switch changes[i].Type {
		case record.ChangeAdd:
			s.Added++
		case record.ChangeUpdate:
			s.Updated++
		case record.ChangeDelete:
			s.Deleted++
		}
	}
	return s
}

// CountBySource returns the summary of changes per source id.
func CountBySource(changes []Change) map[string]Summary {
	out := map[string]Summary{}
	for i := range changes {
		c := &changes[i]
		s := out[c.Source]
		switch c.Type {
		case record.ChangeAdd:
			s.Added++
		case record.ChangeUpdate:
			s.Updated++
		case record.ChangeDelete:
			s.Deleted++
		}
		out[c.Source] = s
	}
	return out
}

// Document is the JSON answer, /v1 style: the period, its counts and its
// changes. amlscreen changes --format json and the server's
// getChangeDigest write it with WriteJSON, so that both have one shape.
type Document struct {
	Since    string             `json:"since"`   // as asked: a version, a day or last
	From     string             `json:"from"`    // the version the period starts after
	Version  string             `json:"version"` // the version the period ends at (the current one when it was asked)
	Summary  Summary            `json:"summary"`
	BySource map[string]Summary `json:"by_source"` // the summary per source id
	Changes  []Change           `json:"changes"`
	// Next continues a digest cut into pages (the server's limit): the
	// token that asks the page after this one, absent on the last page.
	// Summary and BySource count the whole period on every page.
	Next string `json:"next,omitempty"`
}

// NewDocument returns the document of a period's changes with their
// counts.
func NewDocument(since, from, version string, changes []Change) *Document {
	return &Document{Since: since, From: from, Version: version, Changes: changes,
		Summary: Count(changes), BySource: CountBySource(changes)}
}

// Page cuts d's changes, sorted by id, to at most limit changes after the
// id after ("" from the first), and reports whether changes remain after
// the page. The counts stay those of the whole period.
func (d *Document) Page(after string, limit int) (more bool) {
	start := 0
	if after != "" {
		start, _ = slices.BinarySearchFunc(d.Changes, after, func(c Change, id string) int {
			return cmp.Compare(c.ID, id)
		})
		if start < len(d.Changes) && d.Changes[start].ID == after {
			start++
		}
	}
	end := min(len(d.Changes), start+max(limit, 0))
	more = end < len(d.Changes)
	d.Changes = d.Changes[start:end]
	return more
}

// WriteJSON writes d as one indented JSON document.
func WriteJSON(w io.Writer, d *Document) error {
	if d.Changes == nil {
		d.Changes = []Change{}
	}
	if d.BySource == nil {
		d.BySource = map[string]Summary{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// CSVHeader is the first row WriteCSV writes.
var CSVHeader = []string{"type", "id", "version", "applied_at", "source", "name", "field", "old", "new"}

// WriteCSV writes one row per changed attribute of an UPDATE and one row
// per ADD, DELETE or UPDATE without field-level difference, the values as
// JSON.
func WriteCSV(w io.Writer, changes []Change) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for i := range changes {
		c := &changes[i]
		row := []string{c.Type, c.ID, c.Version, c.AppliedAt.Format(time.RFC3339), c.Source, c.Name, "", "", ""}
		if len(c.Fields) == 0 {
			if err := cw.Write(row); err != nil {
				return err
			}
			continue
		}
		for _, f := range c.Fields {
			row[6], row[7], row[8] = f.Name, string(f.Old), string(f.New)
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}
