package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newImportCmd) }

func newImportCmd() *cobra.Command {
	var storePath, version string
	var merge bool
	var sources []string
	var allowShrink bool
	cmd := &cobra.Command{
		Use:   "import --store PATH FILE [--version V] [--merge [--sources IDS]]",
		Short: "Replace the store's records with a consolidated file (air-gapped transfer)",
		Long: `Import a full consolidated file (JSON Lines, plain or gzip, as
getConsolidatedFile serves it or export writes it) into the store, replacing
every record in one transaction. A line that does not parse stops the import
with its line number, and the store stays at its previous version.

--version sets the version the store is at afterwards; pass the File-Version
the file came with, so that deltas can be applied to it later. Without it the
store makes a version of its own. FILE "-" reads standard input. The store is
created when absent.

--merge replaces only the sources of the file's records and leaves the
others (see Merging below).

A file with no records (empty, blank lines only, a truncated download) never
replaces the store. A file that would remove more than half of the store's
records is refused too, unless --allow-shrink says the list really shrank;
either way it is logged, and nothing is applied or notified when refused.
The same holds for --merge: a merge that would empty the store is refused,
one that removes more than half of its records needs --allow-shrink.

Exit codes: 0 imported, 1 failure (bad line, I/O, store locked), 2 bad flags.`,
		Example: `  amlscreen import --store aml.db consolidated.jsonl.gz --version "2025-06-01T04:00:00Z~812"
  amlscreen export --store primary.db | amlscreen import --store copy.db - --version "$(amlscreen status --store primary.db --format json | jq -r .version)"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if merge || len(sources) > 0 {
				return runMerge(cmd.ErrOrStderr(), storePath, args[0], version, merge, sources, allowShrink)
			}
			return runImport(cmd.ErrOrStderr(), storePath, args[0], version, allowShrink)
		},
	}
	addStoreFlag(cmd.Flags(), &storePath)
	cmd.Flags().StringVar(&version, "version", "", "version of the file (default: a new version of the store's own)")
	addMergeFlags(cmd, &merge, &sources)
	cmd.Flags().BoolVar(&allowShrink, "allow-shrink", false, "let the file (or the merge) remove more than half of the store's records")
	return cmd
}

func runImport(stderr io.Writer, storePath, file, version string, allowShrink bool) error {
	if storePath == "" {
		return usagef("--store: required")
	}
	var a *store.Applied
	err := intoStore(stderr, storePath, file, "import", store.Options{AllowShrink: allowShrink}, func(db *store.Store, r io.Reader) error {
		var err error
		if version == "" {
			if version, err = db.NextVersion(); err != nil {
				return err
			}
		}
		a, err = syncer.ImportFile(db, r, version, nil)
		return err
	})
	if err != nil {
		return err
	}
	log := cliLogger(stderr)
	log.Info("imported", "file", file, "version", version, "records", a.Records,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted)
	return nil
}
