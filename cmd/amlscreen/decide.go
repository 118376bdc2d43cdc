package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newDecideCmd) }

type decideFlags struct {
	store, keys, key  string
	subject, recordID string
	status, note      string
	format            string
}

func newDecideCmd() *cobra.Command {
	var f decideFlags
	cmd := &cobra.Command{
		Use:   "decide --store PATH --keys FILE --key NAME --subject ID --record RECORD_ID --status STATUS [--note TEXT]",
		Short: "Record an analyst's decision on a hit: false_positive, true_match or escalated",
		Long: `decide records what an analyst decided about one record for one subject, as
the workbench's Decide button does, without the page.

The subject is who was screened: the customer id of a book (batch --key
applies the decision to that customer's rows), a monitoring profile id, or a
query subject as the workbench shows it ("q:individual:names=putin vladimir").
The decision belongs to the key --key names in --keys, and is stored with the
key's name, the time and the fingerprints of the record as it is in the store
now, so that it applies to that content only:

  false_positive  suppresses the (subject, record) hit in later screenings and
                  batch runs while the record stays as it is; when the record
                  changes the hit comes back, marked changed since decision.
                  Monitoring does not notify UPDATEs of it for that profile
                  unless a name, date of birth or citizenship changed.
  true_match      shown with every hit, never suppressed.
  escalated       shown with every hit, never suppressed.

Decisions are never deleted: a new one on the same subject and record
supersedes the last, and both stay in the audit trail (amlscreen decisions
export). The store must not be held by another process (a running serve:
decide in its workbench instead).

Exit codes: 0 recorded, 1 failure (store locked, I/O), 2 bad flags or values.`,
		Example: `  amlscreen decide --store aml.db --keys keys.json --key acme --subject C-1001 --record OFAC-12345 --status false_positive --note "born 1971, customer 1965"
  amlscreen decide --store aml.db --keys keys.json --key acme --subject C-1001 --record OFAC-12345 --status escalated --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDecide(cmd.OutOrStdout(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.keys, "keys", "", keysUsage)
	fl.StringVar(&f.key, "key", "", "name of the key in --keys the decision belongs to; required")
	fl.StringVar(&f.subject, "subject", "", "who was screened: a customer id, a profile id or a query subject; required")
	fl.StringVar(&f.recordID, "record", "", "id of the record the hit was on; required")
	fl.StringVar(&f.status, "status", "", "false_positive, true_match or escalated; required")
	fl.StringVar(&f.note, "note", "", "why (up to 4096 bytes)")
	fl.StringVar(&f.format, "format", "table", "table or json")
	return cmd
}

// keyNamed returns the key of the keys file with that name, as the monitor
// commands find it.
func keyNamed(keysFile, name string) (*access.Key, error) {
	return (&monitorFlags{keys: keysFile, key: name}).apiKey()
}

func runDecide(stdout io.Writer, f *decideFlags) error {
	switch {
	case f.store == "":
		return usagef("--store: required")
	case f.subject == "":
		return usagef("--subject: required: a customer id, a profile id or a query subject")
	case f.recordID == "":
		return usagef("--record: required: the id of the record the hit was on")
	case f.status == "":
		return usagef("--status: required: false_positive, true_match or escalated")
	case f.format != "table" && f.format != "json":
		return usagef("--format: %q is not table or json", f.format)
	}
	status, err := decision.ParseStatus(f.status)
	if err != nil {
		return decisionUsage(err)
	}
	key, err := keyNamed(f.keys, f.key)
	if err != nil {
		return err
	}
	if err := record.ValidID(f.recordID); err != nil {
		return usagef("--record: %v", err)
	}
	if _, err := os.Stat(f.store); err != nil {
		return usagef("--store: %v", err)
	}
	db, err := store.Open(f.store, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	rec, err := db.Get(f.recordID)
	if errors.Is(err, store.ErrNotFound) {
		return usagef("--record: the store holds no record %q (ids are case-sensitive)", f.recordID)
	}
	if err != nil {
		return err
	}
	d := decision.Decision{
		Owner: key.ID(), Subject: f.subject, RecordID: rec.ID, Status: status, Note: f.note, Who: key.Name,
		Fingerprint: decision.Content(rec), IdentityFingerprint: decision.Identity(rec),
	}
	stored, prev, err := decision.New(db, decision.Options{}).Decide(d)
	if err != nil {
		return decisionUsage(err)
	}
	if f.format == "json" {
		b, err := json.MarshalIndent(struct {
			decision.Decision
			Supersedes *decision.Decision `json:"supersedes,omitempty"`
		}{stored, prev}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	fmt.Fprintf(stdout, "decided %s on record %s for %s (decision %d, %s by %s)\n", stored.Status, stored.RecordID, stored.Subject,
		stored.Seq, stored.At.Format(time.RFC3339), stored.Who)
	if prev != nil {
		fmt.Fprintf(stdout, "supersedes %s of %s by %s\n", prev.Status, prev.At.Format(time.RFC3339), prev.Who)
	}
	return nil
}

// decisionUsage turns a decision's field error into a usage error naming
// the flag.
func decisionUsage(err error) error {
	var fe *decision.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	flag := map[string]string{"subject": "subject", "record_id": "record", "status": "status", "note": "note", "decided_by": "key"}[fe.Field]
	if flag == "" {
		return err
	}
	return usagef("--%s: %s", flag, strings.TrimPrefix(fe.Error(), fe.Field+": "))
}
