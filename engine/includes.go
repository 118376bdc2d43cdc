package engine

// SourceTypes returns, for every source id the index has seen, the
// source_type of its first record, so that callers can tell default sources
// from OTHER ones. It costs one entry per source, not a scan of records.
func (ix *Index) SourceTypes() map[string]string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]string, len(ix.sources))
	for i, id := range ix.sources {
		out[id] = ix.srcTypes[i]
	}
	return out
}
