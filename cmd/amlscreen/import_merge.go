package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// mergeHelp explains import --merge; it is appended to import's --help.
const mergeHelp = `

Merging (--merge): the file's records replace those of their sources only;
every other source stays as it is. Records of those sources that the file
lacks are deleted, changed ones updated, new ones added, and a second run with
the same file changes nothing. The merge is a change set like a delta: one
transaction with a new version, written to the change log (replicas get it
through getConsolidatedDelta) and seen by ongoing monitoring. --sources names
the sources replaced: then every record must be of one of them, and an empty
file removes them. A record of a source outside the merge that holds one of
the file's ids, a record without source_id and an id given twice are refused,
and nothing is applied.`

// mergeExample shows import --merge; it is appended to import's examples.
const mergeExample = `
  amlscreen import --merge --store aml.db internal.jsonl.gz
  amlscreen import --merge --sources my_bank_internal --store aml.db empty.jsonl`

func addMergeFlags(cmd *cobra.Command, merge *bool, sources *[]string) {
	cmd.Flags().BoolVar(merge, "merge", false, "replace only the sources of the file's records, keeping every other source")
	cmd.Flags().StringSliceVar(sources, "sources", nil, "with --merge: the source ids replaced (default: those of the file's records)")
	cmd.Long += mergeHelp
	cmd.Example += mergeExample
}

func runMerge(stderr io.Writer, storePath, file, version string, merge bool, sources []string, allowShrink bool) error {
	switch {
	case !merge:
		return usagef("--sources: only with --merge")
	case storePath == "":
		return usagef("--store: required")
	}
	for _, s := range sources {
		if !validSourceID(strings.TrimSpace(s)) {
			return usagef("--sources: %q is not a source id (letters, digits, _ and -)", s)
		}
	}
	var a *store.Applied
	err := intoStore(stderr, storePath, file, "merge", store.Options{AllowShrink: allowShrink}, func(db *store.Store, r io.Reader) error {
		rd, err := record.NewReader(r)
		if err != nil {
			return err
		}
		defer rd.Close()
		if version == "" {
			if version, err = db.NextVersion(); err != nil {
				return err
			}
		}
		a, err = db.MergeSources(version, rd.Record, store.MergeOptions{Sources: sources}, nil)
		return err
	})
	if errors.Is(err, store.ErrNothingToMerge) {
		return usageError{fmt.Errorf("%w: name the sources to remove with --sources", err)}
	}
	if err != nil {
		return err
	}
	log := cliLogger(stderr)
	if len(a.Changes) == 0 {
		log.Info("merged: nothing changed", "file", file, "version", a.Version, "records", a.Records)
		return nil
	}
	log.Info("merged", "file", file, "version", a.Version, "previous", a.Previous, "records", a.Records,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted)
	return nil
}
