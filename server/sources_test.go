package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sign"
)

func (f *fixture) sources(key, path string) ([]record.Source, answer) {
	f.t.Helper()
	a := f.get(key, path)
	if a.StatusCode != 200 {
		f.t.Fatalf("%s: %d %s", path, a.StatusCode, a.body)
	}
	var out []record.Source
	if err := json.Unmarshal(a.body, &out); err != nil {
		f.t.Fatalf("%s: %v", path, err)
	}
	return out, a
}

// summary renders sources as "id:type:size:included" for comparison.
func summary(srcs []record.Source) string {
	var parts []string
	for _, s := range srcs {
		inc := "-"
		if s.IncludedForAPIKey != nil {
			inc = map[bool]string{true: "in", false: "out"}[*s.IncludedForAPIKey]
		}
		parts = append(parts, s.Source+":"+s.SourceType+":"+itoa(s.Size)+":"+inc)
	}
	return strings.Join(parts, " ")
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestSourceList(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ key, path, want string }{
		{keyBasic, "/v1/getSourceList",
			"catalog_only:sanction:0:in interpol:criminal:2:in ofac_sdn:sanction:4:in pep_de:pep:2:in un_sc:sanction:2:in"},
		{keyBasic, "/v1/getSourceList?scope=all",
			"catalog_only:sanction:0:in interpol:criminal:2:in media_watch:other:2:out ofac_sdn:sanction:4:in pep_de:pep:2:in un_sc:sanction:2:in"},
		{keyBasic, "/v1/getSourceList?scope=mine",
			"catalog_only:sanction:0:in interpol:criminal:2:in ofac_sdn:sanction:4:in pep_de:pep:2:in un_sc:sanction:2:in"},
		{keyFull, "/v1/getSourceList",
			"catalog_only:sanction:0:in interpol:criminal:2:in media_watch:other:2:in ofac_sdn:sanction:4:in pep_de:pep:2:in un_sc:sanction:2:in"},
		{keyPicky, "/v1/getSourceList?scope=all",
			"catalog_only:sanction:0:in interpol:criminal:2:in media_watch:other:2:in ofac_sdn:sanction:4:in pep_de:pep:2:in un_sc:sanction:2:out"},
	}
	for _, c := range cases {
		got, _ := f.sources(c.key, c.path)
		if s := summary(got); s != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.key, c.path, s, c.want)
		}
	}
	all, _ := f.sources(keyBasic, "/v1/getSourceList?scope=all")
	if all[3].Name != "OFAC SDN List" || all[3].IssuerName != "OFAC" || all[3].LastModified != "2026-11-01T00:00:00Z" {
		t.Errorf("catalogue entry not kept: %+v", all[3])
	}
	if all[4].Name != "" || all[4].LastModified != "2026-11-22T10:00:00Z" {
		t.Errorf("derived entry %+v: no name, last_modified the import's time", all[4])
	}

	// A change set brings a new source; its derived entry says when.
	f.clock.Set(time.Date(2026, 11, 23, 8, 30, 0, 0, time.UTC))
	f.applyDelta("delta1.jsonl", "v2")
	f.applyDelta("delta2.jsonl", "v3")
	all, _ = f.sources(keyBasic, "/v1/getSourceList?scope=all")
	if s := summary(all); s != "catalog_only:sanction:0:in interpol:criminal:2:in media_watch:other:2:out ofac_sdn:sanction:3:in pep_de:pep:2:in pep_fr:pep:1:in un_sc:sanction:3:in" {
		t.Errorf("after deltas: %s", s)
	}
	if all[5].LastModified != "2026-11-23T08:30:00Z" {
		t.Errorf("pep_fr last_modified %q", all[5].LastModified)
	}

	// The times are the store's: a restarted server still has them, and
	// a source the deltas left alone keeps its import time.
	f.stop()
	f.clock.Set(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC))
	f.start()
	all, _ = f.sources(keyBasic, "/v1/getSourceList?scope=all")
	if all[4].Source != "pep_de" || all[4].LastModified != "2026-11-22T10:00:00Z" || all[5].LastModified != "2026-11-23T08:30:00Z" {
		t.Errorf("after a restart: pep_de %q, pep_fr %q", all[4].LastModified, all[5].LastModified)
	}
}

