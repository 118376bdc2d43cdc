package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/testpki"
)

// TestTLSCommands: serve answers HTTPS with --tls-cert and --tls-key; sync
// and status --server reach it with --ca-bundle, and sync without the
// bundle fails at once, naming the flag.
func TestTLSCommands(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "Bank Internal CA")
	bundle := ca.WriteBundle(t, dir)
	certFile, keyFile := ca.Server(t, "primary").Write(t, dir, "primary")
	primaryDB := filepath.Join(dir, "primary", "aml.db")
	os.MkdirAll(filepath.Dir(primaryDB), 0o700)
	if code, _, errs := runStoreCLI(t, "import", "--store", primaryDB, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	keys := writeKeys(t, dir, `[{"key":"client-key"},{"key":"replica-key","daily_download_limit":0}]`)
	primary := startServe(t, &serveFlags{store: primaryDB, keys: keys, listen: "127.0.0.1:0", every: time.Hour,
		tlsCert: certFile, tlsKey: keyFile})
	defer primary.stop(t)
	upstream := "https://" + primary.addr
	t.Setenv(apiKeyEnv, "replica-key")

	replicaDB := filepath.Join(dir, "replica.db")
	if code, _, errs := runStoreCLI(t, "sync", "--store", replicaDB, "--upstream", upstream, "--ca-bundle", bundle); code != exitOK {
		t.Fatalf("sync with --ca-bundle: exit %d: %s", code, errs)
	}
	code, out, errs := runStoreCLI(t, "status", "--store", replicaDB, "--format", "json")
	if code != exitOK || !strings.Contains(out, `"version": "v1"`) {
		t.Errorf("replica after sync: exit %d %s %s", code, out, errs)
	}

	start := time.Now()
	code, _, errs = runStoreCLI(t, "sync", "--store", filepath.Join(dir, "stranger.db"), "--upstream", upstream)
	if code != exitError || !strings.Contains(errs, "not trusted") || !strings.Contains(errs, "--ca-bundle") {
		t.Errorf("sync without the bundle: exit %d, stderr %s", code, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("sync without the bundle took %v: a certificate error must not be retried", d)
	}

	code, out, errs = runStoreCLI(t, "status", "--server", upstream, "--api-key", "client-key", "--ca-bundle", bundle, "--format", "json")
	if code != exitOK || !strings.Contains(out, `"version": "v1"`) {
		t.Errorf("status --server over https: exit %d %s %s", code, out, errs)
	}
	code, out, errs = runStoreCLI(t, "check", "--server", upstream, "--api-key", "client-key", "--ca-bundle", bundle, "--names", "ivan petrov", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"total_hits"`) {
		t.Errorf("check --server over https: exit %d %s %s", code, out, errs)
	}
}

func TestTLSFlagErrors(t *testing.T) {
	dir := t.TempDir()
	keys := writeKeys(t, dir, `[{"key":"k"}]`)
	db := filepath.Join(dir, "a.db")
	notPEM := filepath.Join(dir, "x.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(apiKeyEnv, "")
	for _, c := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"serve", "--store", db, "--keys", keys, "--tls-cert", notPEM}, exitUsage, "--tls-key"},
		{[]string{"serve", "--store", db, "--keys", keys, "--tls-key", notPEM}, exitUsage, "--tls-cert"},
		{[]string{"serve", "--demo", "--tls-cert", notPEM, "--tls-key", notPEM}, exitUsage, "--tls-cert"},
		{[]string{"sync", "--store", db, "--api-key", "k", "--upstream", "https://127.0.0.1:1", "--ca-bundle", notPEM}, exitError, "--ca-bundle"},
		{[]string{"sync", "--store", db, "--api-key", "k", "--upstream", "https://127.0.0.1:1", "--ca-bundle", filepath.Join(dir, "absent.pem")}, exitError, "--ca-bundle"},
		{[]string{"check", "--names", "x", "--ca-bundle", notPEM}, exitUsage, "--ca-bundle"},
		{[]string{"status", "--store", db, "--ca-bundle", notPEM}, exitUsage, "--ca-bundle"},
		{[]string{"verify", "--body", notPEM, "--signature", "v1,kid=a,sig=b", "--keys-dir", dir, "--ca-bundle", notPEM}, exitUsage, "--ca-bundle"},
	} {
		code, _, errs := runStoreCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %s", c.args, code, errs, c.code, c.errs)
		}
	}
}
