package service

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/testpki"
)

// syncBuffer is a log sink safe for the service's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// httpsGet asks url with the client key over a new connection that trusts
// roots, and returns the response with its body read.
func httpsGet(t *testing.T, roots *x509.CertPool, url string) (*http.Response, string) {
	t.Helper()
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("x-api-key", clientKey)
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// waitFor polls cond for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 20 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTLS: serve answers HTTPS (HTTP/2) with a certificate of an internal
// CA and picks up a renewed one on reload; a replica syncs from it over
// HTTPS with the CA bundle, and fails clearly without it.
func TestTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("services syncing over TLS")
	}
	dir := t.TempDir()
	ca := testpki.NewCA(t, "Bank Internal CA")
	bundle := ca.WriteBundle(t, dir)
	certFile, keyFile := ca.Server(t, "primary-1").Write(t, dir, "primary")
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)

	db, keys := importedStore(t)
	primary := start(t, Config{Store: db, KeysFile: keys, TLSCert: certFile, TLSKey: keyFile})
	base := "https://" + primary.Addr()
	resp, body := httpsGet(t, roots, base+check)
	if resp.StatusCode != 200 || !strings.Contains(body, `"total_hits"`) {
		t.Fatalf("check over https: %d %s", resp.StatusCode, body)
	}
	if resp.ProtoMajor != 2 {
		t.Errorf("protocol %s, want HTTP/2", resp.Proto)
	}
	if cn := resp.TLS.PeerCertificates[0].Subject.CommonName; cn != "primary-1" {
		t.Errorf("certificate %q", cn)
	}
	// Plain HTTP is not answered with data.
	if code, got := get(primary.Addr(), check); code == 200 {
		t.Errorf("plain http answered 200: %s", got)
	}

	// A replica with the CA bundle syncs over HTTPS.
	replica := start(t, Config{Store: filepath.Join(t.TempDir(), "replica.db"), KeysFile: keys,
		Upstream: base, UpstreamKey: "replica-key", Every: time.Hour, CABundle: bundle})
	waitFor(t, "replica with the CA bundle ready", func() bool {
		code, _ := get(replica.Addr(), "/readyz")
		return code == 200
	})

	// Without it, the sync fails on the unknown authority, and says so.
	var logs syncBuffer
	stranger := start(t, Config{Store: filepath.Join(t.TempDir(), "stranger.db"), KeysFile: keys,
		Upstream: base, UpstreamKey: "replica-key", Every: time.Hour,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	waitFor(t, "replica without the CA bundle reports the failure", func() bool {
		return strings.Contains(logs.String(), "sync failed")
	})
	if !strings.Contains(logs.String(), "certificate signed by unknown authority") {
		t.Errorf("the failure does not name the certificate: %s", logs.String())
	}
	if code, _ := get(stranger.Addr(), "/readyz"); code != 503 {
		t.Errorf("replica without the bundle is ready: %d", code)
	}

	// A renewed certificate is served after a reload, without a restart.
	ca.Server(t, "primary-2").Write(t, dir, "primary")
	if err := primary.ReloadCertificate(); err != nil {
		t.Fatal(err)
	}
	resp, _ = httpsGet(t, roots, base+"/healthz")
	if cn := resp.TLS.PeerCertificates[0].Subject.CommonName; cn != "primary-2" {
		t.Errorf("after reload the certificate is %q", cn)
	}
	stranger.stop(t, context.Background())
	replica.stop(t, context.Background())
	primary.stop(t, context.Background())
}

// TestWebhookOverInternalPKI: with the CA bundle, serve delivers a
// webhook to an HTTPS receiver whose certificate an internal CA issued.
func TestWebhookOverInternalPKI(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "Bank Internal CA")
	leaf := ca.Server(t, "receiver")
	pair, err := tls.X509KeyPair(leaf.CertPEM, leaf.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 4)
	rc := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
	}))
	rc.TLS = &tls.Config{Certificates: []tls.Certificate{pair}}
	rc.StartTLS()
	defer rc.Close()

	db, _ := importedStore(t)
	keys := filepath.Join(dir, "keys.json")
	writeFile(t, keys, `[{"key":"client-key","webhook_url":"`+rc.URL+`/hook"}]`)
	svc := start(t, Config{Store: db, KeysFile: keys, CABundle: ca.WriteBundle(t, dir), Listen: "127.0.0.1:0"})
	if code, body := get(svc.Addr(), "/v1/testWebhookDelivery?profile_id=tls-test"); code != 200 {
		t.Fatalf("testWebhookDelivery: %d %s", code, body)
	}
	select {
	case b := <-got:
		var n struct {
			ProfileID string `json:"profile_id"`
		}
		if err := json.Unmarshal(b, &n); err != nil || n.ProfileID != "tls-test" {
			t.Errorf("notification %s: %v", b, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook delivered over https within 20 s")
	}
	svc.stop(t, context.Background())
}

func TestTLSConfigRefused(t *testing.T) {
	db, keys := importedStore(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		cfg   Config
		field string
	}{
		{Config{Store: db, KeysFile: keys, TLSCert: "cert.pem"}, "TLSKey"},
		{Config{Store: db, KeysFile: keys, TLSKey: "key.pem"}, "TLSCert"},
	} {
		_, err := Open(tt.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("%+v: %v, want a ConfigError of %s", tt.cfg, err, tt.field)
		}
	}
	// Files that do not load fail before the store opens.
	notPEM := filepath.Join(dir, "x.pem")
	writeFile(t, notPEM, "not a certificate")
	for _, cfg := range []Config{
		{Store: db, KeysFile: keys, TLSCert: notPEM, TLSKey: notPEM, Listen: "127.0.0.1:0"},
		{Store: db, KeysFile: keys, TLSCert: filepath.Join(dir, "absent.pem"), TLSKey: notPEM, Listen: "127.0.0.1:0"},
		{Store: db, KeysFile: keys, CABundle: notPEM, Listen: "127.0.0.1:0"},
	} {
		if _, err := Open(cfg); err == nil {
			t.Errorf("%+v opened", cfg)
		}
	}
	svc, err := Open(Config{Store: db, KeysFile: keys, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatalf("the store is not closed after failed opens: %v", err)
	}
	svc.Shutdown(context.Background())
}
