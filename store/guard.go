package store

import (
	"fmt"
	"log/slog"
	"sync/atomic"
)

// The shrink guard. A consolidated file replaces every record, so a
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
// A change set (ApplyDelta: apply, sync, serve's sync loop) and a merge
// (MergeSources: import --merge) pass the same guard: one that would
// leave a store that held records with none is refused always, one that
// deletes more than ShrinkShare of them unless Options.AllowShrink (the
// same --allow-shrink). Their refusal comes after the changes were made in
// the transaction, which it rolls back.
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
	// Kind is what was refused: "full import" (also when empty),
	// "change set" or "merge".
	Kind    string
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
	kind := e.Kind
	if kind == "" {
		kind = "full import"
	}
	if e.Empty && kind == "full import" {
		return fmt.Sprintf("full import of %s refused: the file holds no records (the store keeps its %d); an empty or truncated file never replaces a store", e.Version, e.Before)
	}
	if e.Empty {
		return fmt.Sprintf("%s %s refused: it would remove all %d records of the store and leave it empty (the store keeps them); an operator who wants an empty store deletes its file", kind, e.Version, e.Before)
	}
	return fmt.Sprintf("%s %s refused: it would remove %d of the store's %d records (%.0f%%, more than %.0f%%) and leave %d; check the file, or pass --allow-shrink if the list really shrank",
		kind, e.Version, e.Removed, e.Before, 100*float64(e.Removed)/float64(e.Before), 100*ShrinkShare, e.After)
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
	return g.checkKind("full import", version, before, kept, after, false)
}

// checkKind is check for a kind of writer (ShrinkError.Kind). A change
// set or merge on an empty store, or one that deletes nothing, passes;
// allow lets a shrink through for this writer as Options.AllowShrink does
// for all (MergeOptions.AllowShrink).
func (g *guard) checkKind(kind, version string, before, kept, after int, allow bool) (shrink bool, err error) {
	removed := before - kept
	full := kind == "full import"
	switch {
	case !full && (before == 0 || removed <= 0):
		return false, nil
	case after == 0:
		err = &ShrinkError{Kind: kind, Version: version, Before: before, Empty: true}
		if !full {
			err.(*ShrinkError).Removed = removed
		}
	case before > 0 && float64(removed) > ShrinkShare*float64(before):
		if g.allowShrink || allow {
			g.log.Warn(kind+" removes more than half of the store's records; allowed by --allow-shrink",
				"version", version, "records_before", before, "records_after", after, "removed", removed)
			return true, nil
		}
		err = &ShrinkError{Kind: kind, Version: version, Before: before, After: after, Removed: removed}
	default:
		return false, nil
	}
	g.refused.Add(1)
	g.log.Error(kind+" refused; the store keeps its records", "version", version,
		"records_before", before, "records_after", after, "removed", removed, "error", err.Error())
	return false, err
}
