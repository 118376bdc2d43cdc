package store

import "time"

// IndexStatus describes the persisted screening index beside a store
// (written and read by package screen): whether it reflects the store's
// current version, and its size.
type IndexStatus struct {
	// State is "current", "stale" (the store is ahead: the next open
	// replays or rebuilds it), "missing", "unreadable" (damaged: a file
	// fails its checksum or the record counts disagree) or "foreign"
	// (built from another store); the next open rebuilds the last three.
	State      string `json:"state"`
	Version    string `json:"version,omitempty"` // the store version it reflects
	Segments   int    `json:"segments"`
	Bytes      int64  `json:"bytes"`
	Records    int    `json:"records"`
	Tombstones int    `json:"tombstones"`
	Reason     string `json:"reason,omitempty"` // why it is not current
}

// Status is what a store holds and how its syncs went: the answer of
// /v1/status, an amlscreen extension of the API, and of amlscreen status
// (which adds Store and SizeBytes for a local store). Keys are snake_case
// like the API's.
type Status struct {
	// Index is the persisted screening index, when the caller looked.
	Index *IndexStatus `json:"index,omitempty"`
	// Store is the file of a local store, the server's URL for amlscreen
	// status --server; a server leaves it empty.
	Store     string     `json:"store,omitempty"`
	SizeBytes int64      `json:"size_bytes"`
	Version   string     `json:"version"`
	AppliedAt *time.Time `json:"applied_at,omitempty"`
	Full      bool       `json:"full_import"`
	Records   int        `json:"records"`
	// BySourceType and ByEntityType count the records by their type.
	BySourceType map[string]int `json:"by_source_type"`
	ByEntityType map[string]int `json:"by_entity_type"`
	// LocalSources are the sources merged into the store (import
	// --merge), which full imports keep, with their record counts.
	LocalSources   map[string]int `json:"local_sources,omitempty"`
	DownloadsToday int            `json:"downloads_today"`
	// DownloadLimit is the daily limit downloads count against: the one
	// the upstream announced (0: none), else the service's 50.
	DownloadLimit int        `json:"download_limit"`
	Sources       int        `json:"sources_in_catalogue"`
	SourcesAt     *time.Time `json:"sources_synced_at,omitempty"`
	DeltasFrom    string     `json:"deltas_from,omitempty"`
	LastSync      *LastSync  `json:"last_sync,omitempty"`
}

// LastSync is the store's sync state: where it syncs from and how the last
// run went.
type LastSync struct {
	Upstream string     `json:"upstream,omitempty"`
	Includes string     `json:"includes,omitempty"`
	Attempt  *time.Time `json:"attempt,omitempty"`
	Success  *time.Time `json:"success,omitempty"`
	Error    string     `json:"error,omitempty"`
}

// Status reads the status of db at now (the UTC day of the downloads)
// from one read of its counters: no record is read, so it costs the same
// at any size.
func (db *Store) Status(now time.Time) (*Status, error) {
	st, err := db.Stats()
	if err != nil {
		return nil, err
	}
	downloads, err := db.DownloadsToday(now)
	if err != nil {
		return nil, err
	}
	ss, err := db.SyncState()
	if err != nil {
		return nil, err
	}
	rep := &Status{
		SizeBytes: st.Size, Version: st.Version.ID, Full: st.Version.Full,
		Records: st.Records, BySourceType: st.BySourceType, ByEntityType: st.ByEntityType,
		DownloadsToday: downloads, DownloadLimit: DailyDownloadLimit,
		Sources: st.Sources, SourcesAt: timeOrNil(st.SourcesAt), DeltasFrom: st.DeltasFrom,
		AppliedAt: timeOrNil(st.Version.AppliedAt),
	}
	local, err := db.LocalSources()
	if err != nil {
		return nil, err
	}
	for _, id := range local {
		if rep.LocalSources == nil {
			rep.LocalSources = map[string]int{}
		}
		rep.LocalSources[id] = st.BySourceID[id]
	}
	if ss.DownloadLimit != nil {
		rep.DownloadLimit = *ss.DownloadLimit
	}
	if ss != (SyncState{}) {
		rep.LastSync = &LastSync{Upstream: ss.Upstream, Includes: ss.Includes,
			Attempt: timeOrNil(ss.LastAttempt), Success: timeOrNil(ss.LastSuccess), Error: ss.LastError}
	}
	return rep, nil
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}
