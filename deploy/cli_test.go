package deploy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests build the real amlscreen command once and ask it to parse the
// command lines the artefacts hold, rather than trusting a copy of its
// flags: a flag renamed in the CLI fails here.

var (
	buildOnce sync.Once
	binDir    string // a temporary directory to remove, when the binary is in one
	binPath   string
	buildErr  error
)

// helpCache holds the binary's --help output by command line: several
// tests check the same manifests, and the same line parses the same way.
var helpCache struct {
	sync.Mutex
	out map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// goTool finds the go command that runs these tests: go test puts its own
// GOROOT/bin first on PATH.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(os.Getenv("GOROOT"), "bin", "go")
}

// amlscreenBinary returns the path of the amlscreen command built from
// this checkout.
func amlscreenBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildErr = readSources(); buildErr != nil {
			return
		}
		if binPath, buildErr = binaryPath(); buildErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, goTool(), "build", "-o", binPath, "../cmd/amlscreen").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ../cmd/amlscreen: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// binaryPath returns where to build the amlscreen command: a file of
// this checkout's own in the user's cache directory, which go build
// relinks only when the sources changed (the link is 3 s of CPU), else a
// new temporary directory that TestMain removes.
func binaryPath() (string, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return "", err
	}
	if cache, err := os.UserCacheDir(); err == nil {
		sum := sha256.Sum256([]byte(root))
		dir := filepath.Join(cache, "amlscreen-deploy-test", hex.EncodeToString(sum[:8]))
		if os.MkdirAll(dir, 0o700) == nil {
			return filepath.Join(dir, "amlscreen"), nil
		}
	}
	if binDir, err = os.MkdirTemp("", "amlscreen-deploy-"); err != nil {
		return "", err
	}
	return filepath.Join(binDir, "amlscreen"), nil
}

// readSources reads the module's Go sources and go.mod. go test caches a
// passing result against the test binary and the files the test read, and
// the amlscreen binary these tests build is neither: without this, a flag
// renamed in cmd/amlscreen would leave a cached pass standing.
func readSources() error {
	return filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && p != "..")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") {
			return nil
		}
		_, err = os.ReadFile(p)
		return err
	})
}

// commandLine is a command line of amlscreen as parsed by the binary.
type commandLine struct {
	where string            // the artefact and place it came from, for messages
	sub   string            // the subcommand, e.g. "serve" or "book import"
	flags map[string]string // every flag given, by name without dashes
	args  []string          // positional arguments, for a subcommand whose usage names them (FILE)
}

func (c commandLine) has(name string) bool { _, ok := c.flags[name]; return ok }

// flagLine matches a flag in cobra's --help: "  -h, --name type   usage";
// boolean flags show no type.
var flagLine = regexp.MustCompile(`^\s+(?:-\w, )?--([a-z0-9-]+)(?: (\S+))?(?:\s{2,}|$)`)

// parseCommandLine checks args (without the program name) against the
// built amlscreen: the subcommand exists, every flag exists and its value
// parses as the flag's type (the binary parses the line with --help
// added), every flag is given once in its long form, and nothing is left
// over as a positional argument, which every subcommand used here refuses.
func parseCommandLine(t *testing.T, where string, args []string) commandLine {
	t.Helper()
	if len(args) == 0 {
		t.Fatalf("%s: no amlscreen subcommand", where)
	}
	help := helpOf(t, where, args)
	if !strings.Contains(help, "Usage:\n  amlscreen "+args[0]) {
		t.Fatalf("%s: %q is not a subcommand of amlscreen; help:\n%s", where, args[0], help)
	}
	// The subcommand's flags and whether each takes a value.
	takesValue := map[string]bool{}
	inFlags := false
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasSuffix(line, "Flags:"):
			inFlags = true
		case strings.TrimSpace(line) == "":
			inFlags = false
		case inFlags:
			if m := flagLine.FindStringSubmatch(line); m != nil {
				takesValue[m[1]] = m[2] != ""
			}
		}
	}
	if len(takesValue) == 0 {
		t.Fatalf("%s: no flags found in the help of amlscreen %s:\n%s", where, args[0], help)
	}
	c := commandLine{where: where, sub: args[0], flags: map[string]string{}}
	first := 1
	// A command of a group (book import): the help is the inner
	// command's.
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && strings.Contains(help, "Usage:\n  amlscreen "+args[0]+" "+args[1]+" ") {
		c.sub, first = args[0]+" "+args[1], 2
	}
	positional := positionals(help, c.sub)
	for i := first; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			if len(c.args) == positional {
				t.Fatalf("%s: %q is a positional argument; amlscreen %s takes %d", where, a, c.sub, positional)
			}
			c.args = append(c.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(a[2:], "=")
		tv, known := takesValue[name]
		if !known {
			t.Fatalf("%s: amlscreen %s has no flag --%s", where, c.sub, name)
		}
		if _, dup := c.flags[name]; dup {
			t.Fatalf("%s: --%s given twice", where, name)
		}
		if tv && !hasValue {
			if i+1 == len(args) {
				t.Fatalf("%s: --%s needs a value", where, name)
			}
			i++
			value = args[i]
		}
		c.flags[name] = value
	}
	return c
}

