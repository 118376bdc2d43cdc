package store

// Bucket names. All of them are created when a store is first opened for
// writing, so a read transaction never has to allow for a missing bucket
// of a store written by this version.
//
// The exported names are reserved for later packages, which use them from a
// TxHook or from Store.Update so that their state changes in the same
// transaction as the records they depend on.
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

	// BucketProfiles holds the search profiles of ongoing monitoring.
	BucketProfiles = []byte("profiles")
	// BucketOutbox holds webhook notifications not yet delivered; they are
	// written in the transaction that applies the change causing them.
	BucketOutbox = []byte("outbox")
	// BucketUsage holds the per-key call counters of the local /v1 server.
	BucketUsage = []byte("usage")
	// BucketKeys holds API keys and signing keys of the local /v1 server.
	BucketKeys = []byte("keys")
)

var allBuckets = [][]byte{
	bucketMeta, bucketRecords, bucketVersions, bucketChanges, bucketChangesBefore, bucketStats,
	bucketSources, bucketSync, BucketProfiles, BucketOutbox, BucketUsage, BucketKeys,
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
