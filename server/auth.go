package server

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"

	"github.com/amlscreen/amlscreen/live"
)

// APIKey is one entry of the keys file: a key a client sends as x-api-key
// and what it may do.
type APIKey struct {
	// Key is the secret itself. It is never logged nor stored in the
	// store; usage is kept under ID.
	Key string `json:"key"`
	// Name says whose key it is, for operators.
	Name string `json:"name,omitempty"`
	// Disabled keys are answered with 403.
	Disabled bool `json:"disabled,omitempty"`
	// MonthlyQuota is the number of billed calls allowed per UTC calendar
	// month; nil means no limit.
	MonthlyQuota *int64 `json:"monthly_quota,omitempty"`
	// ProfileQuota is the number of search profiles the key may register
	// at the same time; nil means no limit.
	ProfileQuota *int64 `json:"profile_quota,omitempty"`
	// IncludeOther includes sources of type OTHER by default.
	IncludeOther bool `json:"include_other,omitempty"`
	// ExtraSources are included by default on top of the non-OTHER ones;
	// ExcludedSources are taken out of the default.
	ExtraSources    []string `json:"extra_sources,omitempty"`
	ExcludedSources []string `json:"excluded_sources,omitempty"`
	// Features enables attributes that are stripped from records
	// otherwise.
	Features Features `json:"features"`
	// WebhookURL receives the key's monitoring notifications.
	WebhookURL string `json:"webhook_url,omitempty"`
	// ArticlesPerCategory raises the 10 articles per category of media
	// checks; zero means the default.
	ArticlesPerCategory int `json:"articles_per_category,omitempty"`
	// DailyDownloadLimit is the number of getConsolidatedFile and
	// getConsolidatedDelta calls allowed per UTC day: absent means the
	// service's 50 (Config.DailyDownloads), 0 means no limit, for the keys
	// of replicas that poll more often than 50 times a day.
	DailyDownloadLimit *int64 `json:"daily_download_limit,omitempty"`

	id string
}

// Features are the per-key feature flags of SERVICE.md §2.1.
type Features struct {
	PEPLevel      bool `json:"pep_level,omitempty"`
	SourceCountry bool `json:"source_country,omitempty"`
}

// KeyID derives the identity usage is kept under from a key: the first 16
// bytes of its SHA-256, in hex. It is stable as long as the key is, and
// reveals nothing of it, so the store never holds a secret.
func KeyID(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:16])
}

// ID returns KeyID(k.Key).
func (k *APIKey) ID() string {
	if k.id == "" {
		return KeyID(k.Key)
	}
	return k.id
}

// Access returns the sources the key includes by default, as package live
// resolves them.
func (k *APIKey) Access() live.Access {
	return live.Access{IncludeOther: k.IncludeOther, Extra: k.ExtraSources, Excluded: k.ExcludedSources}
}

// ParseKeys reads a keys file: a JSON array of APIKey objects. Unknown
// fields are refused, so that a misspelt "monthly_quota" cannot silently
// lift a limit. Keys must be non-empty and unique; messages name entries by
// position and name, never by key.
func ParseKeys(data []byte) ([]*APIKey, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var keys []*APIKey
	if err := dec.Decode(&keys); err != nil {
		return nil, fmt.Errorf("keys file: want a JSON array of keys: %w", err)
	}
	if dec.More() {
		return nil, errors.New("keys file: data after the array")
	}
	if err := validateKeys(keys); err != nil {
		return nil, err
	}
	return keys, nil
}

func validateKeys(keys []*APIKey) error {
	seen := map[string]int{}
	for i, k := range keys {
		where := fmt.Sprintf("keys file: entry %d", i+1)
		if k == nil {
			return fmt.Errorf("%s: null", where)
		}
		if k.Name != "" {
			where += fmt.Sprintf(" (%s)", k.Name)
		}
		switch {
		case k.Key == "":
			return fmt.Errorf("%s: key is empty", where)
		case len(k.Key) > 1024:
			return fmt.Errorf("%s: key is longer than 1024 bytes", where)
		case k.MonthlyQuota != nil && *k.MonthlyQuota < 0:
			return fmt.Errorf("%s: monthly_quota %d is negative", where, *k.MonthlyQuota)
		case k.ProfileQuota != nil && *k.ProfileQuota < 0:
			return fmt.Errorf("%s: profile_quota %d is negative", where, *k.ProfileQuota)
		case k.ArticlesPerCategory < 0:
			return fmt.Errorf("%s: articles_per_category %d is negative", where, k.ArticlesPerCategory)
		case k.DailyDownloadLimit != nil && *k.DailyDownloadLimit < 0:
			return fmt.Errorf("%s: daily_download_limit %d is negative (0 means no limit)", where, *k.DailyDownloadLimit)
		}
		for _, c := range []byte(k.Key) {
			if c < 0x21 || c > 0x7e {
				return fmt.Errorf("%s: key holds a character an HTTP header cannot carry", where)
			}
		}
		if k.WebhookURL != "" {
			u, err := url.Parse(k.WebhookURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("%s: webhook_url %q is not an http(s) URL", where, k.WebhookURL)
			}
		}
		if j, dup := seen[k.Key]; dup {
			return fmt.Errorf("%s: same key as entry %d", where, j)
		}
		seen[k.Key] = i + 1
		k.id = KeyID(k.Key)
	}
	return nil
}

