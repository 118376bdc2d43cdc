// Package tlsconf is the one place amlscreen configures TLS, so that every
// listener and every outgoing connection follows the same rules:
//
//   - serve answers HTTPS with a certificate and key read from files and
//     read again on SIGHUP (Certificate.Reload), without dropping
//     connections: tls.Config.GetCertificate hands each handshake the
//     certificate in force;
//   - TLS 1.2 at least, and on TLS 1.2 only ECDHE suites with AEAD ciphers
//     (AES-GCM, ChaCha20-Poly1305); TLS 1.3 suites are all AEAD;
//   - outgoing connections (sync, serve --upstream, the webhook sender,
//     verify --keys-url, --server) trust the system's CAs plus those of a
//     --ca-bundle PEM file, so a bank's internal PKI works without touching
//     the system store.
package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// MaxPEMBytes bounds a certificate, key or CA bundle file. Real ones are
// kilobytes; the system's whole bundle is about 200 KiB.
const MaxPEMBytes = 4 << 20

// CipherSuites are the TLS 1.2 suites allowed: forward secrecy and AEAD
// only. (Go chooses TLS 1.3 suites itself; all of them are AEAD.)
var CipherSuites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

// Certificate is a server certificate and key read from two PEM files,
// which Reload reads again. Its methods are safe for concurrent use.
type Certificate struct {
	certFile, keyFile string
	cur               atomic.Pointer[tls.Certificate]
}

// LoadCertificate reads the certificate chain in certFile and its private
// key in keyFile.
func LoadCertificate(certFile, keyFile string) (*Certificate, error) {
	c := &Certificate{certFile: certFile, keyFile: keyFile}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	return c, nil
}

// Reload reads both files again. A pair that does not load (a half-written
// renewal, a key that does not match) keeps the certificate in force and
// is returned as the error.
func (c *Certificate) Reload() error {
	certPEM, err := readPEM(c.certFile)
	if err != nil {
		return fmt.Errorf("TLS certificate: %w", err)
	}
	keyPEM, err := readPEM(c.keyFile)
	if err != nil {
		return fmt.Errorf("TLS key: %w", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return fmt.Errorf("TLS certificate %s with key %s: %w", c.certFile, c.keyFile, err)
	}
	c.cur.Store(&pair)
	return nil
}

// GetCertificate returns the certificate in force, for
// tls.Config.GetCertificate.
func (c *Certificate) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.cur.Load(), nil
}

// NotAfter returns when the certificate in force expires.
func (c *Certificate) NotAfter() time.Time {
	if leaf := c.cur.Load().Leaf; leaf != nil {
		return leaf.NotAfter
	}
	return time.Time{}
}

// Server returns the configuration of a listener answering with c: the
// minimum version and suites above, HTTP/2 and HTTP/1.1 offered.
func Server(c *Certificate) *tls.Config {
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		CipherSuites:   CipherSuites,
		GetCertificate: c.GetCertificate,
		NextProtos:     []string{"h2", "http/1.1"},
	}
}

// RootCAs returns the system's CAs plus the certificates of the PEM file
// bundle; nil (the system's alone) when bundle is "". A bundle that holds
// no certificate is an error, not an empty addition: a wrong file would
// otherwise surface only as failed handshakes later.
func RootCAs(bundle string) (*x509.CertPool, error) {
	if bundle == "" {
		return nil, nil
	}
	pemBytes, err := readPEM(bundle)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		// No system store (a scratch container): the bundle alone.
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pemBytes) {
		return nil, fmt.Errorf("%s: no PEM certificate in it (a CA bundle holds -----BEGIN CERTIFICATE----- blocks)", bundle)
	}
	return pool, nil
}

// Client returns the configuration of outgoing connections that trust
// roots (nil: the system's CAs).
func Client(roots *x509.CertPool) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, CipherSuites: CipherSuites, RootCAs: roots}
}

// Transport returns a copy of http.DefaultTransport (proxy from the
// environment, timeouts, HTTP/2) whose connections trust roots.
func Transport(roots *x509.CertPool) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = Client(roots)
	return t
}

// readPEM reads a PEM file of at most MaxPEMBytes.
func readPEM(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxPEMBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > MaxPEMBytes {
		return nil, fmt.Errorf("%s: more than %d bytes; not a PEM certificate or key file", path, MaxPEMBytes)
	}
	if len(b) == 0 {
		return nil, errors.New(path + ": empty")
	}
	return b, nil
}
