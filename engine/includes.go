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

// SourceCounts returns, for every source id of the index, its live
// records: the catalogue's sizes, counted from the segments' per-record
// source fields, without reading a record.
func (ix *Index) SourceCounts() map[string]int64 {
	v := ix.acquire()
	defer v.release()
	out := map[string]int64{}
	for i := range v.segs {
		sv := &v.segs[i]
		counts := make([]int64, sv.sources())
		for ord, src := range sv.recSrc {
			if !sv.dead(uint32(ord)) {
				counts[src]++
			}
		}
		for k, n := range counts {
			if n > 0 {
				id, _ := sv.source(uint16(k))
				out[id] += n
			}
		}
	}
	return out
}