// TestSignatures: getSourceList bodies verify with the sign package's
// Verifier over HTTP and with a verifier written here from the JWK alone;
// a RETIRED key still verifies, a REVOKED one does not.
func TestSignatures(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, a := f.sources(keyBasic, "/v1/getSourceList")
	header := a.Header.Get(sign.HeaderName)
	if !strings.HasPrefix(header, "v1,kid=") {
		t.Fatalf("signature header %q", header)
	}
	verifier := sign.NewVerifier(sign.HTTPFetcher(f.ts.URL, keyBasic, nil), time.Nanosecond)
	if err := verifier.Verify(ctx, a.body, header); err != nil {
		t.Fatalf("Verifier: %v", err)
	}
	if err := handVerify(f, a.body, header); err != nil {
		t.Fatalf("independent verification: %v", err)
	}
	tampered := append([]byte(nil), a.body...)
	tampered[len(tampered)-2] ^= 1
	if err := verifier.Verify(ctx, tampered, header); !errors.Is(err, sign.ErrBadSignature) {
		t.Errorf("tampered body: %v", err)
	}
	if handVerify(f, tampered, header) == nil {
		t.Error("independent verifier accepted a tampered body")
	}

	// Rotate: the old key is RETIRED, served under its id and as previous,
	// and its signatures still verify; new bodies carry the new kid.
	oldKid, _, _ := sign.ParseHeader(header)
	newKid, err := f.ring.Rotate(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	doc := keyDoc(t, f, "/v1/keys/"+oldKid)
	if doc.Status != sign.StatusRetired {
		t.Errorf("old key status %s", doc.Status)
	}
	if prev := keyDoc(t, f, "/v1/keys/previous"); prev.Keys[0].Kid != oldKid {
		t.Errorf("previous is %s, want %s", prev.Keys[0].Kid, oldKid)
	}
	if cur := keyDoc(t, f, "/v1/keys/current"); cur.Keys[0].Kid != newKid || cur.Status != sign.StatusActive {
		t.Errorf("current is %s %s, want %s ACTIVE", cur.Keys[0].Kid, cur.Status, newKid)
	}
	if err := verifier.Verify(ctx, a.body, header); err != nil {
		t.Errorf("signature of a RETIRED key: %v", err)
	}
	if err := handVerify(f, a.body, header); err != nil {
		t.Errorf("independent, RETIRED key: %v", err)
	}
	_, a2 := f.sources(keyBasic, "/v1/getSourceList?scope=all")
	h2 := a2.Header.Get(sign.HeaderName)
	if kid, _, _ := sign.ParseHeader(h2); kid != newKid {
		t.Errorf("new body signed by %s, want %s", kid, newKid)
	}
	if err := verifier.Verify(ctx, a2.body, h2); err != nil {
		t.Errorf("new key: %v", err)
	}

	// Revoke the old key: its signatures are refused by both verifiers.
	if err := f.ring.Revoke(oldKid); err != nil {
		t.Fatal(err)
	}
	if err := verifier.Verify(ctx, a.body, header); !errors.Is(err, sign.ErrKeyRevoked) {
		t.Errorf("signature of a REVOKED key: %v", err)
	}
	if err := handVerify(f, a.body, header); err == nil || !strings.Contains(err.Error(), "REVOKED") {
		t.Errorf("independent, REVOKED key: %v", err)
	}
	if err := handVerify(f, a2.body, h2); err != nil {
		t.Errorf("independent, new key: %v", err)
	}
}

func keyDoc(t *testing.T, f *fixture, path string) sign.KeyDocument {
	t.Helper()
	a := f.get(keyBasic, path)
	if a.StatusCode != 200 {
		t.Fatalf("%s: %d %s", path, a.StatusCode, a.body)
	}
	var d sign.KeyDocument
	if err := json.Unmarshal(a.body, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// handVerify follows SERVICE.md §5.2 without the sign package: parse the
// header, fetch the key by kid over HTTP, build the P-256 key from x and
// y, check the DER signature over SHA-256 of the raw body.
func handVerify(f *fixture, body []byte, header string) error {
	var kid, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(part, "=")
		switch {
		case ok && k == "kid":
			kid = v
		case ok && k == "sig":
			sig = v
		}
	}
	der, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return err
	}
	if len(der) < 70 || len(der) > 72 {
		return errors.New("signature is not 70 to 72 bytes")
	}
	a := f.get(keyBasic, "/v1/keys/"+kid)
	if a.StatusCode != 200 {
		return errors.New("key lookup: " + string(a.body))
	}
	var doc struct {
		Status string `json:"status"`
		Keys   []struct {
			Kty, Crv, Alg, Kid, X, Y string
		} `json:"keys"`
	}
	if err := json.Unmarshal(a.body, &doc); err != nil {
		return err
	}
	if doc.Status == "REVOKED" {
		return errors.New("key is REVOKED")
	}
	if len(doc.Keys) != 1 || doc.Keys[0].Kty != "EC" || doc.Keys[0].Crv != "P-256" || doc.Keys[0].Alg != "ES256" || doc.Keys[0].Kid != kid {
		return errors.New("unexpected JWK: " + string(a.body))
	}
	x, err := base64.RawURLEncoding.DecodeString(doc.Keys[0].X)
	if err != nil || len(x) != 32 {
		return errors.New("bad x")
	}
	y, err := base64.RawURLEncoding.DecodeString(doc.Keys[0].Y)
	if err != nil || len(y) != 32 {
		return errors.New("bad y")
	}
	// The uncompressed point 04 || X || Y; parsing checks it is on P-256.
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	if err != nil {
		return errors.New("point not on P-256: " + err.Error())
	}
	h := sha256.Sum256(body)
	if !ecdsa.VerifyASN1(pub, h[:], der) {
		return errors.New("signature does not verify")
	}
	return nil
}
