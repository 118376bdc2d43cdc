package monitor

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/store"
)

// Options configures New. The zero value works.
type Options struct {
	// Now is the clock for registration times, notification timestamps
	// and first delivery times; nil means time.Now.
	Now func() time.Time
	// Log receives profiles that no longer compile (skipped); nil
	// discards.
	Log *slog.Logger
	// Index returns the index of the list that change sets apply to (the
	// version before the change set is fine: only its word counts are
	// used), with which a scored profile's changed records are scored.
	// It is called only when a change set meets scored profiles; without
	// it such a change set fails rather than notify too little.
	Index func() (*engine.Index, error)
	// OnMatch, when set, receives in the change set's transaction the
	// notifications it queued (matches a decision holds back are not
	// among them), so that casework raises them as alerts in the same
	// transaction.
	OnMatch func(tx *store.Tx, applied *store.Applied, queued []Notification) error
}

// Monitor manages the search profiles of a store and matches change sets
// against them. Its methods are safe for concurrent use.
//
// The profile index is built from the profiles bucket inside a write
// transaction (the first hook that needs it, or Preload) and changed only
// inside the write transactions that register or remove profiles. bbolt
// runs one write transaction at a time, so the index always agrees with
// the profiles the applying transaction sees; when such a transaction
// fails, the index is dropped and rebuilt by the next one.
type Monitor struct {
	db    *store.Store
	now   func() time.Time
	log   *slog.Logger
	index func() (*engine.Index, error)
	// onMatch is Options.OnMatch.
	onMatch func(tx *store.Tx, applied *store.Applied, queued []Notification) error

	mu  sync.Mutex
	ix  *profileIndex // nil until built
	gen uint64        // profiles generation ix reflects

	wakeMu sync.Mutex
	wakers []func()
}

