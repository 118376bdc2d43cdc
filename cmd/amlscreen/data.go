package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
)

// database is what screening commands answer from: an index, the source
// catalogue and the version it was built from.
type database struct {
	index   *engine.Index
	sources []record.Source // catalogue; may not list every source of the records
	version string
	origin  string // "embedded sample", "store PATH" or the data files
}

// openDatabase loads the records of the --data files, or of the embedded
// sample when there are none.
func openDatabase(dataFiles []string) (*database, error) {
	if len(dataFiles) == 0 {
		recs, err := sampledata.Records()
		if err != nil {
			return nil, fmt.Errorf("embedded sample: %w", err)
		}
		srcs, err := sampledata.Sources()
		if err != nil {
			return nil, fmt.Errorf("embedded sample sources: %w", err)
		}
		return &database{index: engine.NewIndex(recs), sources: srcs, version: sampledata.Version, origin: "embedded sample"}, nil
	}
	var recs []*record.Record
	for _, name := range dataFiles {
		f, err := os.Open(name)
		if err != nil {
			return nil, usagef("--data: %v", err)
		}
		r, err := record.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("--data %s: %w", name, err)
		}
		recs = append(recs, r...)
	}
	return &database{index: engine.NewIndex(recs), version: "", origin: fmt.Sprint(dataFiles)}, nil
}

// sourceSet resolves --includes against the database: known ids are those
// of the catalogue and of the records; the default is every source that is
// not of type OTHER, plus OTHER ones when includeOther is set.
func (db *database) sourceSet(includes string, includeOther bool) (map[string]bool, error) {
	types := db.index.SourceTypes()
	for _, s := range db.sources {
		if _, ok := types[s.Source]; !ok {
			types[s.Source] = s.SourceType
		}
	}
	var included []string
	for id, t := range types {
		if includeOther || (t != record.SourceOther && t != "other") {
			included = append(included, id)
		}
	}
	sort.Strings(included)
	return engine.ResolveIncludes(includes, func(id string) bool { _, ok := types[id]; return ok }, included)
}
