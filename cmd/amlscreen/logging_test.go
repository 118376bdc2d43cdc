package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLogFlags: --log-format and --log-level set the format and level of
// every log line of a run, in every command; other values are refused.
func TestLogFlags(t *testing.T) {
	// Not parallel: the log configuration is the process's.
	t.Cleanup(func() { runCLI(t, "version") }) // back to the defaults
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-format", "xml"}, `--log-format: "xml" is not text or json`},
		{[]string{"--log-level", "verbose"}, `--log-level: "verbose" is not debug, info, warn or error`},
	} {
		code, _, stderr := runCLI(t, append([]string{"version"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("version %v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}

	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	code, _, stderr := runCLI(t, "import", "--log-format", "json", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1")
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	levels := jsonLogLevels(t, stderr)
	if levels["INFO"] == 0 {
		t.Errorf("import --log-format json wrote no INFO line:\n%s", stderr)
	}
	// The index build of a first import is no warning.
	if levels["WARN"] > 0 || strings.Contains(stderr, "not usable") {
		t.Errorf("a first import warns:\n%s", stderr)
	}

	code, _, stderr = runCLI(t, "import", "--log-level", "warn", "--store", filepath.Join(dir, "other.db"), fixtures+"full_v1.jsonl", "--version", "v1")
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "level=INFO") {
		t.Errorf("--log-level warn wrote INFO lines:\n%s", stderr)
	}
}

// jsonLogLevels fails unless every line of log is a JSON object with a
// level and a message, and counts the lines of each level.
func jsonLogLevels(t *testing.T, log string) map[string]int {
	t.Helper()
	levels := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec struct{ Level, Msg string }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Level == "" || rec.Msg == "" {
			t.Errorf("not a JSON log line: %q", sc.Text())
			continue
		}
		levels[rec.Level]++
	}
	return levels
}

// TestServeLogsOneFormat: serve --demo --log-format json writes nothing but
// JSON lines, from its own code and from the packages that log through
// slog's default logger (the store, the index), and its first start
// warns about nothing (live's TestDamagedIndexIsRebuilt pins the line of
// an index never built).
func TestServeLogsOneFormat(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	t.Parallel() // waits on its child; the JSON log format is the child's, not this process's
	cmd := cliChild("serve", "--demo", "--listen", "127.0.0.1:0", "--log-format", "json")
	cmd.Env = append(cmd.Env, "TMPDIR="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), `"msg":"serving"`) {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve --demo: %v\n%s", err, log.String())
	}
	jsonLogLevels(t, log.String())
	// The one warning a demo gives is the deliberate one that its answers
	// come from the embedded sample; nothing about its index.
	for _, l := range strings.Split(log.String(), "\n") {
		warns := strings.Contains(l, `"level":"WARN"`) || strings.Contains(l, `"level":"ERROR"`)
		if (warns && !strings.Contains(l, "embedded sample")) || strings.Contains(l, "not usable") || strings.Contains(l, "MANIFEST") {
			t.Errorf("a fresh demo start warns: %s", l)
		}
	}
	for _, want := range []string{`"msg":"serving"`, `"api_key":"demo-`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no %s in:\n%s", want, log.String())
		}
	}
}
