package monitor

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

// TestProfileCostLimits: registration refuses what would make a profile
// cost more than a check: a word repeated beyond MaxWordRepeats, a
// min_score below MinProfileScore, and a profile beyond the quota.
func TestProfileCostLimits(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{Index: storeIndex(t, db)})
	al32 := strings.TrimSpace(strings.Repeat("al ", 32))
	for _, c := range []struct {
		p     Params
		param string
	}{
		{scoredParams("al32", al32, 0.9), "names"},
		{individual("al5", "al al al al al Saud"), "names"},
		{Params{ID: "all5", Kind: query.Individual, SearchAll: "the the the the the Moscow"}, "search_all"},
		{scoredParams("tiny", "Olga Petrovna Ivanova", 1e-6), "min_score"},
		{scoredParams("low", "Olga Petrovna Ivanova", MinProfileScore/2), "min_score"},
	} {
		_, _, err := m.Register(ownerA, c.p, access.Policy{}, -1)
		var pe *query.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: %v, want a %s error", c.p.ID, err, c.param)
		}
	}
	if _, _, err := m.Register(ownerA, individual("al4", "Abd al Aziz bin Abd al Rahman al Saud al Thani"), access.Policy{}, -1); err != nil {
		t.Errorf("four repeats of a word: %v", err)
	}
	if _, _, err := m.Register(ownerA, scoredParams("floor", "Olga Petrovna Ivanova", MinProfileScore), access.Policy{}, -1); err != nil {
		t.Errorf("min_score at the floor: %v", err)
	}
	if (&access.Key{}).ProfileLimit() != access.DefaultProfileQuota {
		t.Errorf("a key without profile_quota has limit %d", (&access.Key{}).ProfileLimit())
	}
}

// TestApplyWorkBounded: many expensive profiles cost a change set no more
// than the quota and the cost limits allow, counted in profiles tried per
// record state (not timed). Registered beyond the quota, profiles are
// refused; stored before the limits (32 repeats of a word, min_score
// 1e-6, written to the store directly), they are skipped or matched at
// the floor, and the change set still notifies what it should.
func TestApplyWorkBounded(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{Index: storeIndex(t, db)})
	const quota = 20
	// Expensive as a registration allows: scored, fuzzy 2, the floor
	// threshold, "al" four times.
	words := "al al al al Olga Petrovna Ivanova Ivan Petrov Maria Gonzalez Sea Star Acme Trading"
	refused := 0
	for i := range 3 * quota {
		p := scoredParams(fmt.Sprintf("exp-%d", i), words, MinProfileScore)
		p.Fuzzy = 2
		_, _, err := m.Register(ownerA, p, access.Policy{}, quota)
		var qe *QuotaError
		switch {
		case errors.As(err, &qe):
			refused++
		case err != nil:
			t.Fatal(err)
		}
	}
	if refused != 2*quota {
		t.Fatalf("%d registrations beyond the quota refused, want %d", refused, 2*quota)
	}
	// Profiles of an earlier version, stored without the limits.
	legacy := 0
	err := db.Write(func(tx *store.Tx) error {
		for i := range 50 {
			p := Profile{Owner: ownerB, Params: scoredParams(fmt.Sprintf("old-%d", i), strings.TrimSpace(strings.Repeat("al ", 32)), 1e-6)}
			if i%2 == 1 {
				p.Params = scoredParams(fmt.Sprintf("old-%d", i), "Olga Petrovna Ivanova", 1e-6)
				legacy++
			}
			if _, _, err := putProfile(tx, p, -1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	states := 0 // each change is matched in its state before and after
	for _, c := range a.Changes {
		if c.Before != nil {
			states++
		}
		if c.After != nil {
			states++
		}
	}
	work := m.ix.work.Load()
	if bound := int64(states * (quota + legacy)); work == 0 || work > bound {
		t.Errorf("the change set tried %d profiles against record states, want 1 to %d", work, bound)
	}
	// The legacy profiles at the floor threshold still notify Olga's ADD.
	notified := false
	for _, w := range queuedWants(t, db) {
		if w.owner == ownerB && strings.HasPrefix(w.profile, "old-") {
			notified = true
		}
	}
	if !notified {
		t.Error("the legacy scored profiles notified nothing")
	}
}
