package monitor

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
)

// crashEnv carries the child's instructions; its presence makes
// TestCrashChild act.
const crashEnv = "AMLSCREEN_MONITOR_CRASH_CHILD"

type crashConfig struct {
	Store, Keyring, URL, Mode string
}

// TestCrashChild is the process the crash tests kill: it applies
// testdata/delta1.jsonl with the monitoring hook, says so, and then sends
// (mode "send") or waits (other modes) until it is killed.
func TestCrashChild(t *testing.T) {
	raw := os.Getenv(crashEnv)
	if raw == "" {
		t.Skip("run by TestSIGKILLLosesNoNotification")
	}
	var cfg crashConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(cfg.Store, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(db, Options{})
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	fmt.Println("APPLIED")
	if cfg.Mode != "send" {
		select {}
	}
	ring, err := sign.LoadKeyring(cfg.Keyring)
	if err != nil {
		t.Fatal(err)
	}
	s := fastSender(db, ring, cfg.URL)
	s.Concurrency = 2
	s.Timeout = 5 * time.Second
	s.Lease = 300 * time.Millisecond
	s.Run(context.Background())
}

// TestSIGKILLLosesNoNotification kills a process that applied a delta at
// three moments: somewhere during the apply, right after it, and in the
// middle of sending. A fresh sender then delivers, and every notification
// of the delta arrives: none lost, none invented.
func TestSIGKILLLosesNoNotification(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	for _, mode := range []string{"during-apply", "after-apply", "send"} {
		t.Run(mode, func(t *testing.T) { crashOnce(t, mode) })
	}
}

func crashOnce(t *testing.T, mode string) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aml.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	importFile(t, db, "testdata/records.jsonl", v0, nil)
	m := New(db, Options{})
	regs := fixtureProfiles()
	wants := slices.Clone(expectedDelta1)
	for i := range 30 {
		id := fmt.Sprintf("p-olga-%02d", i)
		regs = append(regs, reg{ownerA, individual(id, "Olga Ivanova"), access.Policy{}})
		wants = append(wants, want{ownerA, id, "ADD", "R7"})
	}
	register(t, m, regs)
	db.Close()
	ringDir := filepath.Join(dir, "signing")
	ring, err := sign.OpenKeyring(ringDir)
	if err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, func(_ int, _ delivery, w http.ResponseWriter) {
		time.Sleep(20 * time.Millisecond)
		w.WriteHeader(http.StatusOK)
	})

	cfg, _ := json.Marshal(crashConfig{Store: path, Keyring: ringDir, URL: rc.URL, Mode: mode})
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+string(cfg))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	applied := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "APPLIED" {
				applied <- true
				return
			}
		}
		applied <- false
	}()
	switch mode {
	case "during-apply":
		time.Sleep(time.Duration(rand.IntN(200)) * time.Millisecond)
	default:
		select {
		case ok := <-applied:
			if !ok {
				t.Fatal("child ended without applying")
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("child did not apply in time")
		}
		if mode == "send" {
			rc.waitFor(t, 3, 10*time.Second)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	beforeRestart := len(rc.deliveries())

	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.Version()
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewOutbox(db).Stats()
	if err != nil {
		t.Fatal(err)
	}
	switch v.ID {
	case v0:
		// Killed before the commit: no records changed, nothing queued.
		if st.Queued != 0 || beforeRestart != 0 {
			t.Fatalf("store at v0 but %d queued, %d delivered", st.Queued, beforeRestart)
		}
		t.Logf("killed before the commit; applying again")
		applyFile(t, db, "testdata/delta1.jsonl", v0, v1, New(db, Options{}).Hook())
	case v1:
	default:
		t.Fatalf("store at %q", v.ID)
	}
	s := fastSender(db, ring, rc.URL)
	stop := runSender(t, s)
	waitEmpty(t, db, 15*time.Second)
	stop()

	ds := rc.deliveries()
	seen := map[string]bool{}
	var unique []delivery
	for _, d := range ds {
		id := parseBody(t, d.body).EventID
		if !seen[id] {
			seen[id] = true
			unique = append(unique, d)
		}
	}
	if got, want := deliveredWants(t, unique), sortWants(wants); !slices.Equal(got, want) {
		t.Fatalf("delivered events:\n%v\nwant:\n%v", got, want)
	}
	verifyAll(t, ring, ds)
	t.Logf("%d deliveries before the kill, %d in all, %d distinct events", beforeRestart, len(ds), len(unique))
}
