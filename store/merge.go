package store

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// MergeOptions says which sources a merge replaces.
type MergeOptions struct {
	// Sources are the source ids the merge replaces. Empty means the
	// sources of the records read; naming them lets an empty file remove
	// a source, and refuses a file that holds records of another.
	Sources []string
	// AllowShrink lets this merge delete more than ShrinkShare of the
	// store's records, as Options.AllowShrink does for every writer: a
	// caller with a guard of its own (a public list's) decides per merge.
	// A merge that would leave the store empty is refused all the same.
	AllowShrink bool
}

// ErrNothingToMerge is returned for a merge without records or sources:
// it cannot say which source to replace.
var ErrNothingToMerge = errors.New("no records and no sources named: nothing to merge")

// MergeSources replaces the records of some sources with those returned
// by next (which returns io.EOF after the last) and leaves every other
// source as it is: the way a bank adds its own watchlist, or a list it
// converted itself, to a store that holds the consolidated file.
//
// It is a change set like a delta. The records of those sources that the
// store holds are compared with the file's: new ids are ADDs, changed
// records UPDATEs (a record without list_date keeps the stored one, as a
// delta's does), ids of those sources the file lacks DELETEs, and
// unchanged records nothing. The changes are applied by the path
// ApplyDelta takes, in one write transaction that also makes version
// current, writes the change log (so replicas get the merge through
// getConsolidatedDelta) and runs hook (so monitoring notifies); a failure
// anywhere leaves the store at the version it was at. Run again with the
// same file, a merge changes nothing and makes no new version: it then
// returns an Applied whose Version is the current one and that lists no
// changes.
//
// The file is refused, and nothing applied, when a record has no id or no
// source_id, when an id comes twice, when a record is of a source outside
// o.Sources (when given), and when an id is held by a record of a source
// the merge does not replace: replacing it would take a record away from
// its own source without a word.
//
// The merged sources become local sources (see local.go): full imports of
// an upstream's consolidated file keep their records.
//
// Memory: the file's records and the stored records of the merged sources
// are held until the commit; every stored record is decoded once, to read
// its source.
func (db *Store) MergeSources(version string, next func() (*record.Record, error), o MergeOptions, hook Hook) (*Applied, error) {
	if db.readOnly {
		return nil, ErrReadOnly
	}
	if version == "" {
		return nil, fmt.Errorf("merge: %w", ErrNoVersion)
	}
	merged := map[string]bool{}
	for _, s := range o.Sources {
		if s = strings.TrimSpace(s); s != "" {
			merged[s] = true
		}
	}
	named := len(merged) > 0
	var file []*record.Record
	index := map[string]int{}
	for {
		r, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("merge %s: %w", version, err)
		}
		n := len(file) + 1
		if r == nil {
			return nil, fmt.Errorf("merge %s: record %d: %w", version, n, record.ErrNoID)
		}
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("merge %s: record %d: %w", version, n, err)
		}
		if r.SourceID == "" {
			return nil, fmt.Errorf("merge %s: record %s has no source_id: a merge replaces sources, so every record must name its own", version, r.ID)
		}
		if named && !merged[r.SourceID] {
			return nil, fmt.Errorf("merge %s: record %s is of source %s, which is not among the sources merged (%s)",
				version, r.ID, r.SourceID, strings.Join(sortedKeys(merged), ", "))
		}
		if i, dup := index[r.ID]; dup {
			return nil, fmt.Errorf("merge %s: id %s comes twice (records %d and %d)", version, r.ID, i+1, n)
		}
		index[r.ID] = len(file)
		file = append(file, r)
		merged[r.SourceID] = true
	}
	if len(merged) == 0 {
		return nil, fmt.Errorf("merge %s: %w", version, ErrNothingToMerge)
	}
	var applied *Applied
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		previous := currentID(tx)
		if previous == version {
			return fmt.Errorf("the store is at version %q already: a merge must make a new one", version)
		}
		changes, err := db.mergeChanges(tx, file, index, merged)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			applied = &Applied{Previous: previous, Version: previous, Records: int(getUint(tx.Bucket(bucketMeta), metaCount))}
			// A store merged before sources were remembered learns
			// them from a merge that changes nothing.
			return markLocalSources(tx, merged)
		}
		if applied, err = db.applyChanges(tx, "merge", previous, version, changes, o.AllowShrink); err != nil {
			return err
		}
		if err := markLocalSources(tx, merged); err != nil {
			return err
		}
		if err := db.runHooks(tx, applied, hook); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w", version, err)
	}
	return applied, nil
}

// mergeChanges compares the file's records with the stored records of the
// merged sources and returns the change set that turns the one into the
// other: ADDs and UPDATEs in file order, then DELETEs in id order.
func (db *Store) mergeChanges(tx *bolt.Tx, file []*record.Record, index map[string]int, merged map[string]bool) ([]record.Change, error) {
	stored := map[string]*record.Record{}
	c := tx.Bucket(bucketRecords).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r, err := db.codec.decode(v)
		if err != nil {
			return nil, fmt.Errorf("record %s: %w", k, err)
		}
		_, inFile := index[r.ID]
		switch {
		case merged[r.SourceID]:
			stored[r.ID] = r
		case inFile:
			return nil, fmt.Errorf("id %s is held by a record of source %s, which this merge does not replace; give the record another id",
				r.ID, r.SourceID)
		}
	}
	var changes []record.Change
	for _, r := range file {
		before, ok := stored[r.ID]
		if !ok {
			changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
			continue
		}
		after := r.Clone()
		if after.ListDate == 0 {
			after.ListDate = before.ListDate
		}
		if !sameRecord(before, after) {
			changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: *after})
		}
	}
	var gone []string
	for id := range stored {
		if _, ok := index[id]; !ok {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: id}})
	}
	return changes, nil
}
