package casework

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// The crash test runs an alert import (batches of alerts, one transaction
// each, through a Writer) or a bulk action (one assignment of every alert)
// in a child process, this test binary run again, and kills it with
// SIGKILL: after a number of batches committed, or at fractions of the
// time the whole operation takes. Every time, the audit chain must verify
// and every alert must be as it was before its transaction or as it is
// after: an alert with its audit entry, or neither. The default run
// imports 20 batches of 100 alerts and kills the import after 2 exact
// batches and at 2 fractions of its time, and the bulk action at 2
// fractions, one past its end; AMLSCREEN_LONG_TESTS=1 imports batches of 250 and kills after
// 3 batches and at 7 and 9 fractions. Most of the cost is the parent's
// check of every alert after each kill, so the batch size sets it.

const crashBatches = 20

// crashBatch is the alerts in one batch of the import.
var crashBatch = crashBatchSize()

func crashBatchSize() int {
	if longTests() {
		return 250
	}
	return 100
}

func TestCrashChild(t *testing.T) {
	path := os.Getenv("AMLSCREEN_CASEWORK_CRASH_STORE")
	if path == "" {
		t.Skip("only run as the crash test's child process")
	}
	say := func(s string) { os.Stdout.WriteString(s + "\n") }
	wait := func() {
		say("ready")
		for {
			time.Sleep(time.Hour)
		}
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		say("error " + err.Error())
		return
	}
	c := New(db, Options{Argon2: testArgon})
	pause, _ := strconv.Atoi(os.Getenv("AMLSCREEN_CASEWORK_CRASH_PAUSE"))
	say("start")
	switch os.Getenv("AMLSCREEN_CASEWORK_CRASH_OP") {
	case "raise":
		w := c.NewWriter("batch", crashBatch)
		for b := range crashBatches {
			for i := range crashBatch {
				n := b*crashBatch + i
				if err := w.Add(hitOn(fmt.Sprintf("C-%d", n), testRecord(n, "SANCTION"))); err != nil {
					say("error " + err.Error())
					return
				}
			}
			if b+1 == pause {
				if err := w.Flush(); err != nil {
					say("error " + err.Error())
					return
				}
				wait()
			}
		}
		if _, err := w.Close(); err != nil {
			say("error " + err.Error())
			return
		}
	case "assign":
		ids := make([]uint64, crashBatches*crashBatch)
		for i := range ids {
			ids[i] = uint64(i + 1)
		}
		if err := c.Assign(User("rev"), ids, "ana"); err != nil {
			say("error " + err.Error())
			return
		}
	}
	say("done")
	if pause < 0 {
		wait()
	}
}

// runCrashChild runs one child on a copy of base; it kills it when the
// child says ready, or delay after it started (delay > 0). It returns how
// long the child took from start to done.
func runCrashChild(t *testing.T, base, path, op string, pause int, delay time.Duration) time.Duration {
	t.Helper()
	b, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path + ".lock")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), "AMLSCREEN_CASEWORK_CRASH_STORE="+path, "AMLSCREEN_CASEWORK_CRASH_OP="+op,
		"AMLSCREEN_CASEWORK_CRASH_PAUSE="+strconv.Itoa(pause))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var start time.Time
	var took time.Duration
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		switch line := sc.Text(); {
		case line == "start":
			start = time.Now()
			if delay > 0 {
				time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
			}
		case line == "ready":
			cmd.Process.Signal(syscall.SIGKILL)
		case line == "done":
			took = time.Since(start)
		case len(line) > 6 && line[:6] == "error ":
			cmd.Process.Kill()
			t.Fatalf("%s: child failed: %s", op, line)
		}
	}
	cmd.Wait()
	return took
}

