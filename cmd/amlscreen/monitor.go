package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newMonitorCmd) }

// monitorFlags are shared by the monitor subcommands.
type monitorFlags struct {
	store  string
	keys   string
	key    string
	format string
}

func newMonitorCmd() *cobra.Command {
	var f monitorFlags
	c := &cobra.Command{
		Use:   "monitor",
		Short: "Ongoing monitoring: search profiles, the webhook outbox and the sender",
		Long: `monitor works on the search profiles and the webhook outbox of a store, the
same ones amlscreen serve answers registerIndividual, registerEntity,
removeSearchProfile and testWebhookDelivery from.

Profiles belong to an API key of the keys file (--keys, the file serve uses),
picked by its name with --key. A profile stores the key's default sources and
feature flags as they are when it is registered.

Every change set that amlscreen sync, apply, import or serve applies to the
store is matched against every profile in the same transaction, and each
match is queued in the outbox: ADD when an added record matches, UPDATE when
an updated record matches after or before the change, DELETE when a deleted
record matched before. Matches existing at registration never notify.
"monitor send" (or serve) posts them to the key's webhook_url, signed with
x-service-signature, retrying with backoff from 1 s doubling to 1 h for 72 h;
then they are kept as dead letters that "monitor outbox --dead" shows.

The store must not be held by another process for register, remove, test and
send; list and outbox open it read-only.`,
		Example: `  amlscreen monitor register --store aml.db --keys keys.json --key acme --profile-id c-1001 --names "Ivan Petrov" --fuzzy 1
  amlscreen apply --store aml.db delta.jsonl --previous V1 --version V2
  amlscreen monitor outbox --store aml.db
  amlscreen monitor send --store aml.db --keys keys.json --signing-keys signing/`,
		Args: cobra.NoArgs,
	}
	pf := c.PersistentFlags()
	addStoreFlag(pf, &f.store)
	pf.StringVar(&f.keys, "keys", "", keysUsage)
	pf.StringVar(&f.key, "key", "", "name of the API key in --keys that owns the profiles")
	addFormatFlag(pf, &f.format)
	c.AddCommand(newMonitorRegisterCmd(&f), newMonitorRemoveCmd(&f), newMonitorListCmd(&f),
		newMonitorTestCmd(&f), newMonitorOutboxCmd(&f), newMonitorSendCmd(&f))
	return c
}

func (f *monitorFlags) checkStore() error {
	if f.store == "" {
		return usagef("--store: required")
	}
	if err := checkFormat(f.format); err != nil {
		return err
	}
	return nil
}

// loadKeys reads --keys.
func (f *monitorFlags) loadKeys() ([]*access.Key, error) {
	if f.keys == "" {
		return nil, usagef("--keys: required: the API keys file")
	}
	keys, err := access.LoadFile(f.keys)
	if err != nil {
		return nil, usagef("--keys: %v", err)
	}
	return keys, nil
}

// apiKey returns the key --key names. Keys are named, never shown: the
// secret stays out of the command line and the output.
func (f *monitorFlags) apiKey() (*access.Key, error) {
	keys, err := f.loadKeys()
	if err != nil {
		return nil, err
	}
	if f.key == "" {
		return nil, usagef("--key: required: the name of a key in %s", f.keys)
	}
	var names []string
	for _, k := range keys {
		if k.Name == f.key {
			return k, nil
		}
		if k.Name != "" {
			names = append(names, k.Name)
		}
	}
	return nil, usagef("--key: no key named %q in %s (names: %s)", f.key, f.keys, strings.Join(names, ", "))
}

// openMonitor opens the store for writing.
func (f *monitorFlags) openMonitor() (*store.Store, *monitor.Monitor, error) {
	if err := f.checkStore(); err != nil {
		return nil, nil, err
	}
	db, err := store.Open(f.store, store.Options{})
	if err != nil {
		return nil, nil, err
	}
	return db, monitor.New(db, monitor.Options{}), nil
}

