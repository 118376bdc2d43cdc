package book

import (
	"encoding/json"
	"fmt"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	bolt "go.etcd.io/bbolt"
)

// Actor names the book's screening of a change set in the audit log.
const Actor = "monitor (book)"

// Hook returns the store change hook (store.Store.OnChange) that screens
// every change set against the book and raises each match as an alert of
// origin monitor through cw, in the transaction of the change: a kill
// leaves both or neither, and a change set the store refuses raises
// nothing. The subject is the customer id, the version the change set's.
// An alert already raised on the record's content is left alone, one on
// older content is reopened (casework's rule). A store without a book
// costs one bucket look-up.
//
// The hook keeps the book's customers and their index in memory from one
// change set to the next while the book does not change, so that a
// long-running serve pays for them once per book import, not per change
// set.
func Hook(cw *casework.Casework) store.TxHook { return hook(cw, new(watcher)) }

func hook(cw *casework.Casework, w *watcher) store.TxHook {
	return func(tx *bolt.Tx, a *store.Applied) error {
		if tx.Bucket(BucketCustomers) == nil || len(a.Changes) == 0 {
			return nil
		}
		ms, err := w.match(tx, a)
		if err != nil {
			return fmt.Errorf("book: %w", err)
		}
		if len(ms) == 0 {
			return nil
		}
		hits, err := alertsOf(tx, a, ms)
		if err != nil {
			return fmt.Errorf("book: %w", err)
		}
		if _, err := cw.RaiseTx(store.TxOf(tx), Actor, hits); err != nil {
			return fmt.Errorf("book: %w", err)
		}
		return nil
	}
}

// alertsOf turns the matches of a change set into alerts, with the
// customer's row as the query and the changed record as the hit. A
// customer whose id cannot be a subject raises none, as in a batch run
// with --alerts: refusing it would refuse the change set.
func alertsOf(tx *bolt.Tx, a *store.Applied, ms []Match) ([]casework.NewAlert, error) {
	after := make(map[string]*record.Record, len(a.Changes))
	for i := range a.Changes {
		if c := &a.Changes[i]; c.After != nil {
			after[c.ID] = c.After
		}
	}
	customers := tx.Bucket(BucketCustomers)
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
		kind := c.Type
		if kind == "" {
			kind = "any"
		}
		out = append(out, casework.NewAlert{Subject: c.ID, Origin: casework.OriginMonitor, Version: a.Version,
			Query: casework.Query{Kind: kind, Names: c.Name, DOB: c.DOB, Gender: c.Gender, Citizenship: c.Citizenship},
			Hit: casework.Hit{RecordID: r.ID, RecordName: r.Name, SourceID: r.SourceID, SourceType: r.SourceType,
				EntityType: r.EntityType, MatchedField: m.Field, MatchedName: m.Name, Reason: m.Reason, Score: m.Score},
			Record: r})
	}
	return out, nil
}

// getCustomer reads the customer id from the book's bucket.
func getCustomer(b *bolt.Bucket, id string) (*Customer, error) {
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