// positionals counts the positional arguments the usage line of sub in
// help names: the upper-case words that are not a flag's value, as FILE
// in "book import --store PATH FILE [--match strict|scored]".
func positionals(help, sub string) int {
	_, usage, _ := strings.Cut(help, "Usage:\n  amlscreen "+sub)
	usage, _, _ = strings.Cut(usage, "\n")
	n := 0
	words := strings.Fields(usage)
	for i := 0; i < len(words); i++ {
		w := strings.Trim(words[i], "[]")
		if strings.HasPrefix(w, "-") {
			i++ // its value
			continue
		}
		if w != "" && w == strings.ToUpper(w) && strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			n++
		}
	}
	return n
}

// listenPort is the port of serve's --listen.
func listenPort(t *testing.T, cl commandLine) int32 {
	t.Helper()
	_, port, err := net.SplitHostPort(cl.flags["listen"])
	var n int32
	if err == nil {
		_, err = fmt.Sscanf(port, "%d", &n)
	}
	if err != nil || n <= 0 {
		t.Fatalf("%s: --listen %q has no port", cl.where, cl.flags["listen"])
	}
	return n
}

// serveAt starts the built amlscreen serve on a loopback port with args
// (which must not name --listen or --drain-delay) and returns its base
// URL; it is stopped with SIGTERM when the test ends, and must exit 0.
// No load balancer watches it, so it drains for no time rather than
// serve's default 5 s.
func serveAt(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, amlscreenBinary(t), append(append([]string{"serve"}, args...), "--listen", "127.0.0.1:0", "--drain-delay", "0")...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		listen := regexp.MustCompile(`msg=serving .*listen=(\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.add(sc.Text())
			if m := listen.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	t.Cleanup(func() {
		defer cancel()
		cmd.Process.Signal(syscall.SIGTERM)
		<-done
		if err := cmd.Wait(); err != nil {
			t.Errorf("amlscreen serve did not stop cleanly on SIGTERM: %v\n%s", err, logs.String())
		}
	})
	select {
	case a := <-addr:
		return "http://" + a
	case <-done:
		t.Fatalf("amlscreen serve ended before listening:\n%s", logs.String())
	case <-time.After(time.Minute):
		t.Fatalf("amlscreen serve did not listen within a minute:\n%s", logs.String())
	}
	return ""
}

// lockedLog collects a process's log lines for failure messages while the
// process runs.
type lockedLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lockedLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// httpStatus GETs url and returns the status code.
func httpStatus(t *testing.T, url string) int {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// helpOf returns what the built amlscreen prints for args with --help
// added, running it once per distinct command line.
func helpOf(t *testing.T, where string, args []string) string {
	t.Helper()
	key := strings.Join(args, "\x00")
	helpCache.Lock()
	help, ok := helpCache.out[key]
	helpCache.Unlock()
	if ok {
		return help
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, amlscreenBinary(t), append(append([]string{}, args...), "--help")...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: amlscreen %s: %v: %s", where, strings.Join(args, " "), err, stderr.String())
	}
	helpCache.Lock()
	if helpCache.out == nil {
		helpCache.out = map[string]string{}
	}
	helpCache.out[key] = stdout.String()
	helpCache.Unlock()
	return stdout.String()
}
