// Command amlscreen is the offline local screening engine: it keeps the
// consolidated AML database current, screens names against it, serves the
// /v1 API locally and measures its own quality and speed.
//
// Each subcommand lives in a file of its own and only wires flags to the
// packages that do the work.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes scripts can rely on.
const (
	exitOK       = 0 // success; for check: ran, whatever the hits
	exitError    = 1 // the command failed (I/O, store, network)
	exitUsage    = 2 // bad flags or values
	exitRejected = 3 // batch: finished, but some input rows were rejected
)

// usageError marks an error caused by the caller's flags or values; it exits
// with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError with a formatted message. Messages name the
// flag: "--dob: 32/01/2000 is not a valid date".
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitCodeError lets a command finish with a specific non-zero exit code
// after it has printed its own output.
type exitCodeError struct {
	code int
	err  error
}

func (e exitCodeError) Error() string { return e.err.Error() }

// commands holds the constructors of the subcommands; each file adds its own
// in an init function, so that commands stay independent of one another.
var commands []func() *cobra.Command

func register(c func() *cobra.Command) { commands = append(commands, c) }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "amlscreen",
		Short: "Offline local screening against sanction, PEP and criminal lists",
		Long: `amlscreen screens names of individuals and entities against a local copy of
the consolidated AML database, with the semantics of the hosted /v1 service.

With no store or data file given, commands use the sample database embedded in
the binary, so every command can be tried without a download.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{err}
	})
	for _, c := range commands {
		root.AddCommand(c())
	}
	return root
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI with args and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ec exitCodeError
	if errors.As(err, &ec) {
		if ec.err != nil {
			fmt.Fprintln(stderr, "amlscreen:", ec.err)
		}
		return ec.code
	}
	fmt.Fprintln(stderr, "amlscreen:", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}

// isCobraUsage recognises cobra's own argument errors, which are plain
// errors: unknown commands and wrong argument counts are usage errors too.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