// New returns a Monitor over db, which must stay open while the Monitor is
// used. It reads nothing yet. Only Hook works without a db.
func New(db *store.Store, opts Options) *Monitor {
	m := &Monitor{db: db, now: opts.Now, log: opts.Log, index: opts.Index, onMatch: opts.OnMatch}
	if m.now == nil {
		m.now = time.Now
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	return m
}

// Hook returns a store.Hook for db's imports and change sets, to register
// with the store (store.Store.OnApply), which then runs it in every
// transaction that changes records, whoever makes the change. It builds the
// profile index from the hook's own transaction when it is not built yet,
// so a one-shot command pays for that only when a change set arrives. A
// command that only applies changes uses New(nil, opts).Hook(): the index
// is kept, and rebuilt whenever the profiles' generation in the store shows
// that they changed since, also by another process.
//
//	db.OnApply(monitor.New(db, monitor.Options{}).Hook())
func (m *Monitor) Hook() store.Hook {
	return func(tx *store.Tx, applied *store.Applied) error {
		if applied == nil || len(applied.Changes) == 0 {
			return nil
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		ix, err := m.indexLocked(tx)
		if err != nil {
			return err
		}
		var eix *engine.Index
		if ix.hasScored() {
			if m.index == nil {
				return errors.New("monitoring: scored search profiles need the list's index to score changed records, and none was given")
			}
			if eix, err = m.index(); err != nil {
				return fmt.Errorf("monitoring: index for scored profiles: %w", err)
			}
		}
		queued, err := writeNotifications(tx, ix, eix, applied, m.now())
		if err != nil {
			return fmt.Errorf("monitoring: %w", err)
		}
		if len(queued) == 0 {
			return nil
		}
		tx.OnCommit(m.wake)
		if m.onMatch != nil {
			if err := m.onMatch(tx, applied, queued); err != nil {
				return fmt.Errorf("monitoring: %w", err)
			}
		}
		return nil
	}
}

// Preload builds the profile index now, so that the first change set a
// server applies does not wait for it.
func (m *Monitor) Preload() error {
	return m.db.Write(func(tx *store.Tx) error {
		m.mu.Lock()
		defer m.mu.Unlock()
		_, err := m.indexLocked(tx)
		return err
	})
}

// indexLocked returns the index, building it from tx when needed. The
// caller holds m.mu and runs a write transaction.
func (m *Monitor) indexLocked(tx *store.Tx) (*profileIndex, error) {
	gen := generation(tx)
	if m.ix != nil && m.gen == gen {
		m.ix = m.ix.compacted()
		return m.ix, nil
	}
	ix := newProfileIndex()
	err := forEachProfile(tx, "", func(p *Profile) error {
		if err := ix.put(p); err != nil {
			// A profile the current rules refuse can match nothing; it is
			// kept in the store, where re-registering fixes it.
			m.log.Warn("search profile skipped: its query no longer validates", "profile_id", p.ID, "error", err.Error())
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load search profiles: %w", err)
	}
	m.ix, m.gen = ix, gen
	return ix, nil
}

// update runs fn in a write transaction with the index lock held; fn may
// change the index when it is built, as its last step, and then reports
// touched. If the transaction does not commit after that, the index is
// dropped, to be rebuilt from the store by the next transaction that needs
// it.
func (m *Monitor) update(fn func(tx *store.Tx) (touched bool, err error)) error {
	touched := false
	err := m.db.Write(func(tx *store.Tx) error {
		m.mu.Lock()
		defer m.mu.Unlock()
		var err error
		touched, err = fn(tx)
		return err
	})
	if err != nil && touched {
		m.mu.Lock()
		m.ix = nil
		m.mu.Unlock()
	}
	return err
}

// Register upserts a profile of owner (docs/API.md "Monitoring and webhooks"): a new profile_id
// creates one, an existing one is updated with p and a (its registration
// time kept). quota is the most profiles owner may hold, negative for no
// limit; it applies to new profiles only, and a new one beyond it gives a
// *QuotaError. Invalid parameters give an *query.ParamError. No initial
// screening is done.
func (m *Monitor) Register(owner string, p Params, a access.Policy, quota int64) (stored Profile, created bool, err error) {
	if err := checkOwner(owner); err != nil {
		return Profile{}, false, err
	}
	if err := p.Validate(); err != nil {
		return Profile{}, false, err
	}
	now := m.now().UTC()
	prof := Profile{Owner: owner, Params: p, Access: a, Registered: now, Updated: now}
	err = m.update(func(tx *store.Tx) (bool, error) {
		var err error
		stored, created, err = putProfile(tx, prof, quota)
		if err != nil || m.ix == nil {
			return false, err
		}
		if m.gen+1 != generation(tx) {
			// Another process changed the profiles: rebuild when needed.
			m.ix = nil
			return false, nil
		}
		sp := stored
		m.gen++
		return true, m.ix.put(&sp)
	})
	if err != nil {
		var qe *QuotaError
		if errors.As(err, &qe) {
			return Profile{}, false, qe
		}
		return Profile{}, false, fmt.Errorf("register profile %q: %w", p.ID, err)
	}
	return stored, created, nil
}

// Remove deletes a profile; removed is false when owner had no profile of
// that id, which is not an error (removeSearchProfile is idempotent).
func (m *Monitor) Remove(owner, profileID string) (removed bool, err error) {
	if err := checkOwner(owner); err != nil {
		return false, err
	}
	err = m.update(func(tx *store.Tx) (bool, error) {
		var err error
		removed, err = deleteProfile(tx, owner, profileID)
		if err != nil || !removed || m.ix == nil {
			return false, err
		}
		if m.gen+1 != generation(tx) {
			m.ix = nil
			return false, nil
		}
		m.gen++
		m.ix.remove(owner, profileID)
		return true, nil
	})
	if err != nil {
		return false, fmt.Errorf("remove profile %q: %w", profileID, err)
	}
	return removed, nil
}

// Get returns owner's profile of that id, or nil.
func (m *Monitor) Get(owner, profileID string) (*Profile, error) {
	var p *Profile
	err := m.db.Read(func(tx *store.Tx) error {
		var err error
		p, err = getProfile(tx, owner, profileID)
		return err
	})
	return p, err
}

// Profiles lists owner's profiles by profile id, or every owner's (by
// owner, then id) when owner is "".
func (m *Monitor) Profiles(owner string) ([]Profile, error) {
	var out []Profile
	err := m.db.Read(func(tx *store.Tx) error {
		return forEachProfile(tx, owner, func(p *Profile) error {
			out = append(out, *p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// Count returns the number of owner's profiles, for the usage summary and
// quotas.
func (m *Monitor) Count(owner string) (int, error) {
	var n uint64
	err := m.db.Read(func(tx *store.Tx) error {
		if b := store.Profiles.Bucket(tx); b != nil {
			n = getCount(b, owner)
		}
		return nil
	})
	return int(n), err
}

// OnQueued registers fn to run after every commit that queued
// notifications, typically Sender.Wake, so that a sender in the same
// process starts at once instead of at its next poll.
func (m *Monitor) OnQueued(fn func()) {
	m.wakeMu.Lock()
	m.wakers = append(m.wakers, fn)
	m.wakeMu.Unlock()
}

func (m *Monitor) wake() {
	m.wakeMu.Lock()
	ws := append([]func(){}, m.wakers...)
	m.wakeMu.Unlock()
	for _, fn := range ws {
		fn()
	}
}
