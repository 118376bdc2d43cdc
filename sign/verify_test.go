package sign

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testAPIKey = "test-api-key-5f1e"

// keyServer serves GET /v1/keys/{kid} from k over real HTTP on loopback,
// answering errors as the /v1 API does, and counts the lookups.
func keyServer(t *testing.T, k *Keyring) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/keys/{kid}", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("x-api-key") != testAPIKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error_message":"invalid API key"}`))
			return
		}
		doc, err := k.Document(r.PathValue("kid"))
		switch {
		case errors.Is(err, ErrInvalidKeyID):
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error_message":"invalid key id"}`))
		case errors.Is(err, ErrUnknownKey):
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error_message":"key not found"}`))
		case err != nil:
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error_message":"internal error"}`))
		default:
			json.NewEncoder(w).Encode(doc)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestHTTPFetcherVerifies(t *testing.T) {
	k := newKeyring(t)
	srv, hits := keyServer(t, k)
	h1 := mustSign(t, k, testBody)
	mustRotate(t, k, time.Now())
	h2 := mustSign(t, k, testBody)

	v := NewVerifier(HTTPFetcher(srv.URL, testAPIKey, srv.Client()), time.Hour)
	for _, h := range []string{h1, h2, h1, h2} {
		if err := v.Verify(context.Background(), testBody, h); err != nil {
			t.Fatalf("Verify over HTTP: %v", err)
		}
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("%d key lookups for 2 keys verified twice each; want 2 (cache by id)", n)
	}
	if err := v.Verify(context.Background(), []byte("tampered"), h1); !errors.Is(err, ErrBadSignature) {
		t.Errorf("tampered body over HTTP: %v", err)
	}

	first, _, _ := ParseHeader(h1)
	if err := k.Revoke(first); err != nil {
		t.Fatal(err)
	}
	if err := NewVerifier(HTTPFetcher(srv.URL, testAPIKey, nil), time.Hour).Verify(context.Background(), testBody, h1); !errors.Is(err, ErrKeyRevoked) {
		t.Errorf("revoked key over HTTP: %v; want ErrKeyRevoked", err)
	}
}

func TestHTTPFetcherErrors(t *testing.T) {
	k := newKeyring(t)
	srv, _ := keyServer(t, k)
	ctx := context.Background()
	kid := currentKid(t, k)

	// The base URL may be given with or without /v1.
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/keys/"} {
		if d, err := HTTPFetcher(base, testAPIKey, nil)(ctx, kid); err != nil || d.Keys[0].Kid != kid {
			t.Errorf("base %q: %+v, %v", base, d, err)
		}
	}
	fetch := HTTPFetcher(srv.URL, testAPIKey, nil)
	if _, err := fetch(ctx, "k-unknown"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("unknown kid: %v; want ErrUnknownKey", err)
	}
	if _, err := fetch(ctx, "a b"); !errors.Is(err, ErrInvalidKeyID) {
		t.Errorf("kid with a space: %v; want ErrInvalidKeyID without asking", err)
	}
	if _, err := fetch(ctx, ".."); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("kid \"..\": %v; want ErrUnknownKey", err)
	}
	_, err := HTTPFetcher(srv.URL, "wrong-key-do-not-print", nil)(ctx, kid)
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "invalid API key") {
		t.Errorf("wrong API key: %v; want the 401 and its error_message", err)
	}
	if err != nil && strings.Contains(err.Error(), "wrong-key-do-not-print") {
		t.Errorf("error %q shows the API key", err)
	}
	srv.Close()
	if _, err := fetch(ctx, kid); err == nil {
		t.Error("fetch from a closed server succeeded")
	}
}

