package access

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/amlscreen/amlscreen/record"
)

// Key is one entry of the keys file: a key a client sends as x-api-key and
// what it may do.
type Key struct {
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
	// at the same time; nil means DefaultProfileQuota.
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
	// server's default (the service's 50), 0 means no limit, for the keys
	// of replicas that poll more often than 50 times a day.
	DailyDownloadLimit *int64 `json:"daily_download_limit,omitempty"`

	id string
}

// Features are the per-key feature flags: attributes of records that are
// only answered to keys that enable them.
type Features struct {
	PEPLevel      bool `json:"pep_level,omitempty"`
	SourceCountry bool `json:"source_country,omitempty"`
}

// WriteOptions writes records in case c with the attributes f does not
// enable stripped, as every answer to the key must.
func (f Features) WriteOptions(c record.Case) record.WriteOptions {
	return record.WriteOptions{Case: c, OmitPEPLevel: !f.PEPLevel, OmitSourceCountry: !f.SourceCountry}
}

// KeyID derives the identity usage and search profiles are kept under from
// a key: the first 16 bytes of its SHA-256, in hex. It is stable as long as
// the key is, and reveals nothing of it, so the store never holds a secret.
func KeyID(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:16])
}

// ID returns KeyID(k.Key), computed once when the key was validated.
func (k *Key) ID() string {
	if k.id == "" {
		return KeyID(k.Key)
	}
	return k.id
}

// Sources returns the key's default-source rule.
func (k *Key) Sources() Sources {
	return Sources{IncludeOther: k.IncludeOther, Extra: k.ExtraSources, Excluded: k.ExcludedSources}
}

// Policy returns what the key lets a caller see: its default sources and
// its feature flags, which monitoring stores with every profile the key
// registers.
func (k *Key) Policy() Policy { return Policy{Sources: k.Sources(), Features: k.Features} }

// DefaultProfileQuota is the profile_quota of a key whose entry sets
// none. Every profile is matched against every change set, so profiles
// are never free of limit: a key that needs more sets its own.
const DefaultProfileQuota = 1000

// ProfileLimit returns the key's profile_quota, DefaultProfileQuota when
// the keys file sets none.
func (k *Key) ProfileLimit() int64 {
	if k.ProfileQuota == nil {
		return DefaultProfileQuota
	}
	return *k.ProfileQuota
}
