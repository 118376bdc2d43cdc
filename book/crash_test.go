package book

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// crashBook returns the customers of book generation gen: generation 2
// changes a third of generation 1's, drops a third and adds as many.
func crashBook(gen, n int) []Customer {
	out := make([]Customer, 0, n)
	for i := range n {
		id := i
		if gen == 2 && i%3 == 0 {
			id = n + i // removed in 2, and a new one added
		}
		name := fmt.Sprintf("Customer Number%d Surname%d", id, id%97)
		if gen == 2 && i%3 == 1 {
			name += " Changed"
		}
		out = append(out, Customer{ID: fmt.Sprintf("C%07d", id), Name: name, Extra: map[string]string{"gen": strconv.Itoa(gen)}})
	}
	return out
}

// crashCustomers is the size of the book the crash tests import: 2,500
// customers, 20,000 with AMLSCREEN_LONG_TESTS=1.
func crashCustomers() int {
	if longTests() {
		return 20_000
	}
	return 2_500
}

// TestBookCrashChild is the child's side of TestBookImportSurvivesAKill;
// it does nothing in a normal run.
func TestBookCrashChild(t *testing.T) {
	path := os.Getenv("AMLSCREEN_BOOK_CRASH_STORE")
	if path == "" {
		t.Skip("the child of TestBookImportSurvivesAKill: runs only when that test starts it")
	}
	n, err := strconv.Atoi(os.Getenv("AMLSCREEN_BOOK_CRASH_CUSTOMERS"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	customers := crashBook(2, n)
	fmt.Println("ready")
	os.Stdout.Sync()
	if _, err := Import(db, customers, Config{Match: "scored", Fuzzy: 1}, "gen2", time.Now()); err != nil {
		t.Fatal(err)
	}
	fmt.Println("done")
	select {} // wait for the kill
}

// TestBookImportSurvivesAKill kills a book import at several points, from
// before its transaction to after its commit: each time the book is
// exactly the old one or exactly the new one, and the store takes the
// next import. The first child runs to the end; the others are killed at
// once and at half the time its import took (killCopies).
func TestBookImportSurvivesAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes: not with -short")
	}
	n := crashCustomers()
	old, next := crashBook(1, n), crashBook(2, n)
	// One store with the old book, copied for every child.
	orig := filepath.Join(t.TempDir(), "aml.db")
	db, err := store.Open(orig, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(db, old, DefaultConfig, "gen1", time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	sawOld, sawNew := false, false
	env := func(path string) []string {
		return []string{"AMLSCREEN_BOOK_CRASH_STORE=" + path, "AMLSCREEN_BOOK_CRASH_CUSTOMERS=" + strconv.Itoa(n)}
	}
	killCopies(t, orig, "^TestBookCrashChild$", env, func(path string, delay time.Duration) {
		db, err := store.Open(path, store.Options{})
		if err != nil {
			t.Fatalf("after a kill at %v: %v", delay, err)
		}
		got, cfg, err := Load(db)
		if err != nil {
			t.Fatalf("after a kill at %v: %v", delay, err)
		}
		switch {
		case sameBook(got, old) && cfg == DefaultConfig:
			sawOld = true
		case sameBook(got, next) && cfg == (Config{Match: "scored", Fuzzy: 1}):
			sawNew = true
		default:
			t.Fatalf("after a kill at %v: a book of %d customers, config %+v, neither the old nor the new", delay, len(got), cfg)
		}
		if _, err := Import(db, old, DefaultConfig, "again", time.Now()); err != nil {
			t.Fatalf("after a kill at %v: the store takes no import: %v", delay, err)
		}
		db.Close()
	})
	t.Logf("outcomes seen: old book %v, new book %v", sawOld, sawNew)
	if !sawNew {
		t.Error("no run reached the new book: the kills tested nothing after the commit")
	}
}

func sameBook(got, want []Customer) bool {
	if len(got) != len(want) {
		return false
	}
	byID := make(map[string]*Customer, len(want))
	for i := range want {
		byID[want[i].ID] = &want[i]
	}
	for i := range got {
		w := byID[got[i].ID]
		if w == nil || w.Name != got[i].Name || w.Extra["gen"] != got[i].Extra["gen"] {
			return false
		}
	}
	return true
}

// killChild runs this test binary's test run with env added, waits for
// it to print "ready", then kills it after delay, or once it prints
// "done" when delay is negative. It returns the time from "ready" to the
// kill.
func killChild(t *testing.T, run string, env []string, delay time.Duration) time.Duration {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", run)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
	}
	start := time.Now()
	if delay < 0 {
		for sc.Scan() && sc.Text() != "done" {
		}
	} else {
		time.Sleep(delay)
	}
	took := time.Since(start)
	cmd.Process.Kill()
	cmd.Wait()
	return took
}

// killCopies runs child test run on copies of the store at orig, env
// giving each its environment, and calls check with each copy after its
// kill: the first child runs to the end, the others are killed at once
// and at half the time the first took (AMLSCREEN_LONG_TESTS=1: at a third
// and two thirds), so that the kills land inside the transaction on a
// fast or a loaded machine alike.
func killCopies(t *testing.T, orig, run string, env func(path string) []string, check func(path string, delay time.Duration)) {
	t.Helper()
	var took time.Duration
	points := []float64{-1, 0, 1.0 / 2}
	if longTests() {
		points = []float64{-1, 0, 1.0 / 3, 2.0 / 3}
	}
	for _, at := range points {
		path := copyFile(t, orig)
		delay := time.Duration(at * float64(took)) // -1: to the end
		if at < 0 {
			delay = -1
		}
		d := killChild(t, run, env(path), delay)
		if at < 0 {
			took = d
		}
		check(path, delay)
	}
}

// copyFile copies the file at path to a new file in a test directory and
// returns the copy's path.
func copyFile(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(dst, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}
