package monitor

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/testpki"
)

// TestSenderTrustsRootCAs: a receiver on HTTPS with a certificate of an
// internal CA gets nothing from a sender that trusts the system's CAs
// alone (each attempt fails on the certificate), and its notification
// once the sender trusts that CA.
func TestSenderTrustsRootCAs(t *testing.T) {
	ca := testpki.NewCA(t, "Bank Internal CA")
	leaf := ca.Server(t, "receiver")
	pair, err := tls.X509KeyPair(leaf.CertPEM, leaf.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, nil)
	rc.Close() // restarted below over TLS
	rc.Server = httptest.NewUnstartedServer(http.HandlerFunc(rc.serve))
	rc.TLS = &tls.Config{Certificates: []tls.Certificate{pair}}
	rc.StartTLS()
	t.Cleanup(rc.Close)

	db, _ := newStore(t)
	ring := newKeyring(t)
	queueOne(t, db)

	stranger := fastSender(db, ring, rc.URL)
	// Room for a slow handshake (-race on a busy machine): the failure
	// must be the certificate's, not a timeout.
	stranger.Timeout, stranger.Lease = 5*time.Second, 15*time.Second
	var mu sync.Mutex
	var failures []error
	stranger.OnAttempt = func(a Attempt) {
		mu.Lock()
		defer mu.Unlock()
		if a.Err != nil {
			failures = append(failures, a.Err)
		}
	}
	stop := runSender(t, stranger)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(failures)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	mu.Lock()
	if len(failures) == 0 {
		t.Fatal("no failed attempt without the CA")
	}
	var unknown x509.UnknownAuthorityError
	if !errors.As(failures[0], &unknown) {
		t.Errorf("failure %v, want an unknown authority", failures[0])
	}
	mu.Unlock()
	if n := len(rc.deliveries()); n != 0 {
		t.Fatalf("%d deliveries without trusting the CA", n)
	}

	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	trusting := fastSender(db, ring, rc.URL)
	trusting.RootCAs = roots
	stop = runSender(t, trusting)
	rc.waitFor(t, 1, 5*time.Second)
	waitEmpty(t, db, 5*time.Second)
	stop()
	verifyAll(t, ring, rc.deliveries())
}
