package screen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// The crash test of the persisted index: a child process (this test
// binary) imports or applies a change set to a store whose index follows
// it, and is killed with SIGKILL at one point of the way: inside the
// store's transaction, after the new segment file, after a merge's file,
// after a rebuild's file (an open that finds no index), before and after
// the MANIFEST's rename; and a full import into a store without an index,
// which builds it while reading (op "stream"), after one of its part
// files. Every time, the next open must leave store and index agreeing:
// the index current, replayed or rebuilt, answering like a fresh build,
// and no build file left behind.

func TestLiveCrashChild(t *testing.T) {
	path := os.Getenv("AMLSCREEN_LIVE_CRASH_STORE")
	if path == "" {
		t.Skip("only run as the crash test's child process")
	}
	op, pause := os.Getenv("AMLSCREEN_LIVE_CRASH_OP"), os.Getenv("AMLSCREEN_LIVE_CRASH_PAUSE")
	say := func(s string) { os.Stdout.WriteString(s + "\n") }
	wait := func() {
		say("ready")
		for {
			time.Sleep(time.Hour)
		}
	}
	crashPoint = func(p string) {
		if p == pause {
			wait()
		}
	}
	st, err := store.Open(path, store.Options{AllowShrink: true})
	if err != nil {
		say("error " + err.Error())
		return
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var d *Database
	if op == "stream" {
		// A full import into a store without an index builds it as it
		// reads, in parts of 100 records, as a writing command does.
		partRecords = 100
		os.RemoveAll(IndexDir(path))
		f := Follow(st, log)
		defer f.Close()
	} else {
		var err error
		if d, err = Open(st, Options{Log: log}); err != nil {
			say("error " + err.Error())
			return
		}
		defer d.Close()
	}
	hook := func(*store.Tx, *store.Applied) error {
		if pause == "hook" {
			wait()
		}
		return nil
	}
	w := crashWorld(t, path)
	switch op {
	case "import", "stream":
		recs := w.g.Record
		var all []*record.Record
		for i := range 500 {
			all = append(all, recs(1000+i))
		}
		err = st.ReplaceAll("v2", feed(all...), hook)
	case "apply":
		_, err = st.ApplyDelta("v1", "v2", crashChanges(w), hook)
	}
	if err != nil {
		say("error " + err.Error())
		return
	}
	if d != nil {
		d.bg.Wait() // a merge the change set started, in the background
	}
	say("done")
}

// crashWorld is the world of the base store: 400 generated records at v1.
func crashWorld(t *testing.T, path string) *world {
	// No newWorld: its TempDir would outlive a killed child.
	w := &world{t: t, path: path, cur: map[string]*record.Record{}, g: gen.New(3)}
	for i := range 400 {
		r := w.g.Record(i)
		w.cur[r.ID] = r
	}
	w.next, w.version = 400, "v1"
	return w
}

// crashChanges is a change set big enough to make the index merge its
// new segment into the base (more than a tenth of it).
func crashChanges(w *world) []record.Change {
	var out []record.Change
	for i := range 60 {
		r := w.g.Record(2000 + i)
		out = append(out, record.Change{Type: record.ChangeAdd, Record: *r})
	}
	for i := range 20 {
		upd := *w.g.Record(3000 + i)
		old := w.g.Record(i * 3)
		upd.ID, upd.SourceID, upd.SourceType = old.ID, old.SourceID, old.SourceType
		out = append(out, record.Change{Type: record.ChangeUpdate, Record: upd})
	}
	for i := range 20 {
		out = append(out, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: w.g.Record(i*3 + 1).ID}})
	}
	return out
}

// killPoint is where TestCrashLeavesIndexAndStoreAgreeing kills a child:
// the operation it runs and the point it pauses at.
type killPoint struct{ op, pause string }

// killPoints returns the kill points: by default every operation killed
// before its commit or in the middle of its index files, and one run to
// its end (7 children); with AMLSCREEN_LONG_TESTS every point each
// operation has (22 children).
func killPoints() []killPoint {
	if longTests() {
		return []killPoint{
			{"apply", "hook"}, {"apply", "segment"}, {"apply", "merged"}, {"apply", "manifest"}, {"apply", "renamed"}, {"apply", "end"},
			{"import", "hook"}, {"import", "segment"}, {"import", "merged"}, {"import", "manifest"}, {"import", "renamed"}, {"import", "end"},
			{"open", "rebuilt"}, {"open", "manifest"}, {"open", "renamed"}, {"open", "end"},
			{"stream", "part"}, {"stream", "hook"}, {"stream", "rebuilt"}, {"stream", "manifest"}, {"stream", "renamed"}, {"stream", "end"},
		}
	}
	return []killPoint{
		{"apply", "hook"}, {"apply", "end"},
		{"import", "segment"}, {"import", "renamed"},
		{"open", "rebuilt"},
		{"stream", "part"}, {"stream", "manifest"},
	}
}

