package store

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// The crash test runs an import or a change set in a child process (this
// test binary, re-executed) and kills it with SIGKILL at one point of the
// way: after n records read, inside the transaction's hook, at fractions of
// the commit, after the commit. Every time, the store must then hold
// exactly the old version or exactly the new one, and stay writable.
//
// The child is told where to stop by environment variables; at a pause
// point it writes "ready" and waits to be killed, so most kill points are
// exact. Mid-commit points are timed from the hook, as nothing else marks
// the commit's progress: 4 of them per operation by default, 9 with
// AMLSCREEN_LONG_TESTS=1. The stores are half the long variant's size by
// default: the 22 children's imports and change sets are the test's cost.

var (
	crashBase  = crashSize(1000) // records at the old version
	crashNew   = crashSize(1500) // records of the file that replaces them
	crashDelta = crashSize(750)  // changes of the delta
)

// crashSize is n by default and twice n with AMLSCREEN_LONG_TESTS=1.
func crashSize(n int) int {
	if longTests() {
		return 2 * n
	}
	return n
}

// crashDeltaChanges is the change set of the apply runs: deletes, updates,
// additions and the two no-ops SEMANTICS.md settles.
func crashDeltaChanges() []record.Change {
	var out []record.Change
	for i := range crashDelta {
		switch i % 3 {
		case 0:
			out = append(out, record.Change{Type: "DELETE", Record: record.Record{ID: genRecord(1, i).ID}})
		case 1:
			r := genRecord(9, i)
			r.ListDate = 0
			out = append(out, record.Change{Type: "UPDATE", Record: *r})
		default:
			out = append(out, record.Change{Type: "ADD", Record: *genRecord(9, crashBase+i)})
		}
	}
	out = append(out,
		record.Change{Type: "UPDATE", Record: *genRecord(9, 900_000)},
		record.Change{Type: "DELETE", Record: record.Record{ID: "NOT-THERE"}})
	return out
}

func expectedOld() map[string]*record.Record    { return byID(genRecords(1, crashBase)) }
func expectedImport() map[string]*record.Record { return byID(genRecords(2, crashNew)) }

func expectedApply() map[string]*record.Record {
	m := expectedOld()
	for _, c := range crashDeltaChanges() {
		switch c.Type {
		case "DELETE":
			delete(m, c.Record.ID)
		default:
			r := c.Record.Clone()
			if old := m[r.ID]; old != nil && r.ListDate == 0 {
				r.ListDate = old.ListDate
			}
			m[r.ID] = r
		}
	}
	return m
}

// TestCrashChild is the child's side; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	path := os.Getenv("AMLSCREEN_CRASH_STORE")
	if path == "" {
		t.Skip("only run as the crash test's child process")
	}
	op, pause := os.Getenv("AMLSCREEN_CRASH_OP"), os.Getenv("AMLSCREEN_CRASH_PAUSE")
	say := func(s string) { os.Stdout.WriteString(s + "\n") }
	// Sleep rather than block on select{}: a process whose goroutines all
	// block is ended by the runtime, which is not the kill under test.
	wait := func() {
		say("ready")
		for {
			time.Sleep(time.Hour)
		}
	}
	db, err := Open(path, Options{})
	if err != nil {
		say("error " + err.Error())
		return
	}
	hook := func(*Tx, *Applied) error {
		switch pause {
		case "hook":
			wait()
		case "commit", "":
			say("commit")
		}
		return nil
	}
	atN, _ := strconv.Atoi(pause)
	read := 0
	step := func() {
		if read++; read == atN {
			wait()
		}
	}
	switch op {
	case "import":
		recs := genRecords(2, crashNew)
		err = db.ReplaceAll("v2", func() (*record.Record, error) {
			if read == len(recs) {
				return nil, io.EOF
			}
			step()
			return recs[read-1], nil
		}, hook)
	case "apply":
		var changes []record.Change
		for _, c := range crashDeltaChanges() {
			step()
			changes = append(changes, c)
		}
		_, err = db.ApplyDelta("v1", "v2", changes, hook)
	}
	if err != nil {
		say("error " + err.Error())
		return
	}
	if pause == "done" {
		wait()
	}
	say("done")
}

type crashRun struct {
	op    string
	pause string        // a record count, "hook", "commit" or "done"
	delay time.Duration // for "commit": how long after the hook to kill
}

func (c crashRun) String() string {
	if c.pause == "commit" {
		return fmt.Sprintf("%s/commit+%v", c.op, c.delay)
	}
	return c.op + "/" + c.pause
}

