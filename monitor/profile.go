package monitor

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

// MaxProfileIDLen bounds profile_id, which is a bbolt key and travels in
// every notification.
const MaxProfileIDLen = 256

// The cost limits of a profile. A check is paid for once; a profile is
// matched against every record of every change set, so what a profile may
// ask for is bounded at registration, on top of a check's rules (at most
// query.MaxTextWords words).
const (
	// MaxWordRepeats is how often one word may come in a profile's names
	// or search_all ("al" three times in an Arabic name is common; 32
	// times only multiplies the matching work).
	MaxWordRepeats = 4
	// MinProfileScore is the lowest min_score a scored profile takes: a
	// lower threshold makes nearly every changed record a hit to score in
	// full. A stored profile below it (registered before the limit) is
	// matched at this threshold.
	MinProfileScore = 0.3
)

// Params are the parameters of registerIndividual and registerEntity
// (registerIndividual, registerEntity): the query a profile stands for.
type Params struct {
	// ID is the client's profile_id; registering it again updates it.
	ID string `json:"profile_id"`
	// Kind is query.Individual (registerIndividual) or query.Entity
	// (registerEntity); it selects the entity types that can match, as the
	// corresponding check does.
	Kind      query.Kind `json:"-"`
	Names     string     `json:"names,omitempty"`
	SearchAll string     `json:"search_all,omitempty"`
	// DOB and Gender filter individuals only, as on checkIndividual.
	DOB    string `json:"dob,omitempty"`
	Gender string `json:"gender,omitempty"`
	Fuzzy  int    `json:"fuzzy_search,omitempty"`
	// Match is the profile's match mode, MinScore its scored-mode
	// threshold (0: query.DefaultMinScore). They are stored as "match"
	// and "min_score" only for a scored profile; a profile stored without
	// them (every profile of earlier versions) is strict.
	Match    query.MatchMode `json:"-"`
	MinScore float64         `json:"min_score,omitempty"`
}

// Profile is a stored search profile.
type Profile struct {
	// Owner identifies the API key that registered it (access.KeyID of
	// the key: never the secret itself). Profiles of different owners are
	// separate even when their profile ids are equal.
	Owner string `json:"owner"`
	Params
	// Access is what the registering key let the profile see when it was
	// registered: its default-source rule and feature flags.
	//
	// The policy, not a resolved list of source ids, is stored, so that
	// sources that appear after registration are judged by the same rule
	// the key's checks use. It is stored rather than looked up when a
	// change set is applied because matching runs inside the store
	// transaction, also in amlscreen apply on an air-gapped machine that
	// has no keys file: the outcome must depend on the store alone.
	// Registering the profile again refreshes it.
	Access access.Policy `json:"access"`
	// Registered is when the profile was first registered, Updated when it
	// was last registered.
	Registered time.Time `json:"registered_at"`
	Updated    time.Time `json:"updated_at"`
}

