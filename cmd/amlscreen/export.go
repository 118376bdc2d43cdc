package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newExportCmd) }

type exportFlags struct {
	store string
	out   string
	since string
	gzip  bool
}

func newExportCmd() *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export --store PATH [-o FILE] [--since V] [--gzip]",
		Short: "Write the store out as a consolidated file or delta, for an air-gapped machine",
		Long: `Write the store's records as a consolidated file (camelCase JSON Lines, as
getConsolidatedFile serves it), or with --since V the changes from version V to
the current one as a delta file. A connected machine runs sync and export; the
file is carried to the air-gapped machine and loaded there with import or apply.

The version of the output is logged on stderr together with the command to run
on the other side. Output goes to standard output unless -o is given; a FILE
ending in .gz, or --gzip, compresses it.

--since works while the store's change log reaches back to V (14 days); older
versions need a full export.

Exit codes: 0 written, 1 failure (unknown --since version, I/O), 2 bad flags.`,
		Example: `  amlscreen export --store aml.db -o consolidated.jsonl.gz
  amlscreen export --store aml.db --since "2025-06-01T04:00:00Z~812" -o delta.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runExport(cmd.OutOrStdout(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.store, "store", "", "store file (bbolt)")
	fl.StringVarP(&f.out, "output", "o", "", "file to write (default: standard output)")
	fl.StringVar(&f.since, "since", "", "write a delta from this version instead of the whole database")
	fl.BoolVar(&f.gzip, "gzip", false, "compress the output (implied by -o FILE.gz)")
	return cmd
}

func runExport(stdout, stderr io.Writer, f *exportFlags) (err error) {
	if f.store == "" {
		return usagef("--store: required")
	}
	db, err := store.Open(f.store, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	o := syncer.ExportOptions{Gzip: f.gzip || strings.HasSuffix(f.out, ".gz")}
	w, dest := stdout, "standard output"
	if f.out != "" {
		// Written beside the target and renamed at the end, so that a
		// failed export never leaves a file that looks complete.
		tmp, err := os.CreateTemp(filepath.Dir(f.out), filepath.Base(f.out)+".*.part")
		if err != nil {
			return err
		}
		defer func() {
			if cerr := tmp.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Rename(tmp.Name(), f.out)
			}
			if err != nil {
				os.Remove(tmp.Name())
			}
		}()
		w, dest = tmp, f.out
	}
	log := cliLogger(stderr)
	other := "FILE"
	if f.out != "" {
		other = filepath.Base(f.out)
	}
	if f.since != "" {
		version, n, err := syncer.ExportDelta(db, w, f.since, o)
		if errors.Is(err, store.ErrUnknownVersion) {
			return fmt.Errorf("--since %s: the store's change log does not reach back to that version; export the whole database instead", f.since)
		}
		if err != nil {
			return err
		}
		log.Info("exported delta", "to", dest, "previous", f.since, "version", version, "changes", n,
			"then_run", fmt.Sprintf("amlscreen apply --store PATH %s --previous %q --version %q", other, f.since, version))
		return nil
	}
	version, n, err := syncer.ExportFile(db, w, o)
	if err != nil {
		return err
	}
	if version == "" {
		return errors.New("the store is empty; nothing to export")
	}
	log.Info("exported", "to", dest, "version", version, "records", n,
		"then_run", fmt.Sprintf("amlscreen import --store PATH %s --version %q", other, version))
	return nil
}
