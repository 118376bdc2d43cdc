package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestDocumentedCommandsParse: every amlscreen command line the README,
// docs/*.md and bench/README.md show (in code blocks, inline code, a
// systemd ExecStart, a Kubernetes args list) and every example of every command's --help names
// real commands and flags, with values the flags accept and as many
// arguments as the command takes. The README said "export --out" while
// the flag was -o/--output; this keeps such drift from coming back.
func TestDocumentedCommandsParse(t *testing.T) {
	docs := []string{"../../README.md", "../../bench/README.md"}
	more, _ := filepath.Glob("../../docs/*.md")
	if len(more) == 0 {
		t.Fatal("no docs/*.md found: the guides moved or the glob is wrong")
	}
	docs = append(docs, more...)
	n := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range documentedCommands(string(text)) {
			n++
			if err := parseCommandLine(c.args); err != nil {
				t.Errorf("%s:%d: amlscreen %s: %v", strings.TrimPrefix(doc, "../../"), c.line, strings.Join(c.args, " "), err)
			}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		lines := strings.Split(c.Example, "\n")
		for i := 0; i < len(lines); i++ {
			l, first := lines[i], i
			// Shell continuation lines, as in code blocks.
			for strings.HasSuffix(strings.TrimSpace(l), `\`) && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + lines[i]
			}
			for _, args := range commandsInLine(l) {
				n++
				if err := parseCommandLine(args); err != nil {
					t.Errorf("%s --help, example line %d: amlscreen %s: %v", c.CommandPath(), first+1, strings.Join(args, " "), err)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
	if n < 60 {
		t.Errorf("only %d command lines found: the extraction is broken", n)
	}
}

type documented struct {
	line int
	args []string
}

var (
	fence      = regexp.MustCompile("^\\s*```")
	inlineCode = regexp.MustCompile("`(amlscreen [^`]+)`")
	yamlArgs   = regexp.MustCompile(`args:\s*(\[.*)`)
)

// documentedCommands finds the command lines of a Markdown text.
func documentedCommands(text string) []documented {
	var out []documented
	lines := strings.Split(text, "\n")
	inBlock := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if fence.MatchString(l) {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			for _, m := range inlineCode.FindAllStringSubmatch(l, -1) {
				for _, args := range commandsInLine(m[1]) {
					out = append(out, documented{i + 1, args})
				}
			}
			continue
		}
		start := i
		// Shell continuation lines, and a YAML args list over several lines.
		for strings.HasSuffix(strings.TrimSpace(l), `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + lines[i]
		}
		if m := yamlArgs.FindStringSubmatch(l); m != nil {
			list := m[1]
			for !strings.Contains(list, "]") && i+1 < len(lines) {
				i++
				list += lines[i]
			}
			var args []string
			if err := json.Unmarshal([]byte(list[:strings.Index(list, "]")+1]), &args); err == nil {
				out = append(out, documented{start + 1, args})
			}
			continue
		}
		for _, args := range commandsInLine(l) {
			out = append(out, documented{start + 1, args})
		}
	}
	return out
}

var (
	invocation = regexp.MustCompile(`(?:^|[\s|;&(/$])(?:go run \./cmd/)?amlscreen\s+([a-z].*)`)
	substitute = regexp.MustCompile(`\$\(([^()]*)\)`)
)

// commandsInLine returns the arguments of each amlscreen invocation in a
// shell line: after a pipe, inside $( ), behind env assignments or a
// path, up to the end of the command.
func commandsInLine(line string) [][]string {
	var out [][]string
	// A command substitution is a value of the outer command and a
	// command of its own.
	for _, m := range substitute.FindAllStringSubmatch(line, -1) {
		out = append(out, commandsInLine(m[1])...)
	}
	line = substitute.ReplaceAllString(line, "VALUE")
	for {
		m := invocation.FindStringSubmatchIndex(line)
		if m == nil {
			return out
		}
		words, rest := shellWords(line[m[2]:])
		if len(words) > 0 {
			out = append(out, words)
		}
		line = rest
	}
}

// shellWords splits a command's words as a shell would, with quotes,
// until the command ends (| ; && ) # > <), and returns the rest of the
// line. Documentation shorthand is read as meant: [--flag V] as an
// optional --flag V, and a|b as a choice of which a is checked.
func shellWords(s string) ([]string, string) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	flush := func() {
		if inWord {
			w := strings.Trim(cur.String(), "[]")
			// A bare ... elides flags in prose ("serve ... --every
			// 10m"); a quoted one is a placeholder value.
			if w != "" && (w != "..." || quoted) {
				words = append(words, w)
			}
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord, quoted = true, true
			i += j + 1
		case c == ' ' || c == '\t':
			flush()
		case c == '|' && !inWord, c == ';', c == ')', c == '#' && !inWord, c == '>', c == '<', c == '&':
			flush()
			return words, s[i:]
		case c == '|': // a|b inside a word: the first choice
			for i+1 < len(s) && s[i+1] != ' ' {
				i++
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, ""
}

// parseCommandLine checks args against a fresh command tree: the command
// exists, every flag is known and takes its value, and the argument count
// fits.
func parseCommandLine(args []string) error {
	root := newRoot()
	if err := unknownCommand(root, args); err != nil {
		return err
	}
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	if cmd.Flags().Changed("help") {
		return nil
	}
	if !cmd.Runnable() {
		return fmt.Errorf("%s is a group of commands, not one", cmd.CommandPath())
	}
	return cmd.ValidateArgs(cmd.Flags().Args())
}

// TestShellWords pins the extraction on the shapes the README uses.
func TestShellWords(t *testing.T) {
	tests := map[string][]string{
		`amlscreen check --names "vladimir putin" --fuzzy 1   # checkName`:                                                                                           {"check", "--names", "vladimir putin", "--fuzzy", "1"},
		`amlscreen export --store primary.db | amlscreen import --store copy.db - --version "$(amlscreen status --store primary.db --format json | jq -r .version)"`: nil,
		`amlscreen import --store aml.db full.jsonl.gz [--version V]`:                                                                                                {"import", "--store", "aml.db", "full.jsonl.gz", "--version", "V"},
		`ExecStart=/usr/local/bin/amlscreen serve --store /var/lib/amlscreen/aml.db`:                                                                                 {"serve", "--store", "/var/lib/amlscreen/aml.db"},
		`go run ./cmd/amlscreen batch --in b.csv --out /tmp/hits.csv --fuzzy 1`:                                                                                      {"batch", "--in", "b.csv", "--out", "/tmp/hits.csv", "--fuzzy", "1"},
		`amlscreen keys rotate|revoke --dir keys`:                                                                                                                    {"keys", "rotate", "--dir", "keys"},
	}
	for line, want := range tests {
		got := commandsInLine(line)
		if want == nil {
			if len(got) != 3 || got[0][0] != "status" || got[1][0] != "export" || got[2][0] != "import" || got[2][len(got[2])-1] != "VALUE" {
				t.Errorf("%s: %q", line, got)
			}
			continue
		}
		if len(got) != 1 || strings.Join(got[0], "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s:\n got %q\nwant %q", line, got, want)
		}
	}
}
