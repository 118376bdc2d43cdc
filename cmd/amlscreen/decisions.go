package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newDecisionsCmd) }

type decisionsFlags struct {
	store, keys, key string
}

func newDecisionsCmd() *cobra.Command {
	var f decisionsFlags
	c := &cobra.Command{
		Use:   "decisions",
		Short: "Export and import analysts' decisions and their audit trail",
		Long: `decisions exports the audit trail of analysts' decisions (amlscreen decide, the
workbench of amlscreen serve) and imports decisions, for a site moving from a
spreadsheet or from another store.

Decisions belong to API keys of the keys file (--keys, the file serve uses),
named with --key.`,
		Example: `  amlscreen decisions export --store aml.db --format csv --out decisions.csv
  amlscreen decisions export --store aml.db --keys keys.json --key acme --format jsonl
  amlscreen decisions import --store aml.db --keys keys.json --key acme --pin-current spreadsheet.csv`,
		Args: cobra.NoArgs,
	}
	pf := c.PersistentFlags()
	addStoreFlag(pf, &f.store)
	pf.StringVar(&f.keys, "keys", "", keysUsage)
	pf.StringVar(&f.key, "key", "", "name of a key in --keys: only its decisions (export), the owner of rows that name none (import)")
	c.AddCommand(newDecisionsExportCmd(&f), newDecisionsImportCmd(&f))
	return c
}

// owner resolves --key, when given.
func (f *decisionsFlags) owner() (*access.Key, error) {
	if f.key == "" {
		return nil, nil
	}
	if f.keys == "" {
		return nil, usagef("--key: needs --keys to find the key by name")
	}
	return keyNamed(f.keys, f.key)
}

func newDecisionsExportCmd(f *decisionsFlags) *cobra.Command {
	var format, out string
	c := &cobra.Command{
		Use:   "export --store PATH [--keys FILE --key NAME] --format csv|jsonl [--out FILE]",
		Short: "Write the audit trail of decisions as CSV or JSON Lines",
		Long: `export writes every decision ever recorded, superseded ones included, grouped by
owner, subject and record and oldest first within a group; the column current
says which one is in force. --key limits it to one key's decisions. The store
is opened read-only.

Columns: ` + strings.Join(decision.Columns, ", ") + `.
owner is the key's id (a hash of the key, never the key); decided_by its name
or the analyst an imported row named; the fingerprints identify the content
of the record the decision was made on.

Exit codes: 0 written, 1 failure, 2 bad flags.`,
		Example: `  amlscreen decisions export --store aml.db --format csv --out decisions.csv
  amlscreen decisions export --store aml.db --keys keys.json --key acme --format jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.store == "" {
				return usagef("--store: required")
			}
			fm, err := decision.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			key, err := f.owner()
			if err != nil {
				return err
			}
			owner := ""
			if key != nil {
				owner = key.ID()
			}
			db, err := openReadOnly(f.store)
			if err != nil {
				return err
			}
			defer db.Close()
			if out == "" {
				out = "-"
			}
			w, err := createOutput(out, cmd.OutOrStdout(), "")
			if err != nil {
				return err
			}
			defer w.Close()
			n, err := decision.New(db, decision.Options{}).Export(w, owner, fm)
			if err != nil {
				return err
			}
			if err := w.Commit(); err != nil {
				return err
			}
			if out != "-" {
				fmt.Fprintf(cmd.ErrOrStderr(), "exported %d decisions to %s\n", n, out)
			}
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "csv", "csv or jsonl")
	c.Flags().StringVarP(&out, "out", "o", "", "file to write, or - for standard output (default: standard output)")
	return c
}

// newDecisionsImportCmd defines decisions import; the import is
// decision.Book.Import's.
func newDecisionsImportCmd(f *decisionsFlags) *cobra.Command {
	var pin bool
	c := &cobra.Command{
		Use:   "import --store PATH [--keys FILE] [--key NAME] [--pin-current] FILE",
		Short: "Import decisions from CSV or JSON Lines, all or nothing",
		Long: `import adds the decisions of FILE to the audit trail, in one transaction: a bad
row stops it with its line number and field, and nothing is stored. FILE is
CSV with a header row (UTF-8, with or without a byte-order mark) or JSON Lines
("-" reads standard input), at most 64 MiB and 1,000,000 decisions.

Columns (CSV header names, JSON keys): subject, record_id and status are
required; note, decided_by and decided_at (RFC 3339 or yyyy-mm-dd; the time of
the import when empty) are optional. The owner is the key the row's "key"
column names in --keys, or its "owner" column (a key id, as export writes
it), or else the key --key names. decided_by defaults to the key's name.
Statuses are read in any case, with spaces or dashes ("False positive").

A decision applies to the record content it was made on, so every row needs
its fingerprint and identity_fingerprint (as export writes them). A
spreadsheet has none: --pin-current takes them from each record as the store
holds it now, which says the decisions in the file were made on the records'
present content; a row whose record the store lacks is then refused.

A decision already in the audit trail (same owner, subject, record, status,
note, decided_by, decided_at and fingerprints) is not added again, so a file
imported twice is stored once. Of several decisions on one subject and
record, the one decided last is in force.

Exit codes: 0 imported, 1 failure (store locked, I/O), 2 bad flags or a bad
row.`,
		Example: `  amlscreen decisions import --store aml.db --keys keys.json --key acme --pin-current spreadsheet.csv
  amlscreen decisions import --store new.db decisions.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.store == "" {
				return usagef("--store: required")
			}
			key, err := f.owner()
			if err != nil {
				return err
			}
			o := decision.ImportOptions{Now: time.Now()}
			if key != nil {
				o.Default = &decision.Owner{ID: key.ID(), Name: key.Name}
			}
			if f.keys != "" {
				keys, err := access.LoadFile(f.keys)
				if err != nil {
					return usagef("--keys: %v", err)
				}
				o.Key = func(name string) (decision.Owner, bool) {
					for _, k := range keys {
						if k.Name == name {
							return decision.Owner{ID: k.ID(), Name: k.Name}, true
						}
					}
					return decision.Owner{}, false
				}
			}
			in, _, err := openInput(args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			db, err := store.Open(f.store, store.Options{})
			if err != nil {
				return err
			}
			defer db.Close()
			if pin {
				o.Pin = func(id string) (*record.Record, error) {
					r, err := db.Get(id)
					if errors.Is(err, store.ErrNotFound) {
						return nil, nil
					}
					return r, err
				}
			}
			ds, err := decision.ReadImport(in, o)
			if err != nil {
				return usagef("%s: %v", args[0], err)
			}
			res, err := decision.New(db, decision.Options{}).Import(ds)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d decisions from %s", res.Stored, args[0])
			if res.Duplicates > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), " (%d already in the audit trail, not added again)", res.Duplicates)
			}
			fmt.Fprintln(cmd.OutOrStdout())
			return nil
		},
	}
	c.Flags().BoolVar(&pin, "pin-current", false, "take the fingerprints of rows that have none from the records as the store holds them now")
	return c
}

