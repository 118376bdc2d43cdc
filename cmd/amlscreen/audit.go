package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/casework"
)

func init() { register(newAuditCmd) }

// newAuditCmd defines audit: checking and exporting the audit log.
func newAuditCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "audit",
		Short: "Check and export the audit log of casework and screenings",
		Long: `audit reads the store's audit log: every alert raised, reopened, assigned,
commented, proposed, approved or sent back, every decision an approval made,
every change to users and settings, and the screenings callers logged. Each
entry carries the SHA-256 of the one before, so a changed, removed or inserted
entry breaks the chain (see docs/WORKBENCH.md, "Casework").`,
		Example: `  amlscreen audit verify --store aml.db
  amlscreen audit export --store aml.db --from 2026-11-01 --to 2026-11-30 --format csv > november.csv`,
		Args: cobra.NoArgs,
	}
	addStoreFlag(c.PersistentFlags(), &storePath)

	c.AddCommand(newAuditVerifyCmd(&storePath), newAuditExportCmd(&storePath))
	return c
}

// newAuditVerifyCmd defines audit verify; --store is the audit command's.
func newAuditVerifyCmd(storePath *string) *cobra.Command {
	verify := &cobra.Command{
		Use:   "verify --store PATH",
		Short: "Check the hash chain of the audit log",
		Long: `verify walks the audit log and checks every entry: numbered without a gap, in
its canonical encoding, its hash that of its content, carrying the hash of the
entry before, and the last one the one the store recorded as last.

Exit codes: 0 the chain is whole, 1 it is broken (the message names the first
entry at fault) or the store cannot be read, 2 bad flags.`,
		Example: `  amlscreen audit verify --store aml.db`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withCasework(*storePath, false, func(c *casework.Casework) error {
				n, err := c.Verify()
				var be *casework.BrokenError
				if errors.As(err, &be) {
					return exitCodeError{code: exitError, err: err}
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "audit log whole: %d entries\n", n)
				return nil
			})
		},
	}
	return verify
}

// newAuditExportCmd defines audit export; --store is the audit command's.
func newAuditExportCmd(storePath *string) *cobra.Command {
	var from, to, format, out string
	export := &cobra.Command{
		Use:   "export --store PATH [--from DATE] [--to DATE] --format json|csv [--out FILE]",
		Short: "Write the audit log as JSON Lines or CSV",
		Long: `export writes the entries of the audit log, oldest first, one per line: json
writes each entry as stored (JSON Lines: seq, time, actor, action, and as they
apply alert, subject, record_id, user, status, detail, and for a screening
query, version and ids; then prev and hash), csv a header row and the same
columns (ids separated by spaces; a cell starting with = + - @ or ' gets a
leading ' so that a spreadsheet shows it as text).

--from and --to take a date (yyyy-mm-dd, UTC; --to includes that whole day) or
an RFC 3339 time; either may be left out. The store is opened read-only.

Exit codes: 0 written, 1 failure, 2 bad flags.`,
		Example: `  amlscreen audit export --store aml.db --format json > audit.jsonl
  amlscreen audit export --store aml.db --from 2026-11-01 --to 2026-11-30 --format csv --out november.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "json" && format != "csv" {
				return usagef("--format: %q is not json or csv", format)
			}
			f, err := parseAuditTime("--from", from, false)
			if err != nil {
				return err
			}
			t, err := parseAuditTime("--to", to, true)
			if err != nil {
				return err
			}
			if !f.IsZero() && !t.IsZero() && !t.After(f) {
				return usagef("--to: %s is not after --from %s", to, from)
			}
			return withCasework(*storePath, false, func(c *casework.Casework) error {
				w, err := createOutput(out, cmd.OutOrStdout(), "")
				if err != nil {
					return err
				}
				defer w.Close()
				n, err := c.Export(w, f, t, format)
				if err != nil {
					return err
				}
				if err := w.Commit(); err != nil {
					return err
				}
				if out != "-" {
					fmt.Fprintf(cmd.ErrOrStderr(), "exported %d audit entries to %s\n", n, out)
				}
				return nil
			})
		},
	}
	fl := export.Flags()
	fl.StringVar(&from, "from", "", "first day (yyyy-mm-dd, UTC) or time (RFC 3339) to export")
	fl.StringVar(&to, "to", "", "last day (yyyy-mm-dd, UTC, included) or time (RFC 3339, excluded) to export")
	fl.StringVar(&format, "format", "json", "json (JSON Lines) or csv")
	fl.StringVarP(&out, "out", "o", "-", "file to write, or - for standard output")
	return export
}

// parseAuditTime reads a --from or --to value: a date is the start of that
// UTC day, or of the next one for --to (end), so that --to includes it.
func parseAuditTime(flag, s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		if end {
			d = d.AddDate(0, 0, 1)
		}
		return d, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, usagef("%s: %q is not a date (yyyy-mm-dd) or an RFC 3339 time", flag, s)
}
