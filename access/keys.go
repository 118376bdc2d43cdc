package access

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
)

// MaxKeyBytes bounds a key: it travels in an HTTP header.
const MaxKeyBytes = 1024

// Parse reads a keys file: a JSON array of Key objects. Unknown fields are
// refused, so that a misspelt "monthly_quota" cannot silently lift a
// limit. Keys must be non-empty and unique; messages name entries by
// position and name, never by key.
func Parse(data []byte) ([]*Key, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var keys []*Key
	if err := dec.Decode(&keys); err != nil {
		return nil, fmt.Errorf("keys file: want a JSON array of keys: %w", err)
	}
	if dec.More() {
		return nil, errors.New("keys file: data after the array")
	}
	if err := Validate(keys); err != nil {
		return nil, err
	}
	return keys, nil
}

// LoadFile reads and checks the keys file at path.
func LoadFile(path string) ([]*Key, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read keys file: %w", err)
	}
	keys, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

// Validate checks keys made in code as Parse checks a file, and fixes
// their ids.
func Validate(keys []*Key) error {
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
		case len(k.Key) > MaxKeyBytes:
			return fmt.Errorf("%s: key is longer than %d bytes", where, MaxKeyBytes)
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

// ErrNoEnabledKey is returned for keys without one that is not disabled: a
// keys file holding null, [] or only disabled keys. Every request would be
// refused, so a server refuses to start with it, and a reload to it keeps
// the keys in force.
var ErrNoEnabledKey = errors.New("no enabled API key: every request would be refused with 401 or 403; add a key (see docs/OPERATIONS.md, \"Keys file\")")

// RequireEnabled returns ErrNoEnabledKey unless a key is enabled.
func RequireEnabled(keys []*Key) error {
	for _, k := range keys {
		if !k.Disabled {
			return nil
		}
	}
	return ErrNoEnabledKey
}

// Set finds keys by the SHA-256 of the presented value. Looking up a
// digest tells a timing attacker nothing about how much of a guess matches
// a real key, since digests of near-misses share no prefix; the final
// comparison is constant time as well. A Set is read only once made.
type Set struct {
	byHash map[[32]byte]*Key
	byID   map[string]*Key
}

// NewSet returns a set of validated keys (Parse, LoadFile or Validate).
func NewSet(keys []*Key) *Set {
	s := &Set{byHash: make(map[[32]byte]*Key, len(keys)), byID: make(map[string]*Key, len(keys))}
	for _, k := range keys {
		s.byHash[sha256.Sum256([]byte(k.Key))] = k
		s.byID[k.ID()] = k
	}
	return s
}

// Find returns the key whose secret is presented, nil for none.
func (s *Set) Find(presented string) *Key {
	k := s.byHash[sha256.Sum256([]byte(presented))]
	if k == nil || subtle.ConstantTimeCompare([]byte(k.Key), []byte(presented)) != 1 {
		return nil
	}
	return k
}

// ByID returns the key of id (KeyID), nil for none: the owner of usage
// counters and search profiles.
func (s *Set) ByID(id string) *Key { return s.byID[id] }
