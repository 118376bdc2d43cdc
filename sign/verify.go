package sign

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

var (
	// ErrBadSignature reports a signature that does not match the body and
	// key: the body is untrusted and must not be processed.
	ErrBadSignature = errors.New("signature does not match the body")
	// ErrKeyRevoked reports a signature by a key whose status is REVOKED.
	ErrKeyRevoked = errors.New("signing key is revoked")
	// ErrKeyChanged reports a key document whose public key differs from the
	// one cached for the same id; ids never change material, so this is
	// treated as an attack rather than an update.
	ErrKeyChanged = errors.New("key material changed for the same key id")
)

// DefaultRefresh is how long a Verifier trusts a cached key status when
// NewVerifier is given no period.
const DefaultRefresh = 10 * time.Minute

// Fetcher returns the key document of one key id, as GET /v1/keys/{kid}
// does. It returns an error wrapping ErrUnknownKey for an id the service
// does not know. [HTTPFetcher] asks a service, [Keyring.Fetch] a local
// keyring.
type Fetcher func(ctx context.Context, kid string) (*KeyDocument, error)

// Verifier checks x-service-signature headers by the rules of docs/API.md
// "Keys and signatures". It looks keys up by the kid of the header only, caches them by id,
// and fetches a cached key's document again once it is older than the
// refresh period, to notice revocation. If that fetch fails, verification
// fails too: a key whose status cannot be confirmed is not trusted, and
// webhook senders redeliver on a non-2xx answer. A Verifier is safe for
// concurrent use.
type Verifier struct {
	fetch   Fetcher
	refresh time.Duration
	now     func() time.Time // tests move time forward

	mu    sync.Mutex
	cache map[string]cachedKey
}

type cachedKey struct {
	pub     *ecdsa.PublicKey
	status  string
	checked time.Time
}

// NewVerifier returns a Verifier that gets keys from fetch and re-checks a
// cached key's status after refresh (DefaultRefresh when refresh ≤ 0).
func NewVerifier(fetch Fetcher, refresh time.Duration) *Verifier {
	if refresh <= 0 {
		refresh = DefaultRefresh
	}
	return &Verifier{fetch: fetch, refresh: refresh, now: time.Now, cache: map[string]cachedKey{}}
}

// Verify checks that header is a valid signature of body, the raw bytes as
// received (after gzip decoding, never re-serialized). A nil error means the
// body was signed by an ACTIVE or RETIRED key of the service. Errors wrap
// ErrMalformedHeader, ErrInvalidKeyID, ErrUnknownKey, ErrKeyRevoked,
// ErrKeyChanged or ErrBadSignature, or are the fetcher's.
func (v *Verifier) Verify(ctx context.Context, body []byte, header string) error {
	kid, sig, err := ParseHeader(header)
	if err != nil {
		return err
	}
	if kid == AliasCurrent || kid == AliasPrevious {
		return fmt.Errorf("%w: kid %q is an alias, not the id of the signing key", ErrMalformedHeader, kid)
	}
	if err := checkKeyID(kid); err != nil {
		return err
	}
	der, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil {
		return fmt.Errorf("%w: sig is not base64url without padding: %v", ErrMalformedHeader, err)
	}
	k, err := v.key(ctx, kid)
	if err != nil {
		return err
	}
	if k.status == StatusRevoked {
		return fmt.Errorf("%w: %s", ErrKeyRevoked, kid)
	}
	h := sha256.Sum256(body)
	if !ecdsa.VerifyASN1(k.pub, h[:], der) {
		return fmt.Errorf("%w (key %s)", ErrBadSignature, kid)
	}
	return nil
}

// key returns the cached key of kid, fetching it when absent or stale.
// The lock is not held during the fetch, so one slow lookup does not stall
// verifications by other keys; two concurrent misses both fetch, harmlessly.
func (v *Verifier) key(ctx context.Context, kid string) (cachedKey, error) {
	now := v.now()
	v.mu.Lock()
	old, ok := v.cache[kid]
	v.mu.Unlock()
	if ok && now.Sub(old.checked) < v.refresh {
		return old, nil
	}
	doc, err := v.fetch(ctx, kid)
	if err != nil {
		return cachedKey{}, fmt.Errorf("look up key %s: %w", kid, err)
	}
	pub, err := doc.key(kid)
	if err != nil {
		return cachedKey{}, fmt.Errorf("look up key %s: %w", kid, err)
	}
	if ok && !old.pub.Equal(pub) {
		return cachedKey{}, fmt.Errorf("look up key %s: %w", kid, ErrKeyChanged)
	}
	k := cachedKey{pub: pub, status: doc.Status, checked: now}
	v.mu.Lock()
	v.cache[kid] = k
	v.mu.Unlock()
	return k, nil
}

// HTTPFetcher returns a Fetcher that asks a /v1 service (the hosted one or
// `amlscreen serve`) with GET {baseURL}/v1/keys/{kid} and header x-api-key.
// baseURL is the service root; a trailing "/v1" or "/v1/keys" is dropped so
// that either form works. client nil means a client with a 30 s timeout.
// 404 maps to ErrUnknownKey and 400 to ErrInvalidKeyID. The API key never
// appears in an error.
func HTTPFetcher(baseURL, apiKey string, client *http.Client) Fetcher {
	base := strings.TrimRight(baseURL, "/")
	base = strings.TrimSuffix(base, "/v1/keys")
	base = strings.TrimSuffix(base, "/v1")
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	return func(ctx context.Context, kid string) (*KeyDocument, error) {
		if err := checkKeyID(kid); err != nil {
			return nil, err
		}
		if strings.Trim(kid, ".") == "" {
			// "." and ".." would be read as path steps, not as an id.
			return nil, fmt.Errorf("%w: %q", ErrUnknownKey, kid)
		}
		u := base + "/v1/keys/" + url.PathEscape(kid)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", u, err)
		}
		req.Header.Set("x-api-key", apiKey)
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err // *url.Error already names the method and URL
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", u, err)
		}
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotFound:
			return nil, fmt.Errorf("%w: %q (GET %s: 404)", ErrUnknownKey, kid, u)
		case http.StatusBadRequest:
			return nil, fmt.Errorf("%w: %q (GET %s: 400%s)", ErrInvalidKeyID, kid, u, errorMessage(body))
		default:
			return nil, fmt.Errorf("GET %s: %s%s", u, resp.Status, errorMessage(body))
		}
		var doc KeyDocument
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&doc); err != nil {
			return nil, fmt.Errorf("GET %s: key document: %w", u, err)
		}
		return &doc, nil
	}
}

// errorMessage extracts the error_message of an API error body, for error
// texts; ": <message>" (cut at 200 characters, as the service is not
// trusted to keep it short) or "" when there is none.
func errorMessage(body []byte) string {
	var e struct {
		Message string `json:"error_message"`
	}
	if json.Unmarshal(body, &e) != nil || e.Message == "" {
		return ""
	}
	if r := []rune(e.Message); len(r) > 200 {
		e.Message = string(r[:200]) + "…"
	}
	return ": " + e.Message
}
