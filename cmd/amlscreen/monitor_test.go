package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/sign"
)

const monitorFixtures = "../../monitor/testdata/"

// TestMonitorNewcomerFlow is the README's walk-through: a key with a
// webhook_url, a profile registered, a delta applied, the outbox shown and
// the webhook sent, received and verified.
func TestMonitorNewcomerFlow(t *testing.T) {
	var mu sync.Mutex
	type got struct {
		body      []byte
		key, sign string
	}
	var gots []got
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		gots = append(gots, got{b, r.Header.Get("x-api-key"), r.Header.Get(sign.HeaderName)})
		mu.Unlock()
	}))
	defer rc.Close()

	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	signing := filepath.Join(dir, "signing")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme","profile_quota":2,"webhook_url":"`+rc.URL+`/hook"},
		{"key":"other-secret","name":"other"}]`), 0o600)

	steps := []struct {
		args []string
		code int
		out  string // part of stdout
		errs string // part of stderr
	}{
		{[]string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}, exitOK, "", ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-1", "--names", "Olga Ivanova"}, exitOK, "registered profile c-1", ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-2", "--names", "Acme Trading LLC", "--type", "entity", "--fuzzy", "1"}, exitOK, "registered profile c-2", ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-1", "--names", "Olga Ivanova", "--dob", "00/00/1970"}, exitOK, "updated profile c-1", ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-3", "--names", "John Smith"}, exitError, "", "quota of 2 reached"},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-4", "--names", "x", "--dob", "32/01/2000"}, exitUsage, "", "--dob"},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-4"}, exitUsage, "", "--names"},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "nobody", "--profile-id", "c-4", "--names", "x"}, exitUsage, "", "no key named"},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-4", "--names", "x", "--type", "vessel"}, exitUsage, "", "--type"},
		{[]string{"monitor", "list", "--store", db, "--keys", keys}, exitOK, "acme c-1 individual names \"Olga Ivanova\", dob 00/00/1970", ""},
		{[]string{"monitor", "outbox", "--store", db}, exitOK, "queued 0 (retrying 0), dead letters 0", ""},
		{[]string{"apply", "--store", db, monitorFixtures + "delta1.jsonl", "--previous", "v1", "--version", "v2"}, exitOK, "", ""},
		{[]string{"monitor", "outbox", "--store", db}, exitOK, "queued 3", ""},
		{[]string{"monitor", "test", "--store", db, "--keys", keys, "--key", "other", "--profile-id", "t"}, exitUsage, "", "no webhook_url"},
		{[]string{"monitor", "send", "--store", db, "--keys", keys}, exitUsage, "", "--signing-keys"},
		{[]string{"monitor", "send", "--store", db, "--keys", keys, "--signing-keys", signing, "--concurrency", "0"}, exitUsage, "", "amlscreen: --concurrency: 0 is not positive"},
		{[]string{"monitor", "send", "--store", db, "--keys", keys, "--signing-keys", signing, "--timeout", "0s"}, exitUsage, "", "amlscreen: --timeout: 0s is not positive"},
		{[]string{"monitor", "send", "--store", db, "--keys", keys, "--signing-keys", signing, "--once"}, exitOK, "", "delivered=3"},
		{[]string{"monitor", "outbox", "--store", db, "--format", "json"}, exitOK, `"queued": 0`, ""},
		{[]string{"monitor", "remove", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-2"}, exitOK, "removed profile c-2", ""},
		{[]string{"monitor", "remove", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-2"}, exitOK, "nothing to remove", ""},
	}
	for _, s := range steps {
		code, out, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(words(out), words(s.out)) || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", s.args, code, s.code, out, errs)
		}
	}

	mu.Lock()
	defer mu.Unlock()
	if len(gots) != 3 {
		t.Fatalf("receiver got %d webhooks, want 3 (c-1 ADD R7; c-2 UPDATE R3 and R4)", len(gots))
	}
	ring, err := sign.LoadKeyring(signing)
	if err != nil {
		t.Fatal(err)
	}
	v := sign.NewVerifier(ring.Fetch, 0)
	seen := map[string]bool{}
	for _, g := range gots {
		var b struct {
			ProfileID string `json:"profile_id"`
			MatchType string `json:"match_type"`
			Entity    struct {
				ID string `json:"id"`
			} `json:"entity"`
		}
		if err := json.Unmarshal(g.body, &b); err != nil {
			t.Fatal(err)
		}
		seen[b.ProfileID+" "+b.MatchType+" "+b.Entity.ID] = true
		if g.key != "acme-secret" {
			t.Errorf("x-api-key %q", g.key)
		}
		if err := v.Verify(context.Background(), g.body, g.sign); err != nil {
			t.Errorf("signature: %v", err)
		}
		// amlscreen verify agrees, as a receiver's script would use it.
		bodyFile := filepath.Join(dir, "body.json")
		os.WriteFile(bodyFile, g.body, 0o600)
		if code, out, errs := runStoreCLI(t, "verify", "--body", bodyFile, "--signature", g.sign, "--keys-dir", signing); code != exitOK {
			t.Errorf("verify: exit %d %s %s", code, out, errs)
		}
	}
	for _, w := range []string{"c-1 ADD R7", "c-2 UPDATE R3", "c-2 UPDATE R4"} {
		if !seen[w] {
			t.Errorf("missing webhook %s; got %v", w, seen)
		}
	}
}
