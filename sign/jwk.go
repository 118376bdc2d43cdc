package sign

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"fmt"
)

// Key statuses of docs/API.md "Keys and signatures".
const (
	StatusActive  = "ACTIVE"  // signs now
	StatusRetired = "RETIRED" // replaced by a rotation; its signatures stay valid
	StatusRevoked = "REVOKED" // must not be trusted
)

// KeyDocument is the body of GET /v1/keys/{kid} (docs/API.md "Keys and signatures").
// NotBefore and NotAfter are RFC 3339 UTC timestamps.
type KeyDocument struct {
	Status    string `json:"status"`
	NotBefore string `json:"not_before"`
	NotAfter  string `json:"not_after"`
	Keys      []JWK  `json:"keys"`
}

// JWK is the public half of a P-256 signing key as a JSON Web Key
// (RFC 7518 §6.2). X and Y are the affine coordinates, each exactly 32 bytes
// (left-padded with zeros) in base64url without padding.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// newJWK describes pub under id kid.
func newJWK(kid string, pub *ecdsa.PublicKey) (JWK, error) {
	// Bytes gives the uncompressed point 0x04||X||Y with fixed-width
	// coordinates, which is exactly the zero-padding JWK asks for.
	b, err := pub.Bytes()
	if err != nil {
		return JWK{}, fmt.Errorf("encode public key %s: %w", kid, err)
	}
	if len(b) != 65 || b[0] != 4 {
		return JWK{}, fmt.Errorf("encode public key %s: not an uncompressed P-256 point", kid)
	}
	return JWK{
		Kty: "EC", Crv: "P-256", Alg: "ES256", Kid: kid,
		X: base64.RawURLEncoding.EncodeToString(b[1:33]),
		Y: base64.RawURLEncoding.EncodeToString(b[33:65]),
	}, nil
}

// PublicKey checks that j is an ES256 key on P-256 and returns it. A point
// not on the curve is an error, so a forged document cannot smuggle in an
// invalid-curve key.
func (j JWK) PublicKey() (*ecdsa.PublicKey, error) {
	if j.Kty != "EC" || j.Crv != "P-256" || j.Alg != "ES256" {
		return nil, fmt.Errorf("key %s: kty %q, crv %q, alg %q: want EC, P-256, ES256", j.Kid, j.Kty, j.Crv, j.Alg)
	}
	x, err := coordinate(j.X)
	if err != nil {
		return nil, fmt.Errorf("key %s: x: %w", j.Kid, err)
	}
	y, err := coordinate(j.Y)
	if err != nil {
		return nil, fmt.Errorf("key %s: y: %w", j.Kid, err)
	}
	point := make([]byte, 0, 65)
	point = append(append(append(point, 4), x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", j.Kid, err)
	}
	return pub, nil
}

func coordinate(s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("not base64url without padding: %w", err)
	}
	if len(b) != 32 {
		return nil, fmt.Errorf("%d bytes, want 32", len(b))
	}
	return b, nil
}

// key checks that d is a document for kid with a known status and returns
// its public key, so that a Verifier trusts nothing it has not checked.
func (d *KeyDocument) key(kid string) (*ecdsa.PublicKey, error) {
	if d == nil {
		return nil, fmt.Errorf("key %s: no key document", kid)
	}
	switch d.Status {
	case StatusActive, StatusRetired, StatusRevoked:
	default:
		return nil, fmt.Errorf("key %s: unknown status %q", kid, d.Status)
	}
	if len(d.Keys) != 1 {
		return nil, fmt.Errorf("key %s: document holds %d keys, want exactly 1", kid, len(d.Keys))
	}
	if d.Keys[0].Kid != kid {
		return nil, fmt.Errorf("key %s: document is for key %q", kid, d.Keys[0].Kid)
	}
	return d.Keys[0].PublicKey()
}