func newMonitorRegisterCmd(f *monitorFlags) *cobra.Command {
	var q queryFlags
	var id string
	c := &cobra.Command{
		Use:   "register --store PATH --keys FILE --key NAME --profile-id ID (--names TEXT | --search-all TEXT) [flags]",
		Short: "Register or update a search profile (registerIndividual, registerEntity)",
		Long: `register stores a search profile for the key, or updates the profile of that id
with the new parameters. The parameters are those of checkIndividual (--type
individual, the default) or checkEntity (--type entity) and are checked the
same way. No initial screening is done: only later changes notify. The key's
profile_quota (1,000 when the keys file sets none) applies to new profiles.
A profile is matched against every change set, so it is bounded more than a
check: one word at most 4 times, and --min-score at least 0.3.

--match scored makes a scored profile (see docs/MATCHING.md, "Match modes"): a changed
record notifies when it scores at least --min-score (default 0.82) against the
profile's names, scored with the word counts of the whole list, so import,
apply and sync load the store's index when scored profiles exist. The profile
remembers its mode; registering it again without --match makes it strict.

Exit codes: 0 registered, 1 failure (store locked, quota reached), 2 bad flags.`,
		Example: `  amlscreen monitor register --store aml.db --keys keys.json --key acme --profile-id c-1001 --names "Ivan Petrov" --dob 12/03/1960
  amlscreen monitor register --store aml.db --keys keys.json --key acme --profile-id s-77 --type entity --names "Acme Trading LLC" --fuzzy 1
  amlscreen monitor register --store aml.db --keys keys.json --key acme --profile-id c-1002 --names "John Michael Smith" --fuzzy 2 --match scored`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := query.ParseKind(q.kind)
			if err != nil || k == query.Any {
				return usagef("--type: %q is not individual or entity", q.kind)
			}
			match, minScore, err := q.matchMode()
			if err != nil {
				return err
			}
			p := monitor.Params{ID: id, Kind: k, Names: q.names, SearchAll: q.searchAll, DOB: q.dob, Gender: longGender(q.gender), Fuzzy: q.fuzzy,
				Match: match, MinScore: minScore}
			if err := p.Validate(); err != nil {
				return paramToUsage(err)
			}
			key, err := f.apiKey()
			if err != nil {
				return err
			}
			db, m, err := f.openMonitor()
			if err != nil {
				return err
			}
			defer db.Close()
			prof, created, err := m.Register(key.ID(), p, key.Policy(), key.ProfileLimit())
			if err != nil {
				return paramToUsage(err)
			}
			verb := "updated"
			if created {
				verb = "registered"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s profile %s for key %s (%s)\n", verb, prof.ID, key.Name, describeQuery(&prof.Params))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&id, "profile-id", "", "the profile's id (profile_id); an existing one is updated")
	q.add(fl, querySpec{
		kindUsage: "individual (registerIndividual) or entity (registerEntity)", kindDefault: "individual",
		with: withNames | withSearchAll | withFuzzy | withDOB | withGender | withMatch,
	})
	return c
}

func describeQuery(p *monitor.Params) string {
	var parts []string
	if p.Names != "" {
		parts = append(parts, fmt.Sprintf("names %q", p.Names))
	} else {
		parts = append(parts, fmt.Sprintf("search_all %q", p.SearchAll))
	}
	if p.Fuzzy > 0 {
		parts = append(parts, fmt.Sprintf("fuzzy %d", p.Fuzzy))
	}
	if p.DOB != "" {
		parts = append(parts, "dob "+p.DOB)
	}
	if p.Gender != "" {
		parts = append(parts, "gender "+p.Gender)
	}
	if p.Match == query.Scored {
		if p.MinScore != 0 {
			parts = append(parts, fmt.Sprintf("scored, min score %v", p.MinScore))
		} else {
			parts = append(parts, "scored")
		}
	}
	return p.Kind.String() + ", " + strings.Join(parts, ", ")
}

func newMonitorRemoveCmd(f *monitorFlags) *cobra.Command {
	var id string
	c := &cobra.Command{
		Use:     "remove --store PATH --keys FILE --key NAME --profile-id ID",
		Example: `  amlscreen monitor remove --store aml.db --keys keys.json --key acme --profile-id c-1`,
		Short:   "Remove a search profile (removeSearchProfile); unknown ids succeed too",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if id == "" {
				return usagef("--profile-id: required")
			}
			key, err := f.apiKey()
			if err != nil {
				return err
			}
			db, m, err := f.openMonitor()
			if err != nil {
				return err
			}
			defer db.Close()
			removed, err := m.Remove(key.ID(), id)
			if err != nil {
				return err
			}
			if removed {
				fmt.Fprintf(cmd.OutOrStdout(), "removed profile %s of key %s\n", id, key.Name)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "key %s has no profile %s; nothing to remove\n", key.Name, id)
			}
			return nil
		},
	}
	c.Flags().StringVar(&id, "profile-id", "", "the profile to remove")
	return c
}

