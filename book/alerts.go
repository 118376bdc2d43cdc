package book

import (
	"encoding/json"
	"fmt"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Actor names the book's screening of a change set in the audit log.
const Actor = "monitor (book)"

// Hook returns the store change hook (store.Store.OnApply) that screens
// every change set against the book and raises each match as an alert of
// origin monitor through cw, in the transaction of the change: a kill
// leaves both or neither, and a change set the store refuses raises
// nothing. The subject is the customer id, the version the change set's.
// An alert already raised on the record's content is left alone, one on
// older content is reopened (casework's rule). A store without a book
// costs one bucket look-up.
//
// index returns the index of the database (screen.Follower.Index: inside
// the transaction, the version before the change set): a scored book
// weighs words with its statistics once the change set is applied to it
// (engine.Index.Preview), as a full batch after the change set would. nil,
// or an index that cannot be opened, leaves a scored book with the
// statistics of the change set (matcher.match).
//
// A customer the screener rejects is skipped, never the change set: the
// count and the first ids are kept in the book's status (LastScreen).
//
// The hook keeps the book's customers and their index in memory from one
// change set to the next while the book does not change, so that a
// long-running serve pays for them once per book import, not per change
// set.
//
// s is the part of the book this process screens: the zero Shard is the
// whole book; replicas holding the same book, one per shard, together
// raise the alerts one whole-book hook would, each alert on one replica
// only.
func Hook(cw *casework.Casework, s Shard, index func() (*engine.Index, error)) store.Hook {
	return hook(cw, index, &watcher{shard: s})
}

func hook(cw *casework.Casework, index func() (*engine.Index, error), w *watcher) store.Hook {
	return func(tx *store.Tx, a *store.Applied) error {
		if store.BookCustomers.Bucket(tx) == nil || len(a.Changes) == 0 {
			return nil
		}
		var db *engine.Index
		if index != nil && scoredTx(tx) {
			// The index as it will be once the change set is applied:
			// the changed records weigh their words as a batch after it
			// would. Without it, the change set's statistics.
			if ix, err := index(); err == nil && ix != nil {
				if db, err = ix.Preview(changesOf(a)); err != nil {
					return fmt.Errorf("book: %w", err)
				}
				defer db.Close()
			}
		}
		res, err := w.match(tx, a, db)
		if err != nil {
			return fmt.Errorf("book: %w", err)
		}
		if err := putLastScreen(tx, LastScreen{Version: a.Version, Matches: len(res.Matches), Skipped: res.Skipped, SkippedIDs: res.SkippedIDs}); err != nil {
			return fmt.Errorf("book: %w", err)
		}
		if len(res.Matches) == 0 {
			return nil
		}
		hits, err := alertsOf(tx, a, res.Matches)
		if err != nil {
			return fmt.Errorf("book: %w", err)
		}
		if _, err := cw.RaiseTx(tx, Actor, hits); err != nil {
			return fmt.Errorf("book: %w", err)
		}
		return nil
	}
}

// scoredTx reports whether the book's configuration is scored mode.
func scoredTx(tx *store.Tx) bool {
	mb := store.BookMeta.Bucket(tx)
	if mb == nil {
		return false
	}
	var m meta
	raw := mb.Get(metaKey)
	return raw != nil && json.Unmarshal(raw, &m) == nil && m.Match == "scored"
}

// changesOf returns the change set a applied, as the index applies it.
func changesOf(a *store.Applied) []record.Change {
	out := make([]record.Change, 0, len(a.Changes))
	for i := range a.Changes {
		switch c := &a.Changes[i]; c.Effect {
		case store.EffectAdd, store.EffectUpdate:
			out = append(out, record.Change{Type: c.Effect, Record: *c.After})
		case store.EffectDelete:
			out = append(out, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: c.ID}})
		}
	}
	return out
}

// alertsOf turns the matches of a change set into alerts, with the
// customer's row as the query and the changed record as the hit. A
// customer whose id cannot be a subject raises none, as in a batch run
// with --alerts: refusing it would refuse the change set.
func alertsOf(tx *store.Tx, a *store.Applied, ms []Match) ([]casework.NewAlert, error) {
	after := make(map[string]*record.Record, len(a.Changes))
	for i := range a.Changes {
		if c := &a.Changes[i]; c.After != nil {
			after[c.ID] = c.After
		}
	}
	customers := store.BookCustomers.Bucket(tx)
	var out []casework.NewAlert
	var c *Customer
	for i := range ms {
		m := &ms[i]
		r := after[m.RecordID]
		if r == nil || decision.ValidSubject(m.CustomerID) != nil {
			continue
		}
		if c == nil || c.ID != m.CustomerID {
			var err error
			if c, err = getCustomer(customers, m.CustomerID); err != nil {
				return nil, err
			}
		}
		out = append(out, casework.NewAlert{Subject: c.ID, Origin: casework.OriginMonitor, Version: a.Version,
			Query: c.caseQuery(), Hit: casework.HitOn(r, m.Field, m.Name, m.Reason, m.Score), Record: r})
	}
	return out, nil
}

// caseQuery is the customer as an alert's query: a customer of no type
// was screened against every kind of record.
func (c *Customer) caseQuery() casework.Query {
	kind := c.Type
	if kind == "" {
		kind = "any"
	}
	return casework.Query{Kind: kind, Names: c.Name, DOB: c.DOB, Gender: c.Gender, Citizenship: c.Citizenship}
}

// getCustomer reads the customer id from the book's bucket.
func getCustomer(b *store.Bucket, id string) (*Customer, error) {
	raw := b.Get([]byte(id))
	if raw == nil {
		return nil, fmt.Errorf("customer %s: not in the book", id)
	}
	var c Customer
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("customer %s: %w", id, err)
	}
	return &c, nil
}
