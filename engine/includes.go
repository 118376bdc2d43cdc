package engine

import "maps"

// SourceTypes returns, for every source id the index has seen, the
// source_type of its first record, so that callers can tell default sources
// from OTHER ones. It costs one entry per source, not a scan of records.
func (ix *Index) SourceTypes() map[string]string {
	v := ix.acquire()
	defer v.release()
	return maps.Clone(v.types)
}