func newMonitorListCmd(f *monitorFlags) *cobra.Command {
	return &cobra.Command{
		Use: "list --store PATH [--keys FILE [--key NAME]] [--format table|json]",
		Example: `  amlscreen monitor list --store aml.db
  amlscreen monitor list --store aml.db --keys keys.json --key acme --format json`,
		Short: "List search profiles, of one key or of all",
		Long: `list shows the stored profiles: of the key --key names, or of every key. With
--keys, owners are shown by key name; without, by key id (the SHA-256 prefix
usage is kept under).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.checkStore(); err != nil {
				return err
			}
			names := map[string]string{}
			owner := ""
			if f.keys != "" {
				keys, err := f.loadKeys()
				if err != nil {
					return err
				}
				for _, k := range keys {
					names[k.ID()] = k.Name
				}
				if f.key != "" {
					k, err := f.apiKey()
					if err != nil {
						return err
					}
					owner = k.ID()
				}
			} else if f.key != "" {
				return usagef("--key: needs --keys to find the key by name")
			}
			db, err := openReadOnly(f.store)
			if err != nil {
				return err
			}
			defer db.Close()
			ps, err := monitor.New(db, monitor.Options{}).Profiles(owner)
			if err != nil {
				return err
			}
			return writeProfiles(cmd.OutOrStdout(), f.format, ps, names)
		},
	}
}

func openReadOnly(path string) (*store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, usagef("--store: %v", err)
	}
	return store.Open(path, store.Options{ReadOnly: true})
}

func writeProfiles(w io.Writer, format string, ps []monitor.Profile, names map[string]string) error {
	if format == "json" {
		if ps == nil {
			ps = []monitor.Profile{}
		}
		b, err := json.MarshalIndent(ps, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "KEY\tPROFILE_ID\tTYPE\tQUERY\tREGISTERED\tUPDATED")
	for _, p := range ps {
		owner := names[p.Owner]
		if owner == "" {
			owner = p.Owner
		}
		q := describeQuery(&p.Params)
		q = q[strings.Index(q, ", ")+2:]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", owner, p.ID, p.Kind, q,
			p.Registered.UTC().Format(time.RFC3339), p.Updated.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(tw, "%d profiles\n", len(ps))
	return tw.Flush()
}

func newMonitorTestCmd(f *monitorFlags) *cobra.Command {
	var id string
	c := &cobra.Command{
		Use:     "test --store PATH --keys FILE --key NAME --profile-id ID",
		Example: `  amlscreen monitor test --store aml.db --keys keys.json --key acme --profile-id c-1`,
		Short:   "Queue a sample ADD notification for a profile id (testWebhookDelivery)",
		Long: `test queues a sample ADD notification with that profile_id, whose entity is a
made-up record (SAMPLE0000000001). A running sender (monitor send, or serve)
delivers it like any other: signed, retried until acknowledged.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if id == "" {
				return usagef("--profile-id: required")
			}
			key, err := f.apiKey()
			if err != nil {
				return err
			}
			if key.WebhookURL == "" {
				return usagef("--key: key %s has no webhook_url in %s", key.Name, f.keys)
			}
			db, m, err := f.openMonitor()
			if err != nil {
				return err
			}
			defer db.Close()
			e, err := m.TestWebhook(key.ID(), id, key.Policy())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "queued sample notification %s for profile %s to %s\n", e.EventID, id, key.WebhookURL)
			return nil
		},
	}
	c.Flags().StringVar(&id, "profile-id", "", "the profile_id the sample carries")
	return c
}