// TestVerifierRefusesBadDocuments feeds the verifier documents a hostile or
// broken key service might send.
func TestVerifierRefusesBadDocuments(t *testing.T) {
	k := newKeyring(t)
	h := mustSign(t, k, testBody)
	kid, _, _ := ParseHeader(h)
	good, err := k.Document(kid)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	otherJWK, _ := newJWK(kid, &other.PublicKey)
	edit := func(f func(d *KeyDocument)) *KeyDocument {
		d := *good
		d.Keys = append([]JWK(nil), good.Keys...)
		f(&d)
		return &d
	}
	tests := []struct {
		name string
		doc  *KeyDocument
		want string
	}{
		{"nil", nil, "no key document"},
		{"no keys", edit(func(d *KeyDocument) { d.Keys = nil }), "0 keys"},
		{"two keys", edit(func(d *KeyDocument) { d.Keys = append(d.Keys, d.Keys[0]) }), "2 keys"},
		{"other kid", edit(func(d *KeyDocument) { d.Keys[0].Kid = "k-other" }), "for key"},
		{"unknown status", edit(func(d *KeyDocument) { d.Status = "SUSPENDED" }), "unknown status"},
		{"RSA", edit(func(d *KeyDocument) { d.Keys[0].Kty = "RSA" }), "kty"},
		{"other curve", edit(func(d *KeyDocument) { d.Keys[0].Crv = "P-384" }), "crv"},
		{"short x", edit(func(d *KeyDocument) { d.Keys[0].X = d.Keys[0].X[:40] }), "x:"},
		{"padded y", edit(func(d *KeyDocument) { d.Keys[0].Y += "=" }), "y:"},
		{"point off the curve", edit(func(d *KeyDocument) {
			d.Keys[0].Y = base64.RawURLEncoding.EncodeToString(make([]byte, 32))
		}), "not on curve"},
		{"another key's material", edit(func(d *KeyDocument) { d.Keys[0] = otherJWK }), "signature does not match"},
	}
	for _, tt := range tests {
		fetch := func(context.Context, string) (*KeyDocument, error) { return tt.doc, nil }
		err := NewVerifier(fetch, time.Hour).Verify(context.Background(), testBody, h)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Verify = %v; want an error mentioning %q", tt.name, err, tt.want)
		}
	}
}

func TestVerifierKeyMaterialNeverChanges(t *testing.T) {
	k := newKeyring(t)
	h := mustSign(t, k, testBody)
	kid, _, _ := ParseHeader(h)
	good, _ := k.Document(kid)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	swapped := *good
	swapped.Keys = []JWK{{}}
	swapped.Keys[0], _ = newJWK(kid, &other.PublicKey)

	doc := good
	clock := time.Now()
	v := NewVerifier(func(context.Context, string) (*KeyDocument, error) { return doc, nil }, time.Minute)
	v.now = func() time.Time { return clock }
	if err := v.Verify(context.Background(), testBody, h); err != nil {
		t.Fatal(err)
	}
	doc, clock = &swapped, clock.Add(2*time.Minute)
	if err := v.Verify(context.Background(), testBody, h); !errors.Is(err, ErrKeyChanged) {
		t.Errorf("Verify after the key service changed the key: %v; want ErrKeyChanged", err)
	}
}

func TestVerifierHeaderChecksBeforeLookup(t *testing.T) {
	var lookups atomic.Int32
	fetch := func(context.Context, string) (*KeyDocument, error) {
		lookups.Add(1)
		return nil, errors.New("should not be asked")
	}
	v := NewVerifier(fetch, 0)
	tests := []struct {
		header string
		want   error
	}{
		{"v1,kid=current,sig=MEUC", ErrMalformedHeader},
		{"v1,kid=previous,sig=MEUC", ErrMalformedHeader},
		{"v1,kid=a/b,sig=MEUC", ErrInvalidKeyID},
		{"v1,kid=k-1,sig=not*base64", ErrMalformedHeader},
		{"kid=k-1,sig=MEUC", ErrMalformedHeader},
		{"", ErrMalformedHeader},
	}
	for _, tt := range tests {
		if err := v.Verify(context.Background(), testBody, tt.header); !errors.Is(err, tt.want) {
			t.Errorf("Verify(%q) = %v, want %v", tt.header, err, tt.want)
		}
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d key lookups for headers that are refused anyway", n)
	}
	// A failing lookup fails the verification: an unconfirmed key is not trusted.
	if err := v.Verify(context.Background(), testBody, "v1,kid=k-1,sig=MEUC"); err == nil || !strings.Contains(err.Error(), "should not be asked") {
		t.Errorf("Verify with a failing fetcher = %v", err)
	}
}
