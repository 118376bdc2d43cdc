package monitor_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"

	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/sign"
)

// webhookReceiver is the receiving side of ongoing monitoring, as a client
// of the service (or of amlscreen serve / monitor send) writes it:
//
//  1. read the raw body and keep those bytes: the signature covers them
//     exactly, so never re-serialize before verifying;
//  2. verify x-service-signature with the key of its kid, fetched from
//     GET /v1/keys/{kid} and cached (sign.Verifier does both);
//  3. de-duplicate by event_id: a redelivery after a lost acknowledgement
//     carries the same event_id and the same bytes;
//  4. answer 2xx within 30 s and do slow work afterwards.
type webhookReceiver struct {
	verifier *sign.Verifier
	process  func(monitor.Body)

	mu   sync.Mutex
	seen map[string]bool // a real receiver keeps these in its database
}

func (rc *webhookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 10<<20))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	if err := rc.verifier.Verify(r.Context(), body, r.Header.Get(sign.HeaderName)); err != nil {
		// Untrusted: not processed. A non-2xx answer makes the sender
		// retry, which is right when the key lookup merely failed.
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var n monitor.Body
	if err := json.Unmarshal(body, &n); err != nil || n.EventID == "" {
		http.Error(w, "not a notification", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	dup := rc.seen[n.EventID]
	rc.seen[n.EventID] = true
	rc.mu.Unlock()
	if dup {
		fmt.Println("duplicate", n.EventID, "acknowledged, not processed again")
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusOK)
	// Quick work only: anything slow goes to a queue, since the sender
	// waits at most 30 s for the answer.
	rc.process(n)
}

// Example_receiver verifies and de-duplicates webhooks. The service side
// is played here by a local keyring signing a notification that is then
// delivered twice, as after a lost acknowledgement.
func Example_receiver() {
	dir, _ := os.MkdirTemp("", "receiver-example")
	defer os.RemoveAll(dir)
	ring, _ := sign.OpenKeyring(filepath.Join(dir, "signing-keys"))

	// Against the service or amlscreen serve the fetcher is
	// sign.HTTPFetcher(baseURL, apiKey, nil); amlscreen monitor send
	// signs with the keyring of --signing-keys, whose keys serve
	// publishes at /v1/keys/{kid}.
	rc := &webhookReceiver{
		verifier: sign.NewVerifier(ring.Fetch, 0),
		seen:     map[string]bool{},
		process: func(n monitor.Body) {
			var e struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			}
			json.Unmarshal(n.Entity, &e)
			fmt.Printf("%s %s for profile %s: %s (%s)\n", n.EventID, n.MatchType, n.ProfileID, e.Name, e.ID)
		},
	}
	srv := httptest.NewServer(rc)
	defer srv.Close()

	body := []byte(`{"timestamp":"2026-11-02T04:00:00.000Z","event_id":"6f1c2d8e-9a4b-4c1e-8f3a-2b7d5e9c0a11",` +
		`"profile_id":"customer-42","match_type":"ADD","entity":{"id":"SAMPLE0000000001","name":"John Sample"}}`)
	deliver := func(b []byte) int {
		sig, _ := ring.Sign(body) // always over the body as queued
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(b))
		req.Header.Set(sign.HeaderName, sig)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	fmt.Println(deliver(body))
	fmt.Println(deliver(body)) // a redelivery: same event_id, same bytes
	tampered := bytes.Replace(body, []byte("customer-42"), []byte("customer-43"), 1)
	fmt.Println(deliver(tampered))
	// Output:
	// 6f1c2d8e-9a4b-4c1e-8f3a-2b7d5e9c0a11 ADD for profile customer-42: John Sample (SAMPLE0000000001)
	// 200
	// duplicate 6f1c2d8e-9a4b-4c1e-8f3a-2b7d5e9c0a11 acknowledged, not processed again
	// 200
	// 401
}