func newMonitorOutboxCmd(f *monitorFlags) *cobra.Command {
	var dead, requeue bool
	var limit int
	c := &cobra.Command{
		Use: "outbox --store PATH [--dead] [--limit N] [--requeue] [--format table|json]",
		Example: `  amlscreen monitor outbox --store aml.db
  amlscreen monitor outbox --store aml.db --dead --requeue`,
		Short: "Show queued notifications and dead letters; requeue dead letters",
		Long: `outbox shows the notifications waiting for delivery (in the order they are
due, with their attempts and last error) or, with --dead, those given up after
72 hours. --requeue moves every dead letter back to the queue, due at once,
with its event_id and body unchanged: for after the receiver was fixed.

Exit codes: 0 shown, 1 failure, 2 bad flags.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.checkStore(); err != nil {
				return err
			}
			if requeue {
				db, err := store.Open(f.store, store.Options{})
				if err != nil {
					return err
				}
				defer db.Close()
				n, err := monitor.NewOutbox(db).Requeue(time.Now())
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "requeued %d dead letters\n", n)
				return nil
			}
			db, err := openReadOnly(f.store)
			if err != nil {
				return err
			}
			defer db.Close()
			ob := monitor.NewOutbox(db)
			st, err := ob.Stats()
			if err != nil {
				return err
			}
			list := ob.Queued
			if dead {
				list = ob.Dead
			}
			es, err := list(limit)
			if err != nil {
				return err
			}
			return writeOutbox(cmd.OutOrStdout(), f.format, st, es, dead)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&dead, "dead", false, "list dead letters instead of the queue")
	fl.IntVar(&limit, "limit", 50, "most entries to list; 0 for all")
	fl.BoolVar(&requeue, "requeue", false, "move every dead letter back to the queue")
	return c
}

// outboxEntry is the JSON form of an outbox entry; the body is included
// as the JSON it is.
type outboxEntry struct {
	Seq        uint64          `json:"seq"`
	EventID    string          `json:"event_id"`
	ProfileID  string          `json:"profile_id"`
	MatchType  string          `json:"match_type"`
	RecordID   string          `json:"record_id"`
	Test       bool            `json:"test,omitempty"`
	Queued     time.Time       `json:"queued_at"`
	Attempts   int             `json:"attempts"`
	Next       *time.Time      `json:"next_attempt,omitempty"`
	Dead       *time.Time      `json:"dead_at,omitempty"`
	LastStatus int             `json:"last_status,omitempty"`
	LastError  string          `json:"last_error,omitempty"`
	Body       json.RawMessage `json:"body"`
}

func writeOutbox(w io.Writer, format string, st monitor.OutboxStats, es []*monitor.Entry, dead bool) error {
	if format == "json" {
		out := struct {
			Queued   int           `json:"queued"`
			Retrying int           `json:"retrying"`
			Dead     int           `json:"dead"`
			Entries  []outboxEntry `json:"entries"`
		}{st.Queued, st.Retrying, st.Dead, []outboxEntry{}}
		for _, e := range es {
			oe := outboxEntry{Seq: e.Seq, EventID: e.EventID, ProfileID: e.ProfileID, MatchType: e.MatchType, RecordID: e.RecordID,
				Test: e.Test, Queued: e.Queued, Attempts: e.Attempts, LastStatus: e.LastStatus, LastError: e.LastError, Body: e.Body}
			if dead {
				oe.Dead = &e.Dead
			} else {
				oe.Next = &e.Next
			}
			out.Entries = append(out.Entries, oe)
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "queued %d (retrying %d), dead letters %d\n", st.Queued, st.Retrying, st.Dead)
	if len(es) == 0 {
		return nil
	}
	tw := newTable(w)
	when := "NEXT_ATTEMPT"
	if dead {
		when = "GIVEN_UP"
	}
	fmt.Fprintf(tw, "SEQ\tEVENT_ID\tPROFILE_ID\tMATCH\tRECORD\tATTEMPTS\t%s\tLAST_ERROR\n", when)
	for _, e := range es {
		t := e.Next
		if dead {
			t = e.Dead
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", e.Seq, e.EventID, e.ProfileID, e.MatchType, e.RecordID,
			e.Attempts, t.UTC().Format(time.RFC3339), e.LastError)
	}
	return tw.Flush()
}

// monitorSendFlags are the flags of monitor send besides monitorFlags.
type monitorSendFlags struct {
	signingDir  string
	once        bool
	concurrency int
	timeout     time.Duration
	caBundle    string
}

func newMonitorSendCmd(f *monitorFlags) *cobra.Command {
	var o monitorSendFlags
	c := &cobra.Command{
		Use:   "send --store PATH --keys FILE --signing-keys DIR [--once]",
		Short: "Deliver queued notifications to the keys' webhook URLs",
		Long: `send posts queued notifications to the webhook_url of the key that registered
the profile, with headers x-api-key (that key) and x-service-signature (ES256
over the exact body, from the keyring in --signing-keys, created when absent),
within --timeout, at most --concurrency at once. A notification that is not
acknowledged with 2xx is retried after 1 s, doubling to 1 h, and given up 72 h
after it was queued. Every redelivery carries the same event_id and the same
body bytes. Receivers verify with "amlscreen verify" and de-duplicate by
event_id. HTTPS receivers whose certificate an internal CA issued need that
CA in --ca-bundle.

send opens the store only for short steps, so sync, apply and import can run
while it waits. The keys file is read again when it changes. It runs until
interrupted (SIGINT, SIGTERM), finishing the deliveries in flight; --once
delivers what is due and exits, for cron: with exit code 1 when notifications
were due and none could be delivered. amlscreen serve runs the same sender
itself: do not run both on one store.

Exit codes: 0 stopped, 1 failure, 2 bad flags.`,
		Example: `  amlscreen monitor send --store aml.db --keys keys.json --signing-keys /var/lib/amlscreen/signing-keys`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMonitorSend(cmd, f, &o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.signingDir, "signing-keys", "", signingKeysUsage)
	fl.BoolVar(&o.once, "once", false, "deliver what is due now, then exit")
	fl.IntVar(&o.concurrency, "concurrency", monitor.DefaultConcurrency, "deliveries in flight at most")
	fl.DurationVar(&o.timeout, "timeout", monitor.DefaultTimeout, "time a receiver has to answer")
	addCABundleFlag(fl, &o.caBundle)
	return c
}

// runMonitorSend checks the flags and runs the sender until interrupted,
// or once.
func runMonitorSend(cmd *cobra.Command, f *monitorFlags, o *monitorSendFlags) error {
	if err := f.checkStore(); err != nil {
		return err
	}
	if o.signingDir == "" {
		return usagef("--signing-keys: required: the keyring that signs the webhooks")
	}
	if o.concurrency < 1 {
		return usagef("--concurrency: %d is not positive", o.concurrency)
	}
	if o.timeout <= 0 {
		return usagef("--timeout: %v is not positive", o.timeout)
	}
	if _, err := f.loadKeys(); err != nil {
		return err
	}
	if _, err := os.Stat(f.store); err != nil {
		return usagef("--store: %v", err)
	}
	ring, err := sign.OpenKeyring(o.signingDir)
	if err != nil {
		return fmt.Errorf("--signing-keys: %w", err)
	}
	roots, err := rootCAs(o.caBundle)
	if err != nil {
		return err
	}
	log := cliLogger(cmd.ErrOrStderr())
	rk := &reloadingKeys{path: f.keys}
	s := &monitor.Sender{
		Store:       monitor.StoreAt(f.store),
		Recipients:  rk.recipient,
		Signer:      ring,
		Timeout:     o.timeout,
		Concurrency: o.concurrency,
		RootCAs:     roots,
		Log:         log,
		OnAttempt: func(a monitor.Attempt) {
			if a.Err == nil {
				log.Info("delivered", "event_id", a.Entry.EventID, "profile_id", a.Entry.ProfileID,
					"match_type", a.Entry.MatchType, "status", a.Status, "attempt", a.Entry.Attempts)
			}
		},
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.once {
		err = s.RunOnce(ctx)
	} else {
		log.Info("sending webhooks", "store", f.store)
		err = s.Run(ctx)
	}
	st := s.Stats()
	log.Info("sender stopped", "delivered", st.Delivered, "failed_attempts", st.Failed, "dead", st.Dead)
	if err == nil && o.once && st.Delivered == 0 && st.Failed+st.Dead > 0 {
		// A cron job that delivered nothing must not look like one
		// that had nothing to deliver.
		return fmt.Errorf("nothing delivered: %d attempt(s) failed (the log lines say why); they are retried at the next run", st.Failed)
	}
	return err
}

// reloadingKeys reads the keys file again when its modification time
// changes, so that a new webhook_url applies without a restart. A file
// that does not parse keeps the keys read before.
type reloadingKeys struct {
	path string
	mu   sync.Mutex
	mod  time.Time
	keys *access.Set
}

func (r *reloadingKeys) recipient(owner string) (monitor.Recipient, error) {
	r.mu.Lock()
	if st, err := os.Stat(r.path); err == nil && !st.ModTime().Equal(r.mod) {
		if keys, err := access.LoadFile(r.path); err == nil {
			r.keys, r.mod = access.NewSet(keys), st.ModTime()
		}
	}
	var k *access.Key
	if r.keys != nil {
		k = r.keys.ByID(owner)
	}
	r.mu.Unlock()
	return monitor.KeyRecipient(k, owner)
}
