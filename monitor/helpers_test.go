package monitor

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

// Versions of the fixtures.
const (
	v0 = "2026-11-01T00:00:00Z~1"
	v1 = "2026-11-02T00:00:00Z~2"
	v2 = "2026-11-03T00:00:00Z~3"
)

// Owners (key ids) and their API keys.
const (
	ownerA = "0123456789abcdef0123456789abcdef"
	ownerB = "fedcba9876543210fedcba9876543210"
	keyA   = "secret-key-a"
	keyB   = "secret-key-b"
)

// newStore returns a store at a temporary path holding testdata/records.jsonl
// as version v0.
func newStore(t testing.TB) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aml.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	importFile(t, db, "testdata/records.jsonl", v0, nil)
	return db, path
}

func importFile(t testing.TB, db *store.Store, name, version string, hook store.Hook) *store.Applied {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := syncer.ImportFile(db, f, version, hook)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func applyFile(t testing.TB, db *store.Store, name, previous, version string, hook store.Hook) *store.Applied {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := syncer.ApplyFile(db, f, previous, version, hook)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func applyDelta(db *store.Store, name, previous, version string, hook store.Hook) (*store.Applied, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return syncer.ApplyFile(db, f, previous, version, hook)
}

func exportAll(db *store.Store, w io.Writer) (string, int, error) {
	return syncer.ExportFile(db, w, syncer.ExportOptions{})
}

func importReader(db *store.Store, r io.Reader, version string, hook store.Hook) error {
	_, err := syncer.ImportFile(db, r, version, hook)
	return err
}

// reg is a registration of the fixtures.
type reg struct {
	owner  string
	params Params
	policy access.Policy
}

func individual(id, names string) Params {
	return Params{ID: id, Kind: query.Individual, Names: names}
}

func entity(id, names string) Params { return Params{ID: id, Kind: query.Entity, Names: names} }

// fixtureProfiles hit and miss the changes of testdata/delta1.jsonl; see
// expectedDelta1.
func fixtureProfiles() []reg {
	fuzzy := individual("p-petrof", "Ivan Petrof")
	fuzzy.Fuzzy = 1
	all := Params{ID: "p-all", Kind: query.Individual, SearchAll: "Olga Moscow"}
	dob := individual("p-gonzalez-dob", "Maria Gonzalez")
	dob.DOB = "02/02/1980"
	return []reg{
		{ownerA, individual("p-ivan", "Ivan Petrov"), access.Policy{}},
		{ownerA, fuzzy, access.Policy{}},
		{ownerA, individual("p-olga", "olga IVANOVA"), access.Policy{}},
		{ownerA, all, access.Policy{}},
		{ownerA, entity("p-acme", "Acme Trading Limited Liability Company"), access.Policy{}},
		{ownerA, entity("p-seastar", "Sea Star"), access.Policy{}},         // a vessel: not an entity check's hit
		{ownerA, dob, access.Policy{}},                                     // dob filter excludes R2
		{ownerA, individual("p-maria", "Maria Gonzalez"), access.Policy{}}, // deleted R2
		{ownerA, individual("p-smith", "John Smith"), access.Policy{}},     // R8 is in an OTHER source
		{ownerB, individual("p-smith", "John Smith"), access.Policy{Sources: access.Sources{IncludeOther: true}}},
		{ownerB, individual("p-ivan", "Ivan Petrov"), access.Policy{Sources: access.Sources{Excluded: []string{"ofac_sdn"}}}},
		{ownerA, individual("p-transient", "Transient Person"), access.Policy{}}, // added and deleted in one set
		{ownerA, individual("p-nobody", "Nobody Known"), access.Policy{}},        // DELETE of an unknown id
	}
}

// want is one expected notification.
type want struct {
	owner, profile, matchType, record string
}

var expectedDelta1 = []want{
	{ownerA, "p-olga", "ADD", "R7"},
	{ownerA, "p-all", "ADD", "R7"},
	{ownerA, "p-ivan", "UPDATE", "R1"},
	{ownerA, "p-petrof", "UPDATE", "R1"},
	{ownerA, "p-acme", "UPDATE", "R4"},
	{ownerA, "p-acme", "UPDATE", "R3"},
	{ownerA, "p-maria", "DELETE", "R2"},
	{ownerB, "p-smith", "ADD", "R8"},
}

func register(t testing.TB, m *Monitor, regs []reg) {
	t.Helper()
	for _, r := range regs {
		if _, _, err := m.Register(r.owner, r.params, r.policy, -1); err != nil {
			t.Fatalf("register %s/%s: %v", r.owner, r.params.ID, err)
		}
	}
}

func newKeyring(t testing.TB) *sign.Keyring {
	t.Helper()
	ring, err := sign.OpenKeyring(filepath.Join(t.TempDir(), "signing"))
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// delivery is one request a receiver got.
type delivery struct {
	body      []byte
	apiKey    string
	signature string
	at        time.Time
}

// receiver is a webhook endpoint on loopback. respond decides the answer
// to the n-th request (from 1); nil answers 200.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []delivery
	respond func(n int, d delivery, w http.ResponseWriter)
	arrived chan struct{}
}

func newReceiver(t testing.TB, respond func(n int, d delivery, w http.ResponseWriter)) *receiver {
	t.Helper()
	rc := &receiver{respond: respond, arrived: make(chan struct{}, 1<<16)}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d := delivery{body: body, apiKey: r.Header.Get("x-api-key"), signature: r.Header.Get(sign.HeaderName), at: time.Now()}
	rc.mu.Lock()
	rc.got = append(rc.got, d)
	n := len(rc.got)
	rc.mu.Unlock()
	select {
	case rc.arrived <- struct{}{}:
	default:
	}
	if rc.respond != nil {
		rc.respond(n, d, w)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

// waitFor waits until the receiver got n requests.
func (rc *receiver) waitFor(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for len(rc.deliveries()) < n {
		select {
		case <-rc.arrived:
		case <-deadline:
			t.Fatalf("receiver got %d requests, want %d within %v", len(rc.deliveries()), n, timeout)
		}
	}
}

func recipientsTo(url string) func(string) (Recipient, error) {
	return func(owner string) (Recipient, error) {
		switch owner {
		case ownerA:
			return Recipient{URL: url, APIKey: keyA}, nil
		case ownerB:
			return Recipient{URL: url, APIKey: keyB}, nil
		}
		return Recipient{}, ErrNoRecipient
	}
}

func parseBody(t testing.TB, b []byte) Body {
	t.Helper()
	var body Body
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
	return body
}

func entityID(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var e struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.ID
}

// verifyAll checks every delivery's signature against the keyring's key
// documents, as a receiver fetching /v1/keys/{kid} would.
func verifyAll(t testing.TB, ring *sign.Keyring, ds []delivery) {
	t.Helper()
	v := sign.NewVerifier(ring.Fetch, 0)
	for _, d := range ds {
		if err := v.Verify(context.Background(), d.body, d.signature); err != nil {
			t.Errorf("signature of %s: %v", d.body, err)
		}
	}
}

// fastSender is a sender over db with test timings.
func fastSender(db *store.Store, ring *sign.Keyring, url string) *Sender {
	return &Sender{
		Store:       SharedStore(db),
		Recipients:  recipientsTo(url),
		Signer:      ring,
		Timeout:     200 * time.Millisecond,
		Concurrency: 4,
		Backoff:     Backoff{Initial: 20 * time.Millisecond, Max: 200 * time.Millisecond},
		Lease:       time.Second,
		Poll:        20 * time.Millisecond,
	}
}

// runSender runs s until stop is called.
func runSender(t testing.TB, s *Sender) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("sender: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}