// LoadKeysFile reads and checks the keys file at path.
func LoadKeysFile(path string) ([]*APIKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read keys file: %w", err)
	}
	keys, err := ParseKeys(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

// keySet finds keys by the SHA-256 of the presented value. Looking up a
// digest tells a timing attacker nothing about how much of a guess matches
// a real key, since digests of near-misses share no prefix; the final
// comparison is constant time as well.
type keySet struct {
	byHash map[[32]byte]*APIKey
}

func newKeySet(keys []*APIKey) *keySet {
	ks := &keySet{byHash: make(map[[32]byte]*APIKey, len(keys))}
	for _, k := range keys {
		ks.byHash[sha256.Sum256([]byte(k.Key))] = k
	}
	return ks
}

func (ks *keySet) find(presented string) *APIKey {
	k := ks.byHash[sha256.Sum256([]byte(presented))]
	if k == nil || subtle.ConstantTimeCompare([]byte(k.Key), []byte(presented)) != 1 {
		return nil
	}
	return k
}

// ErrNoEnabledKey is returned when a server would get no key that is not
// disabled: a keys file holding null, [] or only disabled keys. Every
// request would be refused, so a server refuses to start with it, and a
// reload to it keeps the keys in force.
var ErrNoEnabledKey = errors.New("no enabled API key: every request would be refused with 401 or 403; add a key (see the README's keys file)")

func requireEnabled(keys []*APIKey) error {
	for _, k := range keys {
		if !k.Disabled {
			return nil
		}
	}
	return ErrNoEnabledKey
}

// SetKeys replaces the API keys. Requests in flight keep the key they
// started with. Keys without one enabled are refused (ErrNoEnabledKey).
func (s *Server) SetKeys(keys []*APIKey) error {
	if err := validateKeys(keys); err != nil {
		return err
	}
	if err := requireEnabled(keys); err != nil {
		return err
	}
	s.keys.Store(newKeySet(keys))
	return nil
}

// ReloadKeys reads the keys file again (on SIGHUP). A file that does not
// read or check, or holds no enabled key, leaves the current keys in
// place.
func (s *Server) ReloadKeys() error {
	if s.keysFile == "" {
		return errors.New("reload keys: the server has no keys file")
	}
	keys, err := LoadKeysFile(s.keysFile)
	if err != nil {
		return err
	}
	if err := requireEnabled(keys); err != nil {
		return fmt.Errorf("%s: %w", s.keysFile, err)
	}
	s.keys.Store(newKeySet(keys))
	s.log.Info("API keys loaded", "file", s.keysFile, "keys", len(keys))
	return nil
}

// authenticate returns the caller's key: 401 when missing or unknown, 403
// when disabled.
func (s *Server) authenticate(r *http.Request) (*APIKey, error) {
	return s.Authenticate(r.Header.Get("x-api-key"))
}

// Authenticate returns the key of the keys in force that presented is, as
// every /v1 request is authenticated: an *Error with status 401 when it is
// empty or unknown, 403 when the key is disabled. The workbench signs in
// and checks its sessions with it, so that a key disabled by a reload
// ends its sessions too.
func (s *Server) Authenticate(presented string) (*APIKey, error) {
	if presented == "" {
		return nil, Errorf(http.StatusUnauthorized, "missing API key: send it in the x-api-key header")
	}
	k := s.keys.Load().find(presented)
	if k == nil {
		return nil, Errorf(http.StatusUnauthorized, "invalid API key")
	}
	if k.Disabled {
		return nil, Errorf(http.StatusForbidden, "API key is disabled")
	}
	return k, nil
}
