package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/outfile"
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
		Use:   "export --store PATH [--out FILE] [--since V] [--gzip]",
		Short: "Write the store out as a consolidated file or delta, for an air-gapped machine",
		Long: `Write the store's records as a consolidated file (camelCase JSON Lines, as
getConsolidatedFile serves it), or with --since V the changes from version V to
the current one as a delta file. A connected machine runs sync and export; the
file is carried to the air-gapped machine and loaded there with import or apply.

The version of the output is logged on stderr together with the command to run
on the other side. Output goes to standard output unless --out (-o) is given;
a FILE ending in .gz, or --gzip, compresses it. A regular FILE is written under
a temporary name and renamed when complete; devices and pipes (/dev/stdout, a
FIFO) are written directly. Compressed output is not written to a terminal.

--since works while the store's change log reaches back to V (14 days); older
versions need a full export.

Exit codes: 0 written, 1 failure (unknown --since version, I/O), 2 bad flags.`,
		Example: `  amlscreen export --store aml.db --out consolidated.jsonl.gz
  amlscreen export --store aml.db --since "2025-06-01T04:00:00Z~812" --out delta.jsonl.gz
  amlscreen export --store aml.db | gzip > consolidated.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("output") {
				cliLogger(cmd.ErrOrStderr()).Warn("--output is deprecated; use --out")
			}
			return runExport(cmd.OutOrStdout(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVarP(&f.out, "out", "o", "", "file to write, or - for standard output (default: standard output)")
	// --output was the name before every command used --out; kept so
	// that scripts written for it still run.
	fl.StringVar(&f.out, "output", "", "file to write (deprecated: use --out)")
	fl.MarkHidden("output")
	fl.StringVar(&f.since, "since", "", "write a delta from this version instead of the whole database")
	fl.BoolVar(&f.gzip, "gzip", false, "compress the output (implied by -o FILE.gz)")
	return cmd
}

func runExport(stdout, stderr io.Writer, f *exportFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	if f.out == "" {
		f.out = outfile.StdoutName
	}
	db, err := store.Open(f.store, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	o := syncer.ExportOptions{Gzip: f.gzip || strings.HasSuffix(f.out, ".gz")}
	w, err := createOutput(f.out, stdout, binaryIf(o.Gzip, "gzip"))
	if err != nil {
		return err
	}
	// Closing without Commit discards a temporary file: a failed export
	// never leaves a file that looks complete.
	defer w.Close()
	dest, other := f.out, filepath.Base(f.out)
	if f.out == outfile.StdoutName {
		dest, other = "standard output", "FILE"
	}
	log := cliLogger(stderr)
	if f.since != "" {
		bar := newProgress(stderr, "export delta", -1, "changes")
		o.Progress = bar
		version, n, err := syncer.ExportDelta(db, w, f.since, o)
		bar.Finish()
		if errors.Is(err, store.ErrUnknownVersion) {
			return fmt.Errorf("--since %s: the store's change log does not reach back to that version; export the whole database instead", f.since)
		}
		if err == nil {
			err = w.Commit()
		}
		if err != nil {
			return err
		}
		log.Info("exported delta", "to", dest, "previous", f.since, "version", version, "changes", n,
			"then_run", fmt.Sprintf("amlscreen apply --store PATH %s --previous %q --version %q", other, f.since, version))
		return nil
	}
	count, err := db.Count()
	if err != nil {
		return err
	}
	if count == 0 {
		return errors.New("the store is empty; nothing to export")
	}
	bar := newProgress(stderr, "export", int64(count), "records")
	o.Progress = bar
	version, n, err := syncer.ExportFile(db, w, o)
	bar.Finish()
	if err == nil {
		err = w.Commit()
	}
	if err != nil {
		return err
	}
	log.Info("exported", "to", dest, "version", version, "records", n,
		"then_run", fmt.Sprintf("amlscreen import --store PATH %s --version %q", other, version))
	return nil
}
