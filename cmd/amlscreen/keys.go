package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/sign"
)

func init() { register(newKeysCmd) }

// keysFlags are shared by every keys subcommand.
type keysFlags struct {
	dir    string
	format string
}

func (f *keysFlags) check() error {
	if f.dir == "" {
		return usagef("--dir: required: the signing key directory (serve --signing-keys)")
	}
	if err := checkFormat(f.format); err != nil {
		return err
	}
	return nil
}

// load opens the existing keyring: only rotate may create one, so a typo
// in --dir is reported instead of silently making keys somewhere else.
func (f *keysFlags) load() (*sign.Keyring, error) {
	k, err := sign.LoadKeyring(f.dir)
	if errors.Is(err, sign.ErrNoKeyring) {
		return nil, usagef("--dir: %v; `amlscreen keys rotate --dir %s` or serve creates one", err, f.dir)
	}
	return k, err
}

func newKeysCmd() *cobra.Command {
	var f keysFlags
	c := &cobra.Command{
		Use:   "keys",
		Short: "List, rotate, revoke and show the keys that sign response bodies",
		Long: `keys manages the keyring amlscreen serve signs getSourceList responses and
webhooks with (header x-service-signature, ES256). The keyring is a directory:
keyring.json lists the keys and their status, each <kid>.pem holds a private key
(mode 0600).

One key is ACTIVE and signs. rotate makes a new ACTIVE key and retires the old
one: RETIRED keys stay served at /v1/keys/{kid}, so signatures made before the
rotation keep verifying. revoke marks a key REVOKED: clients reject its
signatures once they refresh its status. The ACTIVE key cannot be revoked;
rotate first. A running serve picks up changes at once, without a restart.`,
		Example: `  amlscreen keys list --dir /var/lib/amlscreen/signing-keys
  amlscreen keys rotate --dir /var/lib/amlscreen/signing-keys
  amlscreen keys revoke previous --dir /var/lib/amlscreen/signing-keys
  amlscreen keys show current --dir /var/lib/amlscreen/signing-keys --format json`,
		Args: cobra.NoArgs,
	}
	pf := c.PersistentFlags()
	pf.StringVar(&f.dir, "dir", "", "signing key directory (the --signing-keys of serve)")
	addFormatFlag(pf, &f.format)
	c.AddCommand(newKeysListCmd(&f), newKeysRotateCmd(&f), newKeysRevokeCmd(&f), newKeysShowCmd(&f))
	return c
}

func newKeysListCmd(f *keysFlags) *cobra.Command {
	return &cobra.Command{
		Use: "list --dir DIR",
		Example: `  amlscreen keys list --dir /var/lib/amlscreen/signing-keys
  amlscreen keys list --dir keys --format json`,
		Short: "List every key with its status and period",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			k, err := f.load()
			if err != nil {
				return err
			}
			keys, err := k.Keys()
			if err != nil {
				return err
			}
			return printKeyList(cmd.OutOrStdout(), f.format, keys, time.Now())
		},
	}
}

// keyListItem is one key in `keys list --format json`.
type keyListItem struct {
	Kid       string `json:"kid"`
	Status    string `json:"status"`
	NotBefore string `json:"not_before"`
	NotAfter  string `json:"not_after"`
	Alias     string `json:"alias,omitempty"`
}

func printKeyList(w io.Writer, format string, keys []sign.KeyInfo, now time.Time) error {
	items := make([]keyListItem, len(keys))
	for i, ki := range keys {
		items[i] = keyListItem{Kid: ki.Kid, Status: ki.Status, NotBefore: keysTime(ki.NotBefore), NotAfter: keysTime(ki.NotAfter)}
		if ki.Current {
			items[i].Alias = sign.AliasCurrent
		}
		if ki.Previous {
			items[i].Alias = sign.AliasPrevious
		}
	}
	if format == "json" {
		return keysJSON(w, items)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "KID\tSTATUS\tNOT BEFORE\tNOT AFTER\tALIAS")
	for i, it := range items {
		note := it.Alias
		if keys[i].Current && now.After(keys[i].NotAfter) {
			note += " (past its planned not_after: rotate)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", it.Kid, it.Status, it.NotBefore, it.NotAfter, note)
	}
	return tw.Flush()
}

