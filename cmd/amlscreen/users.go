package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newUsersCmd) }

// newUsersCmd defines users: the people of the workbench's casework.
func newUsersCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "users",
		Short: "Manage the people who work alerts: add, disable, reset, list",
		Long: `users manages the local accounts of casework (see docs/WORKBENCH.md,
"Casework"), kept in the store: each has a role, analyst (works alerts and
proposes outcomes), reviewer (also approves or sends back the proposals of
others) or admin (also manages users and settings), and a password hashed with
argon2id. Passwords are read from standard input only (--password-stdin), so
that they appear in no process list or shell history; at least 12 bytes.

Every change is written to the store's audit log, by "operator:cli:" and the
name of the system user who ran the command.`,
		Example: `  printf '%s\n' "$PASSWORD" | amlscreen users add maria --role analyst --store aml.db --password-stdin
  amlscreen users disable maria --store aml.db
  amlscreen users reset maria --store aml.db --password-stdin < password.txt
  amlscreen users list --store aml.db`,
		Args: cobra.NoArgs,
	}
	addStoreFlag(c.PersistentFlags(), &storePath)

	c.AddCommand(newUsersAddCmd(&storePath), newUsersDisableCmd(&storePath), newUsersResetCmd(&storePath), newUsersListCmd(&storePath))
	return c
}

// newUsersAddCmd defines users add; --store is the users command's.
func newUsersAddCmd(storePath *string) *cobra.Command {
	var role string
	var fromStdin bool
	add := &cobra.Command{
		Use:     "add NAME --role analyst|reviewer|admin --store PATH --password-stdin",
		Short:   "Add a user with a role; the password is read from standard input",
		Example: `  printf '%s\n' "$PASSWORD" | amlscreen users add maria --role analyst --store aml.db --password-stdin`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := casework.ParseRole(role); err != nil {
				return usagef("--role: %q is not analyst, reviewer or admin", role)
			}
			pw, err := readPassword(fromStdin, cmd.InOrStdin())
			if err != nil {
				return err
			}
			return withCasework(*storePath, true, func(c *casework.Casework) error {
				if err := c.AddUser(cliOperator(), args[0], role, pw); err != nil {
					return caseworkError(err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "added user %s (%s)\n", args[0], role)
				return nil
			})
		},
	}
	add.Flags().StringVar(&role, "role", "", "analyst, reviewer or admin")
	add.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the password from standard input (its first line)")
	return add
}

// newUsersDisableCmd defines users disable; --store is the users command's.
func newUsersDisableCmd(storePath *string) *cobra.Command {
	disable := &cobra.Command{
		Use:     "disable NAME --store PATH",
		Short:   "Disable a user: no more sign-in or changes; the audit log keeps the past",
		Example: `  amlscreen users disable maria --store aml.db`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withCasework(*storePath, true, func(c *casework.Casework) error {
				if err := c.DisableUser(cliOperator(), args[0]); err != nil {
					return caseworkError(err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "disabled user %s\n", args[0])
				return nil
			})
		},
	}
	return disable
}

// newUsersResetCmd defines users reset; --store is the users command's.
func newUsersResetCmd(storePath *string) *cobra.Command {
	var resetStdin bool
	reset := &cobra.Command{
		Use:     "reset NAME --store PATH --password-stdin",
		Short:   "Set a new password (from standard input) and enable the user again",
		Example: `  amlscreen users reset maria --store aml.db --password-stdin < password.txt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := readPassword(resetStdin, cmd.InOrStdin())
			if err != nil {
				return err
			}
			return withCasework(*storePath, true, func(c *casework.Casework) error {
				if err := c.ResetPassword(cliOperator(), args[0], pw); err != nil {
					return caseworkError(err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "reset the password of user %s\n", args[0])
				return nil
			})
		},
	}
	reset.Flags().BoolVar(&resetStdin, "password-stdin", false, "read the password from standard input (its first line)")
	return reset
}

// newUsersListCmd defines users list; --store is the users command's.
func newUsersListCmd(storePath *string) *cobra.Command {
	var format string
	list := &cobra.Command{
		Use:     "list --store PATH [--format table|json]",
		Short:   "List the users, their roles and whether they are disabled",
		Example: `  amlscreen users list --store aml.db --format json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			return withCasework(*storePath, false, func(c *casework.Casework) error {
				us, err := c.Users()
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if format == "json" {
					if us == nil {
						us = []casework.UserInfo{}
					}
					enc := json.NewEncoder(w)
					enc.SetIndent("", "  ")
					return enc.Encode(us)
				}
				tw := newTable(w)
				fmt.Fprintln(tw, "NAME\tROLE\tSTATUS\tCREATED\tUPDATED")
				for _, u := range us {
					st := "active"
					if u.Disabled {
						st = "disabled"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.Name, u.Role, st, u.Created.Format(time.RFC3339), u.Updated.Format(time.RFC3339))
				}
				fmt.Fprintf(tw, "%d users\n", len(us))
				return tw.Flush()
			})
		},
	}
	list.Flags().StringVar(&format, "format", "table", "table or json")
	return list
}

// readPassword reads the first line of in as a password; --password-stdin
// is required so that nobody types one as an argument.
func readPassword(fromStdin bool, in io.Reader) (string, error) {
	if !fromStdin {
		return "", usagef("--password-stdin: required; the password is read from standard input only")
	}
	b, err := io.ReadAll(io.LimitReader(in, casework.MaxPasswordBytes+3))
	if err != nil {
		return "", fmt.Errorf("read the password: %w", err)
	}
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	} else if len(b) > casework.MaxPasswordBytes {
		return "", usagef("--password-stdin: longer than %d bytes", casework.MaxPasswordBytes)
	}
	b = bytes.TrimSuffix(b, []byte("\r"))
	return string(b), nil
}

// cliOperator is the actor of a command: the system user running it.
func cliOperator() casework.Actor {
	label := "cli"
	if u, err := user.Current(); err == nil && u.Username != "" {
		label += ":" + u.Username
	}
	return casework.Operator(label)
}

// withCasework opens the store (for writing when write is set) and runs
// fn with its casework. Reading needs an existing store.
func withCasework(path string, write bool, fn func(*casework.Casework) error) error {
	if path == "" {
		return usagef("--store: required")
	}
	if _, err := os.Stat(path); err != nil {
		return usagef("--store: %v", err)
	}
	db, err := store.Open(path, store.Options{ReadOnly: !write})
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(casework.New(db, casework.Options{Argon2: passwordHashing}))
}

// passwordHashing are the argon2id parameters of the passwords the users
// command sets; the zero value is casework.DefaultArgon2. Only this
// package's tests change it, to hash at a fraction of the cost: they test
// the commands, and casework's tests the hashing.
var passwordHashing casework.Argon2Params

// caseworkError makes a value casework refuses a usage error (exit 2);
// anything else stays a failure (exit 1).
func caseworkError(err error) error {
	var fe *casework.FieldError
	if errors.As(err, &fe) || errors.Is(err, casework.ErrExists) || errors.Is(err, casework.ErrNotFound) {
		return usageError{err}
	}
	return err
}
