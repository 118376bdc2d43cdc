package book

import (
	"fmt"
	"runtime"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/store"
)

// Onboarded is what screening a book's new and changed customers gave.
type Onboarded struct {
	Screened int // customers added or changed, screened
	Skipped  int // of those, customers the screener could not check
	Alerts   []casework.NewAlert
}

// Onboard screens the customers of a book about to be imported that the
// stored book does not hold as they are (added or changed) against the
// whole database (index, at version), in the book's configuration, as
// batch screens a book. Their hits come back as alerts of origin batch
// with the customer id as subject: a customer is screened when she enters
// the book, not first when a change set touches a record she matches.
// It only reads the store.
func Onboard(db *store.Store, customers []Customer, cfg Config, index *engine.Index, version string) (Onboarded, error) {
	var out Onboarded
	pending, err := pendingCustomers(db, customers)
	if err != nil {
		return out, err
	}
	out.Screened = len(pending)
	if len(pending) == 0 || index == nil {
		return out, nil
	}
	sc, err := cfg.Screener(index)
	if err != nil {
		return out, err
	}
	alerts := make([][]casework.NewAlert, len(pending))
	skipped := make([]bool, len(pending))
	errs := make([]error, len(pending))
	parallel(len(pending), max(1, runtime.GOMAXPROCS(0)), func(i int) {
		c := pending[i]
		res, err := sc.Screen(c.Row())
		if err != nil {
			errs[i] = fmt.Errorf("customer %s: %w", c.ID, err)
			return
		}
		if res.Reject != nil {
			skipped[i] = true
			return
		}
		for _, h := range res.Hits {
			r := index.Get(h.RecordID)
			if r == nil {
				continue
			}
			alerts[i] = append(alerts[i], casework.NewAlert{Subject: c.ID, Origin: casework.OriginBatch, Version: version,
				Query: c.caseQuery(), Hit: casework.HitOn(r, h.MatchedField, h.MatchedName, h.Reason, h.Score), Record: r})
		}
	})
	for i := range pending {
		if errs[i] != nil {
			return Onboarded{}, errs[i]
		}
		if skipped[i] {
			out.Skipped++
		}
		out.Alerts = append(out.Alerts, alerts[i]...)
	}
	return out, nil
}

// pendingCustomers returns the customers the stored book does not hold
// as they are, compared as Import compares them.
func pendingCustomers(db *store.Store, customers []Customer) ([]*Customer, error) {
	var out []*Customer
	err := db.Read(func(tx *store.Tx) error {
		b := store.BookCustomers.Bucket(tx)
		for i := range customers {
			c := &customers[i]
			raw, old, err := storedAs(b, c)
			if err != nil {
				return err
			}
			if old == nil || string(old) != string(raw) {
				out = append(out, c)
			}
		}
		return nil
	})
	return out, err
}