func newKeysRotateCmd(f *keysFlags) *cobra.Command {
	return &cobra.Command{
		Use:     "rotate --dir DIR",
		Example: `  amlscreen keys rotate --dir /var/lib/amlscreen/signing-keys`,
		Short:   "Make a new signing key; the current one becomes RETIRED and stays served",
		Long: `rotate makes a new ACTIVE key, which signs from now on, and retires the
current key (status RETIRED, not_after now). With no keyring in --dir yet, it
creates one with a first ACTIVE key instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			out := struct {
				Created  bool   `json:"created"`
				Current  string `json:"current"`
				Previous string `json:"previous,omitempty"`
			}{}
			k, err := sign.LoadKeyring(f.dir)
			switch {
			case errors.Is(err, sign.ErrNoKeyring):
				if k, err = sign.OpenKeyring(f.dir); err != nil {
					return err
				}
				out.Created = true
			case err != nil:
				return err
			default:
				if _, err := k.Rotate(time.Now()); err != nil {
					return err
				}
			}
			keys, err := k.Keys()
			if err != nil {
				return err
			}
			for _, ki := range keys {
				if ki.Current {
					out.Current = ki.Kid
				}
				if ki.Previous {
					out.Previous = ki.Kid
				}
			}
			w := cmd.OutOrStdout()
			switch {
			case f.format == "json":
				return keysJSON(w, out)
			case out.Created:
				fmt.Fprintf(w, "created keyring %s; current key %s\n", f.dir, out.Current)
			default:
				fmt.Fprintf(w, "current key %s; previous key %s is RETIRED and still served\n", out.Current, out.Previous)
			}
			return nil
		},
	}
}

func newKeysRevokeCmd(f *keysFlags) *cobra.Command {
	return &cobra.Command{
		Use: "revoke KID --dir DIR",
		Example: `  amlscreen keys revoke previous --dir /var/lib/amlscreen/signing-keys
  amlscreen keys revoke k-2026-11-22T21-50-00Z-5aa473c93832 --dir keys`,
		Short: "Mark a key REVOKED so clients stop trusting its signatures",
		Long: `revoke marks a key (an id, or "previous") REVOKED. It stays listed, so clients
asking for it learn that it is revoked; they reject its signatures once their
cached status is refreshed. The current key cannot be revoked: run rotate first,
then revoke previous.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			k, err := f.load()
			if err != nil {
				return err
			}
			if err := k.Revoke(args[0]); err != nil {
				if errors.Is(err, sign.ErrInvalidKeyID) || errors.Is(err, sign.ErrUnknownKey) {
					return usagef("KID: %v", err)
				}
				return err
			}
			doc, err := k.Document(args[0])
			if err != nil {
				return err
			}
			if f.format == "json" {
				return keysJSON(cmd.OutOrStdout(), doc)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "key %s is %s\n", doc.Keys[0].Kid, doc.Status)
			return nil
		},
	}
}

func newKeysShowCmd(f *keysFlags) *cobra.Command {
	return &cobra.Command{
		Use: "show KID --dir DIR",
		Example: `  amlscreen keys show current --dir /var/lib/amlscreen/signing-keys
  amlscreen keys show previous --dir keys --format json`,
		Short: "Print a key document, as GET /v1/keys/{kid} returns it",
		Long: `show prints the key document of a key id or of the alias "current" or
"previous": status, period and the public key as a JWK. --format json prints
exactly the body of GET /v1/keys/{kid}.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			k, err := f.load()
			if err != nil {
				return err
			}
			doc, err := k.Document(args[0])
			if err != nil {
				if errors.Is(err, sign.ErrInvalidKeyID) || errors.Is(err, sign.ErrUnknownKey) {
					return usagef("KID: %v", err)
				}
				return err
			}
			w := cmd.OutOrStdout()
			if f.format == "json" {
				return keysJSON(w, doc)
			}
			j := doc.Keys[0]
			tw := newTable(w)
			for _, row := range [][2]string{
				{"kid", j.Kid}, {"status", doc.Status}, {"not_before", doc.NotBefore}, {"not_after", doc.NotAfter},
				{"key", j.Kty + " " + j.Crv + " " + j.Alg}, {"x", j.X}, {"y", j.Y},
			} {
				fmt.Fprintf(tw, "%s\t%s\n", row[0], row[1])
			}
			return tw.Flush()
		},
	}
}

func keysTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// writeJSON prints v indented, for people and jq alike.
func keysJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
