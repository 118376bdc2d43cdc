package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/digest"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newChangesCmd) }

type changesFlags struct {
	store  string
	since  string
	format string
}

func newChangesCmd() *cobra.Command {
	var f changesFlags
	cmd := &cobra.Command{
		Use:   "changes --store PATH --since DATE|VERSION|last [--format table|json|csv]",
		Short: "List the records the change sets of a period added, updated and deleted",
		Long: `List what the store's change sets did since a point: one entry per record
added (ADD), updated (UPDATE) or deleted (DELETE), with the version of the last
change set that touched it and the record's source; for an UPDATE, the
attributes that changed with their old and new values.

--since takes a store version (the changes after it), a day as YYYY-MM-DD (the
change sets applied since its 00:00 UTC) or last (the last change set). Changes
of one record within the period are merged: added then updated is one ADD,
added then deleted is nothing. The change log reaches back 14 days. Updates
logged before this version of amlscreen kept old values have no field-level
difference (old_values_unknown in JSON).

--format json writes one document with the period, counts and changes;
csv writes one row per changed attribute (values as JSON).

Exit codes: 0 listed, 1 failure (store, change log does not reach back),
2 bad flags.`,
		Example: `  amlscreen changes --store aml.db --since last
  amlscreen changes --store aml.db --since 2026-11-25 --format json
  amlscreen changes --store aml.db --since "2026-11-25T04:00:00Z~812" --format csv > changes.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runChanges(cmd.OutOrStdout(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.since, "since", "", "a store version, a day (YYYY-MM-DD, from 00:00 UTC) or last")
	fl.StringVar(&f.format, "format", "table", "table, json or csv")
	return cmd
}

func runChanges(stdout io.Writer, f *changesFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	since, err := parseSince(f.since)
	if err != nil {
		return err
	}
	switch f.format {
	case "table", "json", "csv":
	default:
		return usagef("--format: %q is not table, json or csv", f.format)
	}
	db, err := store.Open(f.store, store.Options{ReadOnly: true})
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	from, err := db.StartVersion(since)
	if err == nil {
		var entries []store.DigestEntry
		var cur string
		entries, cur, err = db.Digest(from)
		if err == nil {
			doc := digest.NewDocument(since.String(), from, cur, digest.FromStore(entries))
			switch f.format {
			case "json":
				return digest.WriteJSON(stdout, doc)
			case "csv":
				return digest.WriteCSV(stdout, doc.Changes)
			}
			return writeChangesTable(stdout, doc)
		}
	}
	if errors.Is(err, store.ErrUnknownVersion) {
		return fmt.Errorf("--since %s: the store's change log cannot say what changed since then (an unknown version, the first import, or older than 14 days)", since)
	}
	return err
}

// parseSince reads --since for changes and batch: one parser, so the same
// words mean the same period in both.
func parseSince(s string) (store.Since, error) {
	if s == "" {
		return store.Since{}, usagef("--since: required: a store version, a day (YYYY-MM-DD) or last")
	}
	since, err := store.ParseSince(s)
	if err != nil {
		return store.Since{}, usagef("--since: %v", err)
	}
	return since, nil
}

func writeChangesTable(w io.Writer, d *digest.Document) error {
	tw := newTable(w)
	s := digest.Count(d.Changes)
	fmt.Fprintf(tw, "since %s (after version %s) to %s: %d added, %d updated, %d deleted\n",
		d.Since, d.From, d.Version, s.Added, s.Updated, s.Deleted)
	by := digest.CountBySource(d.Changes)
	for _, src := range slices.Sorted(maps.Keys(by)) {
		s := by[src]
		fmt.Fprintf(tw, "  %s\t%d added\t%d updated\t%d deleted\n", src, s.Added, s.Updated, s.Deleted)
	}
	if len(d.Changes) > 0 {
		fmt.Fprint(tw, "\nTYPE\tID\tSOURCE\tVERSION\tAPPLIED\tNAME / CHANGES\n")
	}
	clean := func(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }
	for _, c := range d.Changes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Type, clean(c.ID), clean(c.Source), clean(c.Version),
			c.AppliedAt.Format(time.RFC3339), clean(c.Name))
		if c.OldUnknown {
			fmt.Fprint(tw, "\t\t\t\t\t(no old values: logged before they were kept)\n")
		}
		for _, fd := range c.Fields {
			fmt.Fprintf(tw, "\t\t\t\t\t%s: %s -> %s\n", fd.Name, orNone(fd.Old), orNone(fd.New))
		}
	}
	return tw.Flush()
}

func orNone(raw []byte) string {
	if raw == nil {
		return "(none)"
	}
	return string(raw)
}
