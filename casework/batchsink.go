package casework

import (
	"fmt"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
)

// BatchOptions configures a BatchSink.
type BatchOptions struct {
	// Actor names the run in the audit log ("batch" and the book).
	Actor string
	// Owner is the decision owner of new alerts (the key of batch --key);
	// "" means SiteOwner.
	Owner string
	// Version is the database version screened against.
	Version string
	// DefaultKind is the check of rows without a type.
	DefaultKind string
	// Record returns the record a hit was made on, as screened (the
	// index's copy); nil when it has none.
	Record func(id string) *record.Record
	// Batch is the most alerts per transaction; 0 means
	// DefaultWriterBatch.
	Batch int
}

// BatchSink puts the hits of a batch run into the alert queue
// (batch.HitSink): the customer id is the subject, and alerts are raised
// in the background in bounded transactions (Writer).
type BatchSink struct {
	w       *Writer
	o       BatchOptions
	skipped int
}

// NewBatchSink starts a sink; Close ends it.
func (c *Casework) NewBatchSink(o BatchOptions) *BatchSink {
	if o.Actor == "" {
		o.Actor = "batch"
	}
	return &BatchSink{w: c.NewWriter(o.Actor, o.Batch), o: o}
}

// Add queues the hits of rows as alerts.
func (s *BatchSink) Add(found []batch.Found) error {
	for i := range found {
		f := &found[i]
		kind := f.Row.Type
		if kind == "" {
			kind = s.o.DefaultKind
		}
		if decision.ValidSubject(f.Row.ID) != nil {
			s.skipped += len(f.Hits) // no customer id to tie a re-run to
			continue
		}
		q := Query{Kind: kind, Names: f.Row.Name, DOB: f.Row.DOB, Gender: f.Row.Gender, Citizenship: f.Row.Citizenship}
		for j := range f.Hits {
			h := &f.Hits[j]
			r := s.o.Record(h.RecordID)
			if r == nil {
				s.skipped++
				continue
			}
			if err := s.w.Add(NewAlert{Subject: f.Row.ID, Owner: s.o.Owner, Origin: OriginBatch, Version: s.o.Version, Query: q,
				Hit: Hit{RecordID: h.RecordID, RecordName: h.RecordName, SourceID: h.SourceID, SourceType: h.SourceType,
					EntityType: h.EntityType, MatchedField: h.MatchedField, MatchedName: h.MatchedName, Reason: h.Reason, Score: h.Score},
				Record: r}); err != nil {
				return fmt.Errorf("line %d: %w", f.Row.Line, err)
			}
		}
	}
	return nil
}

// Skipped is the number of hits raised as no alert: their row had no
// usable customer id, or the index no longer had their record.
func (s *BatchSink) Skipped() int { return s.skipped }

// Flush returns once every alert added is committed.
func (s *BatchSink) Flush() error { return s.w.Flush() }

// Close flushes, stops the background writer and says what was raised.
func (s *BatchSink) Close() (RaiseResult, error) { return s.w.Close() }
