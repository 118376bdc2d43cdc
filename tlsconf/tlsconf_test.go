package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/internal/testpki"
)

// tlsServer answers with the request's protocol over real TLS on
// loopback with cert, served as amlscreen serve serves: http.Server.ServeTLS
// with the configuration of Server. It returns the base URL.
func tlsServer(t *testing.T, cert *Certificate) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, r.Proto)
		}),
		TLSConfig: Server(cert),
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		hs.ServeTLS(ln, "", "")
	}()
	t.Cleanup(func() {
		hs.Close()
		<-done
	})
	return "https://" + ln.Addr().String()
}

func TestServerAndClientWithBundle(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "Bank Internal CA")
	certFile, keyFile := ca.Server(t, "screening.bank.internal").Write(t, dir, "server")
	cert, err := LoadCertificate(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	url := tlsServer(t, cert)

	roots, err := RootCAs(ca.WriteBundle(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: Transport(roots)}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("with the bundle: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "HTTP/2.0" {
		t.Errorf("protocol %q, want HTTP/2.0", body)
	}
	if resp.TLS.Version != tls.VersionTLS13 {
		t.Errorf("TLS version %x, want 1.3", resp.TLS.Version)
	}

	// The system's CAs alone do not know the bank's.
	_, err = (&http.Client{Transport: Transport(nil)}).Get(url)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("without the bundle: %v, want an unknown authority error", err)
	}
}

func TestOldProtocolsAndCiphersRefused(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	cert, err := LoadCertificate(ca.Server(t, "s").Write(t, dir, "server"))
	if err != nil {
		t.Fatal(err)
	}
	url := tlsServer(t, cert)
	addr := strings.TrimPrefix(url, "https://")
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	for _, tc := range []struct {
		name string
		cfg  *tls.Config
		ok   bool
	}{
		{"TLS 1.1", &tls.Config{MaxVersion: tls.VersionTLS11, MinVersion: tls.VersionTLS10}, false},
		{"TLS 1.2 CBC only", &tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA}}, false},
		{"TLS 1.2 AES-GCM", &tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}, true},
		{"TLS 1.2 ChaCha20", &tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256}}, true},
		{"TLS 1.3", &tls.Config{MinVersion: tls.VersionTLS13}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.RootCAs = pool
			tc.cfg.ServerName = "localhost"
			conn, err := tls.DialWithDialer(&net.Dialer{}, "tcp", addr, tc.cfg)
			if err == nil {
				conn.Close()
			}
			if (err == nil) != tc.ok {
				t.Errorf("handshake error %v, want success %v", err, tc.ok)
			}
		})
	}
}

func TestReload(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	first := ca.Server(t, "first")
	certFile, keyFile := first.Write(t, dir, "server")
	cert, err := LoadCertificate(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	url := tlsServer(t, cert)
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	served := func() string {
		t.Helper()
		// A new transport each time: a new handshake.
		resp, err := (&http.Client{Transport: Transport(roots)}).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.TLS.PeerCertificates[0].Subject.CommonName
	}
	if got := served(); got != "first" {
		t.Fatalf("serves %q", got)
	}

	// A renewal half written (a key that does not match) keeps the old.
	second := ca.Server(t, "second")
	if err := os.WriteFile(certFile, second.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cert.Reload(); err == nil {
		t.Error("a certificate with another's key reloaded")
	}
	if got := served(); got != "first" {
		t.Errorf("after a failed reload serves %q", got)
	}
	second.Write(t, dir, "server")
	if err := cert.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := served(); got != "second" {
		t.Errorf("after reload serves %q", got)
	}
	if !cert.NotAfter().Equal(second.Cert.NotAfter) {
		t.Errorf("NotAfter %v", cert.NotAfter())
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := write("big.pem", strings.Repeat("A", MaxPEMBytes+1))
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.pem"), "no such file"},
		{"empty", write("empty.pem", ""), "empty"},
		{"no certificate", write("text.pem", "hello\n"), "no PEM certificate"},
		{"too large", big, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RootCAs(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("RootCAs: %v, want %q", err, tc.want)
			}
			if _, err := LoadCertificate(tc.path, tc.path); err == nil {
				t.Error("LoadCertificate accepted it")
			}
		})
	}
	if pool, err := RootCAs(""); pool != nil || err != nil {
		t.Errorf("no bundle: %v, %v", pool, err)
	}
}
