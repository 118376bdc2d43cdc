package service

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/store"
)

// Watch is what every change set of a store runs in its own transaction,
// whichever command or server applies it.
type Watch struct {
	// Index returns the serving index, for scored profiles and books.
	Index func() (*engine.Index, error)
	// Monitor is the monitoring of the store's search profiles; nil makes
	// one for commands that only apply changes (monitor.Hook).
	Monitor *monitor.Monitor
	// Shard is the part of the customer book this process screens.
	Shard book.Shard
	// Log receives the monitoring matches casework could not raise.
	Log *slog.Logger
}

// MonitorOptions returns the options of a monitor that raises its matches
// as alerts of db's casework: New(db, MonitorOptions(...)) for a server,
// which keeps the monitor to register profiles and deliver.
func MonitorOptions(db *store.Store, index func() (*engine.Index, error), log *slog.Logger) monitor.Options {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return monitor.Options{Log: log, Index: index, OnMatch: MonitorAlerts(casework.New(db, casework.Options{}), log)}
}

// Register registers the change hooks on db in their one fixed order:
// monitoring's notifications and alerts, then the reopening of alerts
// whose record changed, then the book's matches raised as alerts. A hook
// that fails rolls the whole change set back.
func (w Watch) Register(db *store.Store) {
	mon := w.Monitor
	if mon == nil {
		mon = monitor.New(nil, MonitorOptions(db, w.Index, w.Log))
	}
	db.OnApply(mon.Hook())
	db.OnApply(casework.New(db, casework.Options{}).Hook)
	db.OnApply(book.Hook(casework.New(db, casework.Options{}), w.Shard, w.Index))
}

// MonitorAlerts raises the matches of search profiles in a change set as
// alerts of cw (origin monitor): the profile id is the subject and its key
// the owner, so a decision approved on the alert holds the profile's later
// notifications back as a decision taken through the API does. A deletion
// raises none: its record is gone. A match casework refuses (a profile id
// it cannot hold as a subject) is logged and skipped, never failing the
// change set.
func MonitorAlerts(cw *casework.Casework, log *slog.Logger) func(*store.Tx, *store.Applied, []monitor.Notification) error {
	return func(tx *store.Tx, ap *store.Applied, ns []monitor.Notification) error {
		for _, n := range ns {
			e := n.Entity
			if n.MatchType == monitor.MatchDelete || e == nil {
				continue
			}
			p := n.Profile
			names := p.Names
			if names == "" {
				names = p.SearchAll
			}
			hit := casework.NewAlert{Subject: p.ID, Owner: p.Owner, Origin: casework.OriginMonitor, Version: ap.Version,
				Query: casework.Query{Kind: p.Kind.String(), Names: names, DOB: p.DOB, Gender: p.Gender},
				Hit:   casework.HitOn(e, "", e.Name, "monitoring: "+strings.ToLower(n.MatchType), nil), Record: e}
			_, err := cw.RaiseTx(tx, "monitor", []casework.NewAlert{hit})
			var fe *casework.FieldError
			if errors.As(err, &fe) {
				log.Warn("monitoring match not raised as an alert", "profile_id", p.ID, "record_id", e.ID, "reason", err)
				continue
			}
			if err != nil {
				return fmt.Errorf("alert of profile %q: %w", p.ID, err)
			}
		}
		return nil
	}
}