// runChild runs one child on a copy of base and kills it at its point. It
// returns how long the commit took when the child was let run to the end.
func runChild(t *testing.T, base, path string, run crashRun) time.Duration {
	t.Helper()
	copyFile(t, base, path)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v=false")
	cmd.Env = append(os.Environ(),
		"AMLSCREEN_CRASH_STORE="+path,
		"AMLSCREEN_CRASH_OP="+run.op,
		"AMLSCREEN_CRASH_PAUSE="+run.pause)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var commitStart time.Time
	var took time.Duration
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "ready":
			cmd.Process.Signal(syscall.SIGKILL)
		case line == "commit":
			commitStart = time.Now()
			if run.pause == "commit" {
				time.Sleep(run.delay)
				cmd.Process.Signal(syscall.SIGKILL)
			}
		case line == "done":
			if !commitStart.IsZero() {
				took = time.Since(commitStart)
			}
		case len(line) > 6 && line[:6] == "error ":
			t.Fatalf("%s: child failed: %s", run, line)
		}
	}
	cmd.Wait()
	return took
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(to + ".lock")
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkAfterCrash opens the store left by a killed child and returns the
// version it is at, having checked that its records are exactly those of
// that version.
func checkAfterCrash(t *testing.T, path string, run crashRun, old, next map[string]*record.Record) string {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("%s: reopen after kill: %v", run, err)
	}
	defer db.Close()
	db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("%s: bbolt check: %v", run, err)
		}
		return nil
	})
	v, err := db.Version()
	if err != nil {
		t.Fatal(err)
	}
	want := old
	switch v.ID {
	case "v1":
	case "v2":
		want = next
	default:
		t.Fatalf("%s: store at version %q, want v1 or v2", run, v.ID)
	}
	got := allRecords(t, db)
	if len(got) != len(want) {
		t.Fatalf("%s: version %s with %d records, want %d", run, v.ID, len(got), len(want))
	}
	for id, w := range want {
		if g := got[id]; g == nil || g.Name != w.Name || g.ListDate != w.ListDate || len(g.AliasNames) != len(w.AliasNames) {
			t.Fatalf("%s: version %s, record %s is %+v, want %+v", run, v.ID, id, g, w)
		}
	}
	if n, _ := db.Count(); n != len(want) || v.Records != len(want) {
		t.Fatalf("%s: Count %d, version says %d, want %d", run, n, v.Records, len(want))
	}
	st, _ := db.Stats()
	sum := 0
	for _, n := range st.ByEntityType {
		sum += n
	}
	if sum != len(want) {
		t.Fatalf("%s: entity type counts sum to %d, want %d", run, sum, len(want))
	}
	// The store takes writes again.
	if _, err := db.ApplyDelta(v.ID, "v3", []record.Change{{Type: "ADD", Record: record.Record{ID: "AFTER-CRASH"}}}, nil); err != nil {
		t.Fatalf("%s: delta after the crash: %v", run, err)
	}
	return v.ID
}

func TestCrashLeavesOldOrNewVersion(t *testing.T) {
	if os.Getenv("AMLSCREEN_CRASH_STORE") != "" {
		t.Skip("child process")
	}
	if testing.Short() {
		t.Skip("kills 22 child processes; run without -short")
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	db, err := Open(base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustImport(t, db, "v1", genRecords(1, crashBase))
	db.Close()
	path := filepath.Join(dir, "store.db")
	old := expectedOld()
	want := map[string]map[string]*record.Record{"import": expectedImport(), "apply": expectedApply()}

	total := 0
	for _, op := range []string{"import", "apply"} {
		n := crashNew
		if op == "apply" {
			n = crashDelta
		}
		// Measure the commit once, to place the mid-commit kills inside it.
		took := runChild(t, base, path, crashRun{op: op})
		if v := checkAfterCrash(t, path, crashRun{op: op, pause: "complete"}, old, want[op]); v != "v2" {
			t.Fatalf("%s run to the end left version %s", op, v)
		}
		runs := []crashRun{
			{op: op, pause: "1"}, {op: op, pause: strconv.Itoa(n / 3)}, {op: op, pause: strconv.Itoa(n - 1)},
			{op: op, pause: "hook"}, {op: op, pause: "commit"}, {op: op, pause: "done"},
		}
		fractions := []float64{0.15, 0.45, 0.75, 1.0}
		if longTests() {
			fractions = []float64{0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0, 1.2}
		}
		for _, f := range fractions {
			runs = append(runs, crashRun{op: op, pause: "commit", delay: time.Duration(f * float64(took))})
		}
		counts := map[string]int{}
		for _, run := range runs {
			runChild(t, base, path, run)
			v := checkAfterCrash(t, path, run, old, want[op])
			counts[v]++
			switch {
			case run.pause == "done" && v != "v2":
				t.Fatalf("%s: killed after the commit, but the store is at %s", run, v)
			case run.pause != "commit" && run.pause != "done" && v != "v1":
				t.Fatalf("%s: killed before the commit, but the store is at %s", run, v)
			}
			total++
		}
		t.Logf("%s: commit took %v; %d kill points left v1, %d left v2", op, took, counts["v1"], counts["v2"])
	}
	if total < 20 {
		t.Fatalf("only %d kill points", total)
	}
}
