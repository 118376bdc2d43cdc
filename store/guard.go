package store

import (
	"fmt"
	"log/slog"
	"sync/atomic"
)

// The full-import guard. A consolidated file replaces every record, so a
// truncated download, an upstream answering an empty body, or the wrong
// file would quietly turn sanctioned names into misses. ReplaceAll, the
// one way every writer (import, sync, serve's sync loop) replaces the
// records, therefore refuses:
//
//   - a file with no records, always: a consolidated database is never
//     empty, and an operator who wants an empty store deletes the file;
//   - a file that would remove more than half of the records the store
//     holds (ShrinkShare), unless the store was opened with
//     Options.AllowShrink.
//
// The counts come from the merge a full import makes anyway, and the
// decision falls before anything is written, so the guard costs an
// import it lets through nothing. A refusal applies nothing: the records,
// the version and the monitoring outbox stay as they were (the hook does
// not run). Refusals and allowed
// shrinks are logged (ERROR and WARN) and counted (GuardCounts), for the
// server's /metrics.

// ShrinkShare is the share of the store's records a full import may remove
// without Options.AllowShrink: more than half is refused. Lists change by
// a few percent between versions; half gone is a broken file.
const ShrinkShare = 0.5

// ShrinkError is the error of a refused full import: the file holds no
// records, or it would remove more than ShrinkShare of the store's.
type ShrinkError struct {
	Version string // the version the import would have made current
	Before  int    // records the store holds
	After   int    // records the file holds
	Removed int    // records of the store the file does not hold
	// Empty is set when the file holds no records; AllowShrink does not
	// override it.
	Empty bool
}

// Error says what the import would have done and how to override it.
func (e *ShrinkError) Error() string {
	if e.Empty {
		return fmt.Sprintf("full import of %s refused: the file holds no records (the store keeps its %d); an empty or truncated file never replaces a store", e.Version, e.Before)
	}
	return fmt.Sprintf("full import of %s refused: it would remove %d of the store's %d records (%.0f%%, more than %.0f%%) and leave %d; check the file, or pass --allow-shrink if the list really shrank",
		e.Version, e.Removed, e.Before, 100*float64(e.Removed)/float64(e.Before), 100*ShrinkShare, e.After)
}

// GuardCounts are what the full-import guard did since the store was
// opened.
type GuardCounts struct {
	Refused uint64 // full imports refused (ShrinkError)
	Allowed uint64 // full imports that removed more than ShrinkShare, allowed by Options.AllowShrink
}

// guard is the full-import guard's state in a Store.
type guard struct {
	allowShrink bool
	log         *slog.Logger
	refused     atomic.Uint64
	allowed     atomic.Uint64
}

// GuardCounts returns the full-import guard's counters.
func (db *Store) GuardCounts() GuardCounts {
	return GuardCounts{Refused: db.guard.refused.Load(), Allowed: db.guard.allowed.Load()}
}

// check decides on a full import of version that keeps kept of the
// store's before records and holds after in all. It returns a
// *ShrinkError for a refusal, and whether the import is an allowed shrink
// (to be counted once it commits).
func (g *guard) check(version string, before, kept, after int) (shrink bool, err error) {
	removed := before - kept
	switch {
	case after == 0:
		err = &ShrinkError{Version: version, Before: before, Empty: true}
	case before > 0 && float64(removed) > ShrinkShare*float64(before):
		if g.allowShrink {
			g.log.Warn("full import removes more than half of the store's records; allowed by --allow-shrink",
				"version", version, "records_before", before, "records_after", after, "removed", removed)
			return true, nil
		}
		err = &ShrinkError{Version: version, Before: before, After: after, Removed: removed}
	default:
		return false, nil
	}
	g.refused.Add(1)
	g.log.Error("full import refused; the store keeps its records", "version", version,
		"records_before", before, "records_after", after, "removed", removed, "error", err.Error())
	return false, err
}
