package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/sign"
)

// verifyFixture makes a keyring with a RETIRED key and an ACTIVE one and a
// body signed by each.
func verifyFixture(t *testing.T) (k *sign.Keyring, body, retiredSig, activeSig string) {
	t.Helper()
	dir := t.TempDir()
	k, err := sign.OpenKeyring(filepath.Join(dir, "keys"))
	if err != nil {
		t.Fatal(err)
	}
	body = filepath.Join(dir, "body.json")
	data := []byte(`{"sources":[]}`)
	if err := os.WriteFile(body, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if retiredSig, err = k.Sign(data); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Rotate(time.Now()); err != nil {
		t.Fatal(err)
	}
	if activeSig, err = k.Sign(data); err != nil {
		t.Fatal(err)
	}
	return k, body, retiredSig, activeSig
}

func TestVerifyKeysDir(t *testing.T) {
	k, body, retired, active := verifyFixture(t)
	for _, sig := range []string{active, retired, "x-service-signature: " + active, "X-Service-Signature:" + retired} {
		code, out, errs := keysRun(t, "verify", "--body", body, "--signature", sig, "--keys-dir", k.Dir())
		if code != exitOK || !strings.HasPrefix(out, "valid signature by key k-") {
			t.Errorf("verify %q: exit %d, %q, %q", sig, code, out, errs)
		}
	}
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	os.WriteFile(tampered, []byte(`{"sources":[1]}`), 0o644)
	code, out, errs := keysRun(t, "verify", "--body", tampered, "--signature", active, "--keys-dir", k.Dir())
	if code != exitError || out != "" || !strings.Contains(errs, "does not match") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("tampered body: exit %d, %q, %q; want exit 1, one line", code, out, errs)
	}
	if err := k.Revoke("previous"); err != nil {
		t.Fatal(err)
	}
	code, _, errs = keysRun(t, "verify", "--body", body, "--signature", retired, "--keys-dir", k.Dir())
	if code != exitError || !strings.Contains(errs, "revoked") {
		t.Errorf("revoked key: exit %d, %q", code, errs)
	}
}

func TestVerifyKeysURL(t *testing.T) {
	k, body, _, active := verifyFixture(t)
	const apiKey = "cli-secret-7d3a"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/keys/{kid}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != apiKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error_message":"bad key"}`))
			return
		}
		doc, err := k.Document(r.PathValue("kid"))
		if errors.Is(err, sign.ErrUnknownKey) {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error_message":"not found"}`))
			return
		}
		json.NewEncoder(w).Encode(doc)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	t.Setenv("AMLSCREEN_API_KEY", apiKey)
	code, out, errs := keysRun(t, "verify", "--body", body, "--signature", active, "--keys-url", srv.URL)
	if code != exitOK || !strings.Contains(out, "valid") {
		t.Errorf("verify over HTTP with the API key from the environment: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = keysRun(t, "verify", "--body", body, "--signature", active, "--keys-url", srv.URL+"/v1", "--api-key", "wrong-"+apiKey)
	if code != exitError || !strings.Contains(errs, "401") {
		t.Errorf("wrong API key: exit %d, %q; want exit 1 with the 401", code, errs)
	}
	if strings.Contains(out+errs, apiKey) {
		t.Errorf("the API key appears in the output: %q %q", out, errs)
	}
	code, _, errs = keysRun(t, "verify", "--body", body, "--signature", "v1,kid=k-nope,sig=MEUC", "--keys-url", srv.URL)
	if code != exitError || !strings.Contains(errs, "unknown key") {
		t.Errorf("unknown kid: exit %d, %q", code, errs)
	}
}

func TestVerifyUsageErrors(t *testing.T) {
	k, body, _, active := verifyFixture(t)
	t.Setenv("AMLSCREEN_API_KEY", "")
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"verify", "--signature", active, "--keys-dir", k.Dir()}, "--body"},
		{[]string{"verify", "--body", body, "--keys-dir", k.Dir()}, "--signature"},
		{[]string{"verify", "--body", body, "--signature", active}, "--keys-url"},
		{[]string{"verify", "--body", body, "--signature", active, "--keys-dir", k.Dir(), "--keys-url", "http://x"}, "--keys-url"},
		{[]string{"verify", "--body", body, "--signature", active, "--keys-url", "http://127.0.0.1:1"}, "--api-key"},
		{[]string{"verify", "--body", body, "--signature", active, "--keys-url", "ftp://x", "--api-key", "k"}, "--keys-url"},
		{[]string{"verify", "--body", body, "--signature", active, "--keys-dir", t.TempDir()}, "--keys-dir"},
		{[]string{"verify", "--body", "missing.json", "--signature", active, "--keys-dir", k.Dir()}, "--body"},
	}
	for _, tt := range tests {
		code, _, errs := keysRun(t, tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", tt.args, code, errs, tt.flag)
		}
	}
}