// checkCrash opens what a killed child left and returns the number of
// alerts and of assigned alerts, having checked the chain and that every
// alert has its audit entries and no entry names a missing alert.
func checkCrash(t *testing.T, path, what string) (alerts, assigned int) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("%s: reopen: %v", what, err)
	}
	defer db.Close()
	c := New(db, Options{Argon2: testArgon})
	if _, err := c.Verify(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	raised, assigns := map[uint64]bool{}, map[uint64]bool{}
	c.Each(zeroTime, zeroTime, func(e Entry) error {
		switch e.Action {
		case ActionRaise:
			raised[e.Alert] = true
		case ActionAssign:
			assigns[e.Alert] = true
		}
		return nil
	})
	all, err := c.Alerts(Filter{})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for _, a := range all {
		if !raised[a.ID] {
			t.Fatalf("%s: alert %d without its audit entry", what, a.ID)
		}
		if (a.Assignee == "ana") != assigns[a.ID] {
			t.Fatalf("%s: alert %d assigned to %q, assignment logged: %v", what, a.ID, a.Assignee, assigns[a.ID])
		}
		if a.Assignee != "" {
			assigned++
		}
		if got, _ := c.AlertFor(a.Subject, a.Hit.RecordID); got == nil || got.ID != a.ID {
			t.Fatalf("%s: alert %d missing from the key index", what, a.ID)
		}
	}
	if len(raised) != len(all) || len(assigns) != assigned {
		t.Fatalf("%s: %d alerts, %d raise entries; %d assigned, %d assign entries", what, len(all), len(raised), assigned, len(assigns))
	}
	// The store takes the next change.
	if _, err := c.Raise("after", []NewAlert{hitOn("AFTER", testRecord(999999, "PEP"))}); err != nil {
		t.Fatalf("%s: raise after the crash: %v", what, err)
	}
	return len(all), assigned
}

func TestCrashLeavesAlertsBeforeOrAfter(t *testing.T) {
	if os.Getenv("AMLSCREEN_CASEWORK_CRASH_STORE") != "" {
		t.Skip("child process")
	}
	if testing.Short() {
		t.Skip("kills child processes a few dozen times; run without -short")
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	db, err := store.Open(empty, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := New(db, Options{Argon2: testArgon})
	addUsers(t, c)
	db.Close()
	path := filepath.Join(dir, "store.db")
	total := crashBatches * crashBatch

	// The import: exact kills after whole batches, then timed ones.
	took := runCrashChild(t, empty, path, "raise", 0, 0)
	// The complete import is the bulk action's starting store below:
	// copied before checkCrash adds an alert to it.
	full := filepath.Join(dir, "full.db")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if n, _ := checkCrash(t, path, "raise complete"); n != total {
		t.Fatalf("a complete import left %d alerts", n)
	}
	exact := []int{1, crashBatches}
	if longTests() {
		exact = []int{1, 7, crashBatches}
	}
	for _, k := range exact {
		runCrashChild(t, empty, path, "raise", k, 0)
		if n, _ := checkCrash(t, path, fmt.Sprintf("raise killed after batch %d", k)); n != k*crashBatch {
			t.Fatalf("killed after batch %d: %d alerts, want %d", k, n, k*crashBatch)
		}
	}
	counts := map[int]int{}
	fractions := []float64{0.3, 0.7}
	if longTests() {
		fractions = []float64{0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0}
	}
	for _, f := range fractions {
		what := fmt.Sprintf("raise killed at %.0f%%", 100*f)
		runCrashChild(t, empty, path, "raise", 0, time.Duration(f*float64(took))+time.Millisecond)
		n, _ := checkCrash(t, path, what)
		if n%crashBatch != 0 {
			t.Fatalf("%s: %d alerts, not whole batches of %d", what, n, crashBatch)
		}
		counts[n/crashBatch]++
	}
	t.Logf("import took %v; timed kills left these batches committed: %v", took, counts)

	// The bulk action over every alert of a full store.
	took = runCrashChild(t, full, path, "assign", 0, 0)
	if _, a := checkCrash(t, path, "assign complete"); a != total {
		t.Fatalf("a complete bulk assign left %d assigned", a)
	}
	outcomes := map[int]int{}
	fractions = []float64{0.6, 1.1}
	if longTests() {
		fractions = []float64{0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 1.1}
	}
	for _, f := range fractions {
		what := fmt.Sprintf("assign killed at %.0f%%", 100*f)
		runCrashChild(t, full, path, "assign", 0, time.Duration(f*float64(took))+time.Millisecond)
		_, a := checkCrash(t, path, what)
		if a != 0 && a != total {
			t.Fatalf("%s: %d of %d alerts assigned", what, a, total)
		}
		outcomes[a]++
	}
	t.Logf("bulk assign took %v; timed kills left (assigned: runs) %v", took, outcomes)
}
