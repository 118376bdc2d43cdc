package store

import (
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Local sources. A bank merges its own watchlist, or a list it converted
// itself, into a store that otherwise follows an upstream (MergeSources,
// amlscreen import --merge). The upstream's consolidated file knows nothing
// of those sources, so a full import of it (a first sync, or the full-file
// fallback of a sync whose previous version the upstream no longer has)
// would remove them without a word: a silent miss for every name on the
// bank's own list. The store therefore remembers which sources were
// merged, and a full import (ReplaceAll) and a new catalogue (PutSources)
// keep them. A merge that removes every record of a source it names forgets
// it again.
//
// When the consolidated file holds a record with the id of a local record,
// the file's record replaces it, as any full import replaces a record: ids
// are the upstream's to give, and MergeSources refuses ids held by another
// source in the first place.

// metaLocalSource prefixes the meta keys that mark a source as local.
const metaLocalSource = "local_source/"

// localSources returns the ids of the sources merged into the store.
func localSources(tx *bolt.Tx) (map[string]bool, error) {
	set := map[string]bool{}
	err := forPrefix(tx.Bucket(bucketMeta), metaLocalSource, func(id string, _ []byte) error {
		set[id] = true
		return nil
	})
	return set, err
}

// markLocalSources records after a merge which of the merged sources hold
// records (and so are local) and which the merge emptied (and so are not).
func markLocalSources(tx *bolt.Tx, merged map[string]bool) error {
	meta, stats := tx.Bucket(bucketMeta), tx.Bucket(bucketStats)
	for id := range merged {
		key := []byte(metaLocalSource + id)
		var err error
		if getUint(stats, []byte(statSourceID+id)) > 0 {
			err = meta.Put(key, []byte{1})
		} else {
			err = meta.Delete(key)
		}
		if err != nil {
			return fmt.Errorf("mark local source %s: %w", id, err)
		}
	}
	return nil
}

// LocalSources returns the ids of the sources merged into the store
// (MergeSources), which full imports keep, sorted.
func (db *Store) LocalSources() ([]string, error) {
	var ids []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		set, err := localSources(tx)
		for id := range set {
			ids = append(ids, id)
		}
		return err
	})
	slices.Sort(ids)
	return ids, err
}