// batchDecisions loads the current decisions of the key --key names from
// the store and returns the Screener hook that applies them, with a line
// describing them for the checkpoint (a resume must see the same
// decisions). The store is opened read-only for as long as that takes,
// unless held is the store already open (batch --alerts holds it for
// writing).
func batchDecisions(held *store.Store, storePath, keysFile, keyName string, ix *engine.Index) (func(string, []batch.Hit) ([]batch.Hit, []batch.Hit), string, error) {
	key, err := keyNamed(keysFile, keyName)
	if err != nil {
		return nil, "", err
	}
	db := held
	if db == nil {
		if db, err = openReadOnly(storePath); err != nil {
			return nil, "", err
		}
		defer db.Close()
	}
	book := decision.New(db, decision.Options{})
	set, err := book.LoadSet(key.ID())
	if err != nil {
		return nil, "", err
	}
	n, err := book.Count(key.ID())
	if err != nil {
		return nil, "", err
	}
	desc := fmt.Sprintf("key %s, %d current decisions, audit trail of %d", key.Name, set.Len(), n)
	return decideHits(set, ix), desc, nil
}

// decideHits is the batch hook over a set of decisions: each hit is judged
// by the record the index holds for it (the content the hit was made on).
func decideHits(set *decision.Set, ix *engine.Index) func(string, []batch.Hit) ([]batch.Hit, []batch.Hit) {
	return func(customerID string, hits []batch.Hit) (kept, suppressed []batch.Hit) {
		if set.Len() == 0 || customerID == "" {
			return hits, nil
		}
		kept = hits[:0:0]
		for _, h := range hits {
			r := ix.Get(h.RecordID)
			if r == nil {
				kept = append(kept, h)
				continue
			}
			o := set.Judge(customerID, r)
			if d := o.Decision; d != nil {
				h.Decision = &batch.HitDecision{Status: d.Status, Note: d.Note, DecidedBy: d.Who,
					DecidedAt: d.At.UTC().Format(time.RFC3339), Changed: o.Changed}
			}
			if o.Suppressed {
				suppressed = append(suppressed, h)
			} else {
				kept = append(kept, h)
			}
		}
		return kept, suppressed
	}
}
