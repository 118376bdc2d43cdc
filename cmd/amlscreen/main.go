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
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes scripts can rely on.
const (
	exitOK       = 0 // success; for check: ran, whatever the hits
	exitError    = 1 // the command failed (I/O, store, network)
	exitUsage    = 2 // bad flags or values
	exitRejected = 3 // batch: finished, but some input rows were rejected
)

// usageError marks an error caused by the caller's command line: flags,
// values, arguments, an unknown command. It exits with exitUsage; every
// other error exits with exitError. Commands return it through usagef;
// cobra's own errors (flag parsing, argument counts, unknown commands) are
// wrapped in it where cobra makes them (see typeUsageErrors), so the exit
// code never depends on the wording of a message.
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
	// --version prints one line; amlscreen version shows the whole build.
	root.Version = versionLine(buildVersion(debug.ReadBuildInfo()))
	root.SetVersionTemplate("amlscreen {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{suggestFlag(c, err)}
	})
	addLogFlags(root)
	for _, c := range commands {
		root.AddCommand(c())
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	typeUsageErrors(root)
	return root
}

// unknownCommand reports a command name in args that no command has.
func unknownCommand(root *cobra.Command, args []string) error {
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if !cmd.HasSubCommands() || cmd.Runnable() {
		return nil
	}
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			msg := fmt.Sprintf("unknown command %q for %q", a, cmd.CommandPath())
			if s := cmd.SuggestionsFor(a); len(s) > 0 {
				msg += "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return fmt.Errorf("%s (see %s --help)", msg, cmd.CommandPath())
		}
	}
	return nil
}

// suggestFlag adds "did you mean --names?" to an unknown flag error when
// the command has flags near the name typed: within two edits, or
// starting with it.
func suggestFlag(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || name == "" {
		return err
	}
	var near []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden && (editDistance(name, f.Name) <= 2 || strings.HasPrefix(f.Name, name)) {
			near = append(near, "--"+f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	if len(near) == 0 {
		return err
	}
	return fmt.Errorf("%w; did you mean %s? (see %s --help)", err, strings.Join(near, " or "), c.CommandPath())
}

// editDistance is the Levenshtein distance of a and b, in bytes (flag
// names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// typeUsageErrors makes the argument checks of c and its subcommands
// return usageError, and lets each command suggest its subcommands
// within two edits of a mistyped name (cobra's default of 2 is set only
// on its own error path, not for SuggestionsFor, which unknownCommand
// calls).
func typeUsageErrors(c *cobra.Command) {
	c.SuggestionsMinimumDistance = 2
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				// "check vladimir putin": the words were meant as the
				// name to screen.
				if len(args) > 0 && cmd.Flags().Lookup("names") != nil {
					err = fmt.Errorf("%w; a name to screen goes in --names, quoted: %s --names %q", err, cmd.CommandPath(), strings.Join(args, " "))
				}
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		typeUsageErrors(sub)
	}
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
	// A command name amlscreen does not know ("amlscreen chek") is a
	// usage error; cobra returns it as a plain error, and under a group
	// ("amlscreen media serch") not at all: it would print the group's
	// help and exit 0.
	if err := unknownCommand(root, args); err != nil {
		fmt.Fprintln(stderr, "amlscreen:", err)
		return exitUsage
	}
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
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}