// MarshalJSON writes the profile with its kind as "individual" or
// "entity".
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile // no MarshalJSON: no recursion
	v := struct {
		plain
		Kind  string `json:"kind"`
		Match string `json:"match,omitempty"`
	}{plain: plain(p), Kind: p.Kind.String()}
	if p.Match != query.Strict {
		v.Match = p.Match.String()
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Profile) UnmarshalJSON(b []byte) error {
	type plain Profile
	var v struct {
		plain
		Kind  string `json:"kind"`
		Match string `json:"match"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	k, err := query.ParseKind(v.Kind)
	if err != nil {
		return err
	}
	m, err := query.ParseMatch(v.Match)
	if err != nil {
		return err
	}
	*p = Profile(v.plain)
	p.Kind, p.Match = k, m
	return nil
}

// Query returns the check a profile stands for.
func (p *Params) Query() query.Query {
	return query.Query{Kind: p.Kind, Names: p.Names, SearchAll: p.SearchAll, Fuzzy: p.Fuzzy, DOB: p.DOB, Gender: p.Gender,
		Match: p.Match, MinScore: p.MinScore}
}

// Validate applies the rules of the checks (docs/MATCHING.md "Filters") and of
// registration: a profile_id, a kind of individual or entity, exactly one
// of names and search_all, fuzzy_search 0–2, dob and gender for
// individuals only. Errors are *query.ParamError naming the parameter.
func (p *Params) Validate() error {
	switch {
	case p.ID == "":
		return &query.ParamError{Param: "profile_id", Msg: "required"}
	case len(p.ID) > MaxProfileIDLen:
		return &query.ParamError{Param: "profile_id", Msg: fmt.Sprintf("longer than %d bytes", MaxProfileIDLen)}
	case !utf8.ValidString(p.ID) || strings.ContainsFunc(p.ID, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return &query.ParamError{Param: "profile_id", Msg: "must be UTF-8 text without control characters"}
	case p.Kind != query.Individual && p.Kind != query.Entity:
		return &query.ParamError{Param: "type", Msg: fmt.Sprintf("profiles are individual or entity, not %s", p.Kind)}
	case p.Kind == query.Entity && p.DOB != "":
		return &query.ParamError{Param: "dob", Msg: "registerEntity takes no dob"}
	case p.Kind == query.Entity && p.Gender != "":
		return &query.ParamError{Param: "gender", Msg: "registerEntity takes no gender"}
	}
	if err := query.Validate(p.Query()); err != nil {
		return err
	}
	if p.Match == query.Scored && p.MinScore != 0 && p.MinScore < MinProfileScore {
		return &query.ParamError{Param: "min_score", Msg: fmt.Sprintf("%v is below %v, the least a search profile takes: a lower threshold makes nearly every changed record a hit", p.MinScore, MinProfileScore)}
	}
	return p.checkRepeats()
}

// checkRepeats refuses a query in which one word comes more than
// MaxWordRepeats times.
func (p *Params) checkRepeats() error {
	text, param := p.Names, "names"
	if text == "" {
		text, param = p.SearchAll, "search_all"
	}
	for _, v := range normalize.QueryVariants(text, false) {
		n := map[string]int{}
		for _, t := range v {
			if n[t]++; n[t] > MaxWordRepeats {
				return &query.ParamError{Param: param, Msg: fmt.Sprintf("the word %q comes more than %d times; a search profile takes one word at most %d times", t, MaxWordRepeats, MaxWordRepeats)}
			}
		}
	}
	return nil
}

// Store layout of store.Profiles:
//
//	"p" 0x00 owner 0x00 profile_id → Profile JSON
//	"n" 0x00 owner                 → number of the owner's profiles (8 bytes)
//	"g" 0x00                       → generation: bumped by every change (8 bytes)
//
// Owners are key ids (hex) and hold no 0x00, so the first 0x00 after the
// owner ends it whatever the profile id holds. The count makes the quota
// check O(1) inside the registering transaction. The generation tells a
// process that keeps a profile index whether another process (amlscreen
// monitor register while sync --every waits) changed the profiles since.
func profileKey(owner, id string) []byte {
	k := make([]byte, 0, 3+len(owner)+len(id))
	k = append(k, 'p', 0)
	k = append(k, owner...)
	k = append(k, 0)
	return append(k, id...)
}

func ownerPrefix(owner string) []byte {
	k := append([]byte{'p', 0}, owner...)
	return append(k, 0)
}

func countKey(owner string) []byte { return append([]byte{'n', 0}, owner...) }

var (
	profilePrefix = []byte{'p', 0}
	genKey        = []byte{'g', 0}
)

// generation returns the profiles' generation in tx.
func generation(tx *store.Tx) uint64 {
	b := store.Profiles.Bucket(tx)
	if b == nil {
		return 0
	}
	v := b.Get(genKey)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func bumpGeneration(b *store.Bucket) error {
	n := uint64(0)
	if v := b.Get(genKey); len(v) == 8 {
		n = binary.BigEndian.Uint64(v)
	}
	return b.Put(genKey, binary.BigEndian.AppendUint64(nil, n+1))
}

func getCount(b *store.Bucket, owner string) uint64 {
	v := b.Get(countKey(owner))
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putCount(b *store.Bucket, owner string, n uint64) error {
	if n == 0 {
		return b.Delete(countKey(owner))
	}
	return b.Put(countKey(owner), binary.BigEndian.AppendUint64(nil, n))
}

// QuotaError is returned by Register when a new profile would exceed the
// owner's profile quota; the server answers it with 429.
type QuotaError struct {
	Quota int64
}

// Error says what to do: remove a profile first.
func (e *QuotaError) Error() string {
	return fmt.Sprintf("search profile quota of %d reached: remove a profile before registering another", e.Quota)
}

// ErrOwner is returned for an empty or malformed owner.
var ErrOwner = errors.New("profile owner must be a non-empty key id without NUL bytes")

func checkOwner(owner string) error {
	if owner == "" || strings.IndexByte(owner, 0) >= 0 {
		return ErrOwner
	}
	return nil
}

// putProfile upserts p in tx, enforcing quota (negative: none) on new
// profiles. It returns the stored profile (Registered kept from an earlier
// registration) and whether it is new.
func putProfile(tx *store.Tx, p Profile, quota int64) (Profile, bool, error) {
	b := store.Profiles.Bucket(tx)
	if b == nil {
		return p, false, errors.New("store has no profiles bucket")
	}
	key := profileKey(p.Owner, p.ID)
	old := b.Get(key)
	created := old == nil
	if created {
		n := getCount(b, p.Owner)
		if quota >= 0 && int64(n) >= quota {
			return p, false, &QuotaError{Quota: quota}
		}
		if err := putCount(b, p.Owner, n+1); err != nil {
			return p, false, err
		}
	} else {
		var prev Profile
		if err := json.Unmarshal(old, &prev); err == nil && !prev.Registered.IsZero() {
			p.Registered = prev.Registered
		}
	}
	v, err := json.Marshal(p)
	if err != nil {
		return p, false, err
	}
	if err := b.Put(key, v); err != nil {
		return p, false, err
	}
	return p, created, bumpGeneration(b)
}

// deleteProfile removes a profile from tx; removing an unknown one is not
// an error (removeSearchProfile is idempotent).
func deleteProfile(tx *store.Tx, owner, id string) (bool, error) {
	b := store.Profiles.Bucket(tx)
	if b == nil {
		return false, nil
	}
	key := profileKey(owner, id)
	if b.Get(key) == nil {
		return false, nil
	}
	if err := b.Delete(key); err != nil {
		return false, err
	}
	n := getCount(b, owner)
	if n > 0 {
		n--
	}
	if err := putCount(b, owner, n); err != nil {
		return false, err
	}
	return true, bumpGeneration(b)
}

// forEachProfile calls fn for every stored profile of owner, or of every
// owner when owner is "", in key order.
func forEachProfile(tx *store.Tx, owner string, fn func(p *Profile) error) error {
	b := store.Profiles.Bucket(tx)
	if b == nil {
		return nil
	}
	prefix := profilePrefix
	if owner != "" {
		prefix = ownerPrefix(owner)
	}
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var p Profile
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("profile %q: %w", k[2:], err)
		}
		if err := fn(&p); err != nil {
			return err
		}
	}
	return nil
}

func getProfile(tx *store.Tx, owner, id string) (*Profile, error) {
	b := store.Profiles.Bucket(tx)
	if b == nil {
		return nil, nil
	}
	v := b.Get(profileKey(owner, id))
	if v == nil {
		return nil, nil
	}
	var p Profile
	if err := json.Unmarshal(v, &p); err != nil {
		return nil, fmt.Errorf("profile %q: %w", id, err)
	}
	return &p, nil
}
