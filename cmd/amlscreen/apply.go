package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newApplyCmd) }

func newApplyCmd() *cobra.Command {
	var storePath, previous, version string
	var allowShrink bool
	cmd := &cobra.Command{
		Use:   "apply --store PATH DELTA --previous V --version V2",
		Short: "Apply a delta file to the store (air-gapped transfer)",
		Long: `Apply a delta (JSON Lines of {"type":"ADD|UPDATE|DELETE","record":{...}}, plain
or gzip, as getConsolidatedDelta serves it or export --since writes it) in one
transaction. The store must be at --previous, else nothing is applied and the
error names both versions; applying the same delta twice is refused that way.
Afterwards the store is at --version.

An UPDATE of an unknown id is applied as an ADD, a DELETE of an unknown id is
ignored; both are counted in the log line. A line that does not parse stops
the delta with its line number and nothing of it is applied. A delta that
would delete every record of the store is refused, one that deletes more than
half of them too unless --allow-shrink says the list really shrank.

Exit codes: 0 applied, 1 failure (bad line, version mismatch, store locked),
2 bad flags.`,
		Example: `  amlscreen apply --store aml.db delta.jsonl.gz --previous "2025-06-01T04:00:00Z~812" --version "2025-06-02T04:00:00Z~815"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApply(cmd.ErrOrStderr(), storePath, args[0], previous, version, allowShrink)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &storePath)
	fl.StringVar(&previous, "previous", "", "version the delta applies to (the store's current version)")
	fl.StringVar(&version, "version", "", "version the store is at after the delta")
	fl.BoolVar(&allowShrink, "allow-shrink", false, "let the delta delete more than half of the store's records")
	return cmd
}

func runApply(stderr io.Writer, storePath, file, previous, version string, allowShrink bool) error {
	switch {
	case storePath == "":
		return usagef("--store: required")
	case previous == "":
		return usagef("--previous: required (the version the delta applies to)")
	case version == "":
		return usagef("--version: required (the version the delta leads to)")
	}
	var a *store.Applied
	err := intoStore(stderr, storePath, file, "apply", store.Options{AllowShrink: allowShrink}, func(db *store.Store, r io.Reader) error {
		var err error
		a, err = syncer.ApplyFile(db, r, previous, version, nil)
		return err
	})
	if err != nil {
		return err
	}
	cliLogger(stderr).Info("applied", "file", file, "previous", previous, "version", version,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted, "ignored", a.Ignored, "records", a.Records)
	return nil
}