func TestCrashLeavesIndexAndStoreAgreeing(t *testing.T) {
	if os.Getenv("AMLSCREEN_LIVE_CRASH_STORE") != "" {
		t.Skip("child process")
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base", "s.db")
	os.MkdirAll(filepath.Dir(base), 0o755)
	w := crashWorld(t, base)
	st, err := store.Open(base, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(st, Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ReplaceAll("v1", feed(w.records()...), nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	st.Close()

	states := map[string]int{}
	for _, c := range killPoints() {
		run := c.op + "/" + c.pause
		path := filepath.Join(dir, strings.ReplaceAll(run, "/", "-"), "s.db")
		copyTree(t, filepath.Dir(base), filepath.Dir(path))
		if c.op == "open" { // an index to build from the records
			os.RemoveAll(IndexDir(path))
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestLiveCrashChild$", "-test.v=false")
		cmd.Env = append(os.Environ(), "AMLSCREEN_LIVE_CRASH_STORE="+path, "AMLSCREEN_LIVE_CRASH_OP="+c.op, "AMLSCREEN_LIVE_CRASH_PAUSE="+c.pause)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killed := false
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == "ready":
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			case strings.HasPrefix(line, "error "):
				t.Fatalf("%s: child failed: %s", run, line)
			}
		}
		cmd.Wait()
		if killed == (c.pause == "end") {
			t.Fatalf("%s: killed %v", run, killed)
		}

		// The next open: the store at v1 or v2, the index agreeing.
		var logs bytes.Buffer
		st, err := store.Open(path, store.Options{})
		if err != nil {
			t.Fatalf("%s: reopen: %v", run, err)
		}
		d, err := Open(st, Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatalf("%s: open index: %v", run, err)
		}
		ver, _ := st.Version()
		cw := &world{t: t, path: path, version: ver.ID, cur: map[string]*record.Record{}}
		if _, err := st.LoadAll(func(r *record.Record) error { cw.cur[r.ID] = r; return nil }); err != nil {
			t.Fatal(err)
		}
		// A part file is written by the build's own goroutine, which races
		// the store's commit: a kill there may land before or after it, and
		// either version is whole. Every other point has one answer.
		if c.pause != "part" && (c.pause == "hook" || c.op == "open") != (ver.ID == "v1") {
			t.Errorf("%s: store at %s", run, ver.ID)
		}
		cw.agreesFresh(d) // the index against a fresh build over the store's records
		if left := buildFiles(t, path); len(left) > 0 {
			t.Errorf("%s: build files left after the next open: %v", run, left)
		}
		states[d.State().State]++
		t.Logf("%s: store %s, index %s %s", run, ver.ID, d.State().State, strings.TrimSpace(logs.String()))
		d.Close()
		st.Close()
	}
	if states[StateCurrent] == 0 || states[StateReplayed]+states[StateRebuilt] == 0 {
		t.Errorf("states %v: the kills never left a stale index, or never a current one", states)
	}
}

// copyTree copies the files of directory from (one level of
// subdirectories: the store and its index) into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	filepath.WalkDir(from, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if strings.HasSuffix(p, ".lock") {
			return nil
		}
		if err := copyFile(p, dst); err != nil {
			t.Fatal(err)
		}
		return nil
	})
}

// copyFile copies file from to a new file to, holes as holes on Linux: a
// store of a few hundred records is 16 MiB long, bbolt's growth, of which
// 300 KiB are written, and copying the rest as zeros took a tenth of the
// package's CPU.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if err := copyData(dst, src, fi.Size()); err != nil {
		dst.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return dst.Close()
}

// copyData copies src's size bytes into the empty dst, only the ranges
// SEEK_DATA and SEEK_HOLE find written on Linux, everything elsewhere.
// File to file, io.Copy lets the kernel copy (copy_file_range).
func copyData(dst, src *os.File, size int64) error {
	const seekData, seekHole = 3, 4 // Linux's whence values
	if runtime.GOOS != "linux" {
		_, err := io.Copy(dst, src)
		return err
	}
	if err := dst.Truncate(size); err != nil {
		return err
	}
	for off := int64(0); off < size; {
		data, err := src.Seek(off, seekData)
		if errors.Is(err, syscall.ENXIO) {
			return nil // no data past off
		}
		if err != nil {
			return err
		}
		hole, err := src.Seek(data, seekHole)
		if err != nil {
			return err
		}
		if _, err := src.Seek(data, io.SeekStart); err != nil {
			return err
		}
		if _, err := dst.Seek(data, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.CopyN(dst, src, hole-data); err != nil {
			return err
		}
		off = hole
	}
	return nil
}
