// Package sign makes and checks the body signatures of the /v1 API
// (docs/API.md "Keys and signatures"): ES256 over the exact body bytes, sent as
//
//	x-service-signature: v1,kid=<key id>,sig=<base64url DER signature>
//
// The server side is a [Keyring]: signing keys kept in a directory, one
// ACTIVE key that signs, RETIRED keys that stay retrievable so signatures
// made before a rotation still verify, and REVOKED keys that clients must no
// longer trust. [Keyring.Document] answers GET /v1/keys/{kid}.
//
// The client side is a [Verifier]: it looks keys up by the kid of the header
// (never by the alias "current"), caches them by id because the key material
// of an id never changes, and re-checks their status periodically to notice a
// revocation.
//
// Only the standard library's crypto is used, so the code auditors must read
// is this package and nothing else.
package sign
