package book

import (
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Helpers the tests call in place of the store change hook.

// MatchChanged returns the matches of the changed records against
// customers in cfg, as the change hook's matcher computes them (see
// matcher.match); the tests' entry point to the matcher.
func MatchChanged(customers []Customer, cfg Config, changed []*record.Record, sources []record.Source, version string, db *engine.Index) (Result, error) {
	m, err := newMatcher(customers, cfg)
	if err != nil {
		return Result{}, err
	}
	return m.match(changed, sources, version, db)
}

// candidates returns the strict-mode candidates among customers at fuzzy
// (see reverse.candidates).
func candidates(customers []Customer, fuzzy int, changed []*record.Record) []int {
	return newReverse(customers, fuzzy).candidates(changed)
}

// Load returns the book's customers, by id, and its configuration.
func Load(db *store.Store) (customers []Customer, cfg Config, err error) {
	err = db.Read(func(tx *store.Tx) error {
		customers, cfg, err = LoadTx(tx)
		return err
	})
	return customers, cfg, err
}
