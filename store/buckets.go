package store

// Bucket names. All of them are created when a store is first opened for
// writing, so a read transaction never has to allow for a missing bucket
// of a store written by this version.
//
// The buckets of other packages are declared as sub-stores in tx.go.
var (
	bucketMeta     = []byte("meta")      // schema, version, counters
	bucketRecords  = []byte("records")   // record id -> blob (codec.go)
	bucketVersions = []byte("versions")  // seq (8 bytes) -> versionEntry JSON
	bucketChanges  = []byte("changelog") // seq (8 bytes) + chunk (4 bytes) -> compressed change lines
	// bucketChangesBefore holds, for the UPDATEs of each logged change set,
	// the records as they were before, keyed as bucketChanges: the change
	// digest's old values. Change sets logged before it existed have none.
	bucketChangesBefore = []byte("changelog_before")
	bucketStats         = []byte("stats")   // "s:"+source_type, "e:"+entity_type, "i:"+source_id -> count
	bucketSources       = []byte("sources") // source id -> record.Source JSON
	bucketSync          = []byte("sync")    // sync state and daily download counters

	bucketProfiles = []byte("profiles") // Profiles
	bucketOutbox   = []byte("outbox")   // Outbox
	bucketUsage    = []byte("usage")    // Usage
	bucketKeys     = []byte("keys")     // Keys, reserved
)

var allBuckets = [][]byte{
	bucketMeta, bucketRecords, bucketVersions, bucketChanges, bucketChangesBefore, bucketStats,
	bucketSources, bucketSync, bucketProfiles, bucketOutbox, bucketUsage, bucketKeys,
}

// Keys of the meta bucket.
var (
	metaSchemaVersion = []byte("schema_version") // layout of this file; see schemaVersion
	metaRecordSchemas = []byte("record_schemas") // JSON list of codec schemas, by id
	metaVersion       = []byte("version")        // current File-Version
	metaAppliedAt     = []byte("applied_at")     // when it was applied, RFC 3339
	metaSeq           = []byte("seq")            // change sets applied so far
	metaCount         = []byte("count")          // records in the records bucket
	metaSourcesAt     = []byte("sources_at")     // when the catalogue was last stored
	metaPruneFrom     = []byte("prune_from")     // seq of the oldest version that may still be logged
)

// schemaVersion is the layout of the bbolt file this package writes. A
// store of a newer layout is refused rather than misread.
const schemaVersion = 1
