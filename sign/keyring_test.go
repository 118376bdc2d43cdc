package sign

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var testBody = []byte(`{"sources":[{"source_id":"eu_fsf","name":"EU – Financial Sanctions"}]}`)

func newKeyring(t *testing.T) *Keyring {
	t.Helper()
	k, err := OpenKeyring(filepath.Join(t.TempDir(), "keys"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustSign(t *testing.T, k *Keyring, body []byte) string {
	t.Helper()
	h, err := k.Sign(body)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustRotate(t *testing.T, k *Keyring, now time.Time) string {
	t.Helper()
	kid, err := k.Rotate(now)
	if err != nil {
		t.Fatal(err)
	}
	return kid
}

func currentKid(t *testing.T, k *Keyring) string {
	t.Helper()
	d, err := k.Document(AliasCurrent)
	if err != nil {
		t.Fatal(err)
	}
	return d.Keys[0].Kid
}

func TestOpenKeyringCreatesFirstActiveKey(t *testing.T) {
	k := newKeyring(t)
	keys, err := k.Keys()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0].Status != StatusActive || !keys[0].Current || keys[0].Previous {
		t.Fatalf("new keyring lists %+v; want one current ACTIVE key", keys)
	}
	if !regexp.MustCompile(`^k-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{12}$`).MatchString(keys[0].Kid) {
		t.Errorf("kid %q does not have the k-<time>-<hex> shape", keys[0].Kid)
	}
	if got := keys[0].NotAfter.Sub(keys[0].NotBefore); got != PlannedLifetime {
		t.Errorf("planned lifetime %v, want %v", got, PlannedLifetime)
	}
	// Opening again finds the same key instead of making another.
	k2, err := OpenKeyring(k.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if got := currentKid(t, k2); got != keys[0].Kid {
		t.Errorf("reopened keyring has current %s, want %s", got, keys[0].Kid)
	}
}

func TestSignVerifyRoundTrip(t *testing.T) {
	k := newKeyring(t)
	h := mustSign(t, k, testBody)
	if !strings.HasPrefix(h, "v1,kid="+currentKid(t, k)+",sig=") {
		t.Fatalf("header %q", h)
	}
	v := NewVerifier(k.Fetch, time.Minute)
	if err := v.Verify(context.Background(), testBody, h); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	// The empty body is a body too.
	if err := v.Verify(context.Background(), nil, mustSign(t, k, nil)); err != nil {
		t.Fatalf("Verify empty body: %v", err)
	}
}

// TestSignatureVerifiesIndependently checks a signature the way a client
// in another language would: split the header by hand, take x and y of the
// JWK as big-endian integers, and check the DER signature with crypto/ecdsa,
// sharing no code with the package's own verifier.
func TestSignatureVerifiesIndependently(t *testing.T) {
	k := newKeyring(t)
	h := mustSign(t, k, testBody)

	var kid, sig string
	for _, p := range strings.Split(h, ",") {
		if v, ok := strings.CutPrefix(p, "kid="); ok {
			kid = v
		}
		if v, ok := strings.CutPrefix(p, "sig="); ok {
			sig = v
		}
	}
	doc, err := k.Document(kid)
	if err != nil {
		t.Fatal(err)
	}
	// Through JSON, as a client receives it.
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Status string `json:"status"`
		Keys   []struct {
			Kty, Crv, Alg, Kid, X, Y string
		} `json:"keys"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		t.Fatal(err)
	}
	if wire.Status != "ACTIVE" || len(wire.Keys) != 1 {
		t.Fatalf("document %s", raw)
	}
	j := wire.Keys[0]
	if j.Kty != "EC" || j.Crv != "P-256" || j.Alg != "ES256" || j.Kid != kid {
		t.Fatalf("JWK %+v", j)
	}
	x, errX := base64.RawURLEncoding.DecodeString(j.X)
	y, errY := base64.RawURLEncoding.DecodeString(j.Y)
	if errX != nil || errY != nil || len(x) != 32 || len(y) != 32 {
		t.Fatalf("x %q y %q: want 32 bytes each in base64url without padding (%v %v)", j.X, j.Y, errX, errY)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	if err != nil {
		t.Fatalf("JWK point: %v", err)
	}
	der, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256(testBody)
	if !ecdsa.VerifyASN1(pub, digest[:], der) {
		t.Fatal("ecdsa.VerifyASN1 rejects the signature")
	}
	// And once more from r and s read out of the DER SEQUENCE.
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) != 0 {
		t.Fatalf("signature is not one DER SEQUENCE of two INTEGERs: %v, %d trailing bytes", err, len(rest))
	}
	if !ecdsa.Verify(pub, digest[:], rs.R, rs.S) {
		t.Fatal("ecdsa.Verify(r, s) rejects the signature")
	}
}

func TestKeyDocumentJSONFields(t *testing.T) {
	k := newKeyring(t)
	doc, err := k.Document(AliasCurrent)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(doc)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(mapKeys(m)); !slices.Equal(got, []string{"keys", "not_after", "not_before", "status"}) {
		t.Errorf("document fields %v", got)
	}
	var jwks []map[string]string
	if err := json.Unmarshal(m["keys"], &jwks); err != nil || len(jwks) != 1 {
		t.Fatalf("keys %s: %v", m["keys"], err)
	}
	if got := slices.Sorted(mapKeys(jwks[0])); !slices.Equal(got, []string{"alg", "crv", "kid", "kty", "x", "y"}) {
		t.Errorf("JWK fields %v", got)
	}
	for _, ts := range []string{doc.NotBefore, doc.NotAfter} {
		if tm, err := time.Parse(time.RFC3339, ts); err != nil || !strings.HasSuffix(ts, "Z") || tm.Location() != time.UTC {
			t.Errorf("timestamp %q is not RFC 3339 UTC", ts)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestTamperedBodyRejected(t *testing.T) {
	k := newKeyring(t)
	h := mustSign(t, k, testBody)
	other := mustSign(t, k, []byte("another body"))
	var reindented bytes.Buffer
	if err := json.Indent(&reindented, testBody, "", " "); err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(testBody)
	flipped[10] ^= 1
	tests := []struct {
		name   string
		body   []byte
		header string
	}{
		{"one bit flipped", flipped, h},
		{"trailing newline", append(bytes.Clone(testBody), '\n'), h},
		{"re-serialized JSON", reindented.Bytes(), h},
		{"truncated", testBody[:len(testBody)-1], h},
		{"signature of another body", testBody, other},
	}
	v := NewVerifier(k.Fetch, time.Minute)
	for _, tt := range tests {
		if err := v.Verify(context.Background(), tt.body, tt.header); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s: Verify = %v, want ErrBadSignature", tt.name, err)
		}
	}
	// A corrupted signature is refused too, whether it still decodes or not.
	kid, sig, _ := ParseHeader(h)
	der, _ := base64.RawURLEncoding.DecodeString(sig)
	der[len(der)-1] ^= 0x40
	if err := v.Verify(context.Background(), testBody, FormatHeader(kid, der)); !errors.Is(err, ErrBadSignature) {
		t.Errorf("corrupted DER: Verify = %v, want ErrBadSignature", err)
	}
	if err := v.Verify(context.Background(), testBody, "v1,kid="+kid+",sig="+sig+"=="); !errors.Is(err, ErrMalformedHeader) {
		t.Errorf("padded sig: Verify = %v, want ErrMalformedHeader", err)
	}
}

func TestRotatedKeyStillAccepted(t *testing.T) {
	k := newKeyring(t)
	first := currentKid(t, k)
	h1 := mustSign(t, k, testBody)
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	second := mustRotate(t, k, at)
	h2 := mustSign(t, k, testBody)
	if second == first || !strings.Contains(h2, "kid="+second+",") {
		t.Fatalf("after rotation signs with %q; want new key %s", h2, second)
	}
	v := NewVerifier(k.Fetch, time.Minute)
	for _, h := range []string{h1, h2} {
		if err := v.Verify(context.Background(), testBody, h); err != nil {
			t.Errorf("Verify(%s): %v", h, err)
		}
	}
	old, err := k.Document(first)
	if err != nil {
		t.Fatal(err)
	}
	if old.Status != StatusRetired || old.NotAfter != at.Format(time.RFC3339) {
		t.Errorf("old key document %+v; want RETIRED with not_after %s", old, at.Format(time.RFC3339))
	}
	cur, _ := k.Document(second)
	if cur.Status != StatusActive || cur.NotBefore != at.Format(time.RFC3339) {
		t.Errorf("new key document %+v; want ACTIVE from %s", cur, at.Format(time.RFC3339))
	}
	// A rotation dated before the current key began is a clock problem.
	if _, err := k.Rotate(at.Add(-time.Minute)); err == nil || !strings.Contains(err.Error(), "before not_before") {
		t.Errorf("Rotate into the past = %v; want an error", err)
	}
}

func TestAliases(t *testing.T) {
	k := newKeyring(t)
	first := currentKid(t, k)
	if _, err := k.Document(AliasPrevious); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("previous before any rotation: %v, want ErrUnknownKey", err)
	}
	second := mustRotate(t, k, time.Now())
	third := mustRotate(t, k, time.Now())
	for alias, want := range map[string]string{AliasCurrent: third, AliasPrevious: second} {
		d, err := k.Document(alias)
		if err != nil || d.Keys[0].Kid != want {
			t.Errorf("Document(%q) = %+v, %v; want key %s", alias, d, err, want)
		}
	}
	keys, _ := k.Keys()
	var got []string
	for _, ki := range keys {
		mark := ""
		if ki.Current {
			mark = "*"
		}
		if ki.Previous {
			mark = "^"
		}
		got = append(got, ki.Kid+":"+ki.Status+mark)
	}
	want := []string{first + ":RETIRED", second + ":RETIRED^", third + ":ACTIVE*"}
	if !slices.Equal(got, want) {
		t.Errorf("Keys = %v, want %v", got, want)
	}
}

func TestDocumentErrors(t *testing.T) {
	k := newKeyring(t)
	tests := []struct {
		kid  string
		want error
	}{
		{"", ErrInvalidKeyID},
		{"a/b", ErrInvalidKeyID},
		{"../keyring.json", ErrInvalidKeyID},
		{"k 1", ErrInvalidKeyID},
		{"k%2F1", ErrInvalidKeyID},
		{"ключ", ErrInvalidKeyID},
		{"k-1\n", ErrInvalidKeyID},
		{"k-unknown", ErrUnknownKey},
		{"A.b_c:d-9", ErrUnknownKey},
		{"..", ErrUnknownKey},
		{"Current", ErrUnknownKey},
	}
	for _, tt := range tests {
		if _, err := k.Document(tt.kid); !errors.Is(err, tt.want) {
			t.Errorf("Document(%q) = %v, want %v", tt.kid, err, tt.want)
		}
	}
}

func TestValidKeyID(t *testing.T) {
	for kid, want := range map[string]bool{
		"k-2026-11-22T21-50-00Z-0a1b2c": true, "A.b_c:d-9": true, "current": true, ".": true,
		"": false, "a b": false, "a/b": false, "a,b": false, "a=b": false, "é": false, "a%20": false, "a\x00": false,
	} {
		if got := ValidKeyID(kid); got != want {
			t.Errorf("ValidKeyID(%q) = %v, want %v", kid, got, want)
		}
	}
}

func TestRevoke(t *testing.T) {
	k := newKeyring(t)
	first := currentKid(t, k)
	h1 := mustSign(t, k, testBody)

	if err := k.Revoke(first); !errors.Is(err, ErrRevokeCurrent) || !strings.Contains(err.Error(), "rotate first") {
		t.Fatalf("Revoke(current key) = %v; want ErrRevokeCurrent saying to rotate first", err)
	}
	if err := k.Revoke(AliasCurrent); !errors.Is(err, ErrRevokeCurrent) {
		t.Fatalf("Revoke(\"current\") = %v; want ErrRevokeCurrent", err)
	}
	if err := k.Revoke("k-unknown"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("Revoke(unknown) = %v; want ErrUnknownKey", err)
	}
	if err := k.Revoke("a/b"); !errors.Is(err, ErrInvalidKeyID) {
		t.Errorf("Revoke(a/b) = %v; want ErrInvalidKeyID", err)
	}

	// A verifier that has the key cached and a fresh one.
	clock := time.Now()
	cached := NewVerifier(k.Fetch, time.Hour)
	cached.now = func() time.Time { return clock }
	if err := cached.Verify(context.Background(), testBody, h1); err != nil {
		t.Fatal(err)
	}

	mustRotate(t, k, time.Now())
	if err := k.Revoke(AliasPrevious); err != nil {
		t.Fatalf("Revoke(previous): %v", err)
	}
	if err := k.Revoke(first); err != nil {
		t.Errorf("revoking twice: %v; want no error", err)
	}
	if d, _ := k.Document(first); d.Status != StatusRevoked {
		t.Fatalf("status after Revoke = %s", d.Status)
	}
	if err := NewVerifier(k.Fetch, time.Hour).Verify(context.Background(), testBody, h1); !errors.Is(err, ErrKeyRevoked) {
		t.Errorf("fresh verifier: %v; want ErrKeyRevoked", err)
	}
	// Within the refresh period the cached status stands; after it the
	// revocation is seen.
	clock = clock.Add(59 * time.Minute)
	if err := cached.Verify(context.Background(), testBody, h1); err != nil {
		t.Errorf("cached verifier within refresh: %v; want the cached ACTIVE status", err)
	}
	clock = clock.Add(2 * time.Minute)
	if err := cached.Verify(context.Background(), testBody, h1); !errors.Is(err, ErrKeyRevoked) {
		t.Errorf("cached verifier after refresh: %v; want ErrKeyRevoked", err)
	}
	// Signing goes on with the new key.
	if err := NewVerifier(k.Fetch, time.Hour).Verify(context.Background(), testBody, mustSign(t, k, testBody)); err != nil {
		t.Errorf("signature of the new key: %v", err)
	}
}

func TestDERLength(t *testing.T) {
	k := newKeyring(t)
	n := 500
	if testing.Short() {
		n = 100
	}
	lengths := map[int]int{}
	for i := range n {
		body := []byte{byte(i), byte(i >> 8)}
		_, sig, err := ParseHeader(mustSign(t, k, body))
		if err != nil {
			t.Fatal(err)
		}
		der, err := base64.RawURLEncoding.DecodeString(sig)
		if err != nil {
			t.Fatal(err)
		}
		if len(der) < 70 || len(der) > 72 {
			t.Fatalf("signature %d is %d bytes, want 70 to 72", i, len(der))
		}
		lengths[len(der)]++
	}
	t.Logf("DER lengths over %d signatures: %v", n, lengths)
}

func TestFileModes(t *testing.T) {
	k := newKeyring(t)
	mustRotate(t, k, time.Now())
	fi, err := os.Stat(k.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("keyring directory mode %v, want 0700", fi.Mode().Perm())
	}
	entries, err := os.ReadDir(k.Dir())
	if err != nil {
		t.Fatal(err)
	}
	pems := 0
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(e.Name(), ".pem"):
			pems++
			if info.Mode().Perm() != 0o600 {
				t.Errorf("%s mode %v, want 0600", e.Name(), info.Mode().Perm())
			}
			data, _ := os.ReadFile(filepath.Join(k.Dir(), e.Name()))
			if !bytes.HasPrefix(data, []byte("-----BEGIN PRIVATE KEY-----\n")) {
				t.Errorf("%s is not a PKCS#8 PEM file", e.Name())
			}
		case e.Name() == IndexName:
			if info.Mode().Perm() != 0o644 {
				t.Errorf("%s mode %v, want 0644", e.Name(), info.Mode().Perm())
			}
		case e.Name() == ".lock":
		default:
			t.Errorf("unexpected file %s left in the keyring", e.Name())
		}
	}
	if pems != 2 {
		t.Errorf("%d key files, want 2", pems)
	}
}

// TestOtherProcessChanges plays the server and `amlscreen keys rotate` as
// two Keyrings on one directory: the server must sign with the new key and
// serve the new status without a restart.
func TestOtherProcessChanges(t *testing.T) {
	server := newKeyring(t)
	first := currentKid(t, server)
	cli, err := LoadKeyring(server.Dir())
	if err != nil {
		t.Fatal(err)
	}
	second := mustRotate(t, cli, time.Now())
	if h := mustSign(t, server, testBody); !strings.Contains(h, "kid="+second+",") {
		t.Errorf("server signs with %q after rotation elsewhere; want %s", h, second)
	}
	if err := cli.Revoke(first); err != nil {
		t.Fatal(err)
	}
	if d, err := server.Document(first); err != nil || d.Status != StatusRevoked {
		t.Errorf("server sees %+v, %v; want REVOKED", d, err)
	}
	// The stale view of the writer is refreshed before it changes anything,
	// so rotating from the server's Keyring keeps the revocation.
	third := mustRotate(t, server, time.Now())
	if d, _ := cli.Document(first); d.Status != StatusRevoked {
		t.Errorf("revocation lost by a later rotation: %s", d.Status)
	}
	if got := currentKid(t, cli); got != third {
		t.Errorf("cli sees current %s, want %s", got, third)
	}
}

func TestConcurrentSignAndRotate(t *testing.T) {
	k := newKeyring(t)
	v := NewVerifier(k.Fetch, time.Hour)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				body := []byte{byte(g), byte(i)}
				h, err := k.Sign(body)
				if err == nil {
					err = v.Verify(context.Background(), body, h)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 5 {
		if _, err := k.Rotate(time.Now()); err != nil {
			errs <- err
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if keys, _ := k.Keys(); len(keys) != 6 {
		t.Errorf("%d keys after 5 rotations, want 6", len(keys))
	}
}

func TestOpenAndLoadErrors(t *testing.T) {
	t.Run("load without keyring", func(t *testing.T) {
		if _, err := LoadKeyring(t.TempDir()); !errors.Is(err, ErrNoKeyring) {
			t.Errorf("LoadKeyring(empty) = %v; want ErrNoKeyring", err)
		}
	})
	t.Run("foreign files", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
		if _, err := OpenKeyring(dir); err == nil || !strings.Contains(err.Error(), "notes.txt") {
			t.Errorf("OpenKeyring(dir with other files) = %v; want a refusal naming the file", err)
		}
		if _, err := os.Stat(filepath.Join(dir, IndexName)); err == nil {
			t.Error("a keyring was created among foreign files")
		}
	})
	t.Run("leftovers of a crash", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, ".tmp-123"), []byte("half"), 0o600)
		os.WriteFile(filepath.Join(dir, "k-2026-01-01T00-00-00Z-000000000000.pem"), []byte("orphan"), 0o600)
		k, err := OpenKeyring(dir)
		if err != nil {
			t.Fatalf("OpenKeyring after a crash: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, ".tmp-123")); !errors.Is(err, os.ErrNotExist) {
			t.Error("stale temporary file not removed")
		}
		mustSign(t, k, testBody)
	})
	corrupt := []struct {
		name   string
		mangle func(dir string, ix map[string]any)
		want   string
	}{
		{"truncated index", func(dir string, _ map[string]any) {
			os.WriteFile(filepath.Join(dir, IndexName), []byte(`{"format":1,"cur`), 0o644)
		}, "unexpected end"},
		{"missing key file", func(dir string, ix map[string]any) {
			os.Remove(filepath.Join(dir, ix["current"].(string)+".pem"))
		}, "no such file"},
		{"garbage key file", func(dir string, ix map[string]any) {
			os.WriteFile(filepath.Join(dir, ix["current"].(string)+".pem"), []byte("not pem"), 0o600)
		}, "PEM"},
		{"newer format", func(dir string, ix map[string]any) {
			ix["format"] = 2
			writeJSON(dir, ix)
		}, "format 2"},
		{"path in kid", func(dir string, ix map[string]any) {
			ix["keys"].([]any)[0].(map[string]any)["kid"] = "../../etc/x"
			writeJSON(dir, ix)
		}, "invalid key id"},
		{"two active keys", func(dir string, ix map[string]any) {
			ix["current"] = "other"
			writeJSON(dir, ix)
		}, "ACTIVE"},
	}
	for _, tt := range corrupt {
		t.Run(tt.name, func(t *testing.T) {
			k := newKeyring(t)
			var ix map[string]any
			data, _ := os.ReadFile(filepath.Join(k.Dir(), IndexName))
			json.Unmarshal(data, &ix)
			tt.mangle(k.Dir(), ix)
			if _, err := OpenKeyring(k.Dir()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("OpenKeyring = %v; want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func writeJSON(dir string, v any) {
	data, _ := json.Marshal(v)
	os.WriteFile(filepath.Join(dir, IndexName), data, 0o644)
}

// TestFixtureKeyring verifies signatures made by an earlier build against
// the keyring it left on disk, pinning the layout and the signature format.
func TestFixtureKeyring(t *testing.T) {
	k, err := LoadKeyring("testdata/keyring")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile("testdata/body.json")
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(k.Fetch, time.Hour)
	for file, want := range map[string]error{
		"sig-active.txt": nil, "sig-retired.txt": nil, "sig-revoked.txt": ErrKeyRevoked,
	} {
		h, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Verify(context.Background(), body, strings.TrimSpace(string(h))); !errors.Is(err, want) {
			t.Errorf("%s: Verify = %v, want %v", file, err, want)
		}
		if want == nil {
			if err := v.Verify(context.Background(), append(body, '\n'), strings.TrimSpace(string(h))); !errors.Is(err, ErrBadSignature) {
				t.Errorf("%s with a changed body: Verify = %v, want ErrBadSignature", file, err)
			}
		}
	}
}

// BenchmarkSign measures what a signed response costs the server: the stat
// of the index and one ES256 signature.
func BenchmarkSign(b *testing.B) {
	k, err := OpenKeyring(filepath.Join(b.TempDir(), "keys"))
	if err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat(testBody, 100)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := k.Sign(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyCached(b *testing.B) {
	k, err := OpenKeyring(filepath.Join(b.TempDir(), "keys"))
	if err != nil {
		b.Fatal(err)
	}
	h, _ := k.Sign(testBody)
	v := NewVerifier(k.Fetch, time.Hour)
	for b.Loop() {
		if err := v.Verify(context.Background(), testBody, h); err != nil {
			b.Fatal(err)
		}
	}
}
