package sign

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// IndexName is the file in a keyring directory that lists the keys and
// their status. It is the keyring's single source of truth: a key file not
// listed in it (left by a crash mid-rotation) is ignored.
const IndexName = "keyring.json"

// indexFormat is the version of the IndexName layout; a keyring written by a
// later layout is refused rather than misread.
const indexFormat = 1

// PlannedLifetime is the not_after given to a new ACTIVE key: the date by
// which the operator plans to rotate it. Nothing enforces it: the key keeps
// signing until `amlscreen keys rotate`, which sets not_after to the moment
// of rotation, and `amlscreen keys list` flags a key past its plan.
const PlannedLifetime = 90 * 24 * time.Hour

var (
	// ErrNoKeyring reports a directory without an index, from LoadKeyring.
	ErrNoKeyring = errors.New("no keyring")
	// ErrRevokeCurrent reports an attempt to revoke the key that signs now;
	// the server would otherwise sign with a key clients refuse.
	ErrRevokeCurrent = errors.New("cannot revoke the current signing key")
)

// Keyring is a directory of ES256 signing keys:
//
//	DIR/keyring.json      index: kid, status, not_before, not_after of every key,
//	                      and which key is current and which previous
//	DIR/<kid>.pem         PKCS#8 P-256 private key, mode 0600
//
// Every file is replaced atomically (temporary file, fsync, rename), key file
// before index, so a crash never leaves a listed key without its file.
// Changes ([Keyring.Rotate], [Keyring.Revoke]) take an flock on DIR/.lock, so
// processes changing one keyring take turns.
//
// A Keyring is safe for concurrent use. It also follows changes made by other
// processes: every Sign, Document and Keys call stats the index (about a
// microsecond) and re-reads it when it was replaced, so a running server
// signs with the new key as soon as `amlscreen keys rotate` returns. Key
// material is parsed once per id, since it never changes.
type Keyring struct {
	dir string

	mu    sync.RWMutex
	stamp os.FileInfo       // index as last read, to notice replacement
	idx   index             // never mutated in place: replaced whole
	keys  map[string]*entry // by kid; entries are immutable
}

type entry struct {
	meta keyMeta
	priv *ecdsa.PrivateKey
	jwk  JWK
}

type index struct {
	Format   int       `json:"format"`
	Current  string    `json:"current"`
	Previous string    `json:"previous,omitempty"`
	Keys     []keyMeta `json:"keys"` // in creation order
}

type keyMeta struct {
	Kid       string    `json:"kid"`
	Status    string    `json:"status"`
	NotBefore time.Time `json:"not_before"`
	NotAfter  time.Time `json:"not_after"`
}

// KeyInfo describes one key of a keyring, for listings.
type KeyInfo struct {
	Kid       string
	Status    string // StatusActive, StatusRetired or StatusRevoked
	NotBefore time.Time
	NotAfter  time.Time
	Current   bool // signs now (alias "current")
	Previous  bool // replaced by the last rotation (alias "previous")
}

// OpenKeyring opens the keyring in dir, creating dir (mode 0700) and a first
// ACTIVE key when there is none yet, so a server starts signing without a
// setup step. To avoid scattering keys into a directory given by mistake, it
// refuses to create a keyring in a directory holding other files.
func OpenKeyring(dir string) (*Keyring, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open keyring: %w", err)
	}
	k := &Keyring{dir: dir}
	err := k.Reload()
	if err == nil {
		return k, nil
	}
	if !errors.Is(err, ErrNoKeyring) {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another process may have created it while this one waited for the lock.
	if err := k.loadLocked(); err == nil {
		return k, nil
	} else if !errors.Is(err, ErrNoKeyring) {
		return nil, err
	}
	if err := checkEmpty(dir); err != nil {
		return nil, err
	}
	removeStaleTemps(dir)
	m, err := k.createKey(time.Now())
	if err != nil {
		return nil, err
	}
	if err := k.writeIndex(index{Format: indexFormat, Current: m.Kid, Keys: []keyMeta{m}}); err != nil {
		return nil, err
	}
	if err := k.loadLocked(); err != nil {
		return nil, err
	}
	return k, nil
}

// LoadKeyring opens an existing keyring in dir and never creates one: for
// commands that only read keys or change existing ones. A directory without
// an index gives an error wrapping ErrNoKeyring.
func LoadKeyring(dir string) (*Keyring, error) {
	k := &Keyring{dir: dir}
	if err := k.Reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// Dir returns the directory the keyring lives in.
func (k *Keyring) Dir() string { return k.dir }

// Reload re-reads the keyring from disk even if the index looks unchanged.
func (k *Keyring) Reload() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.loadLocked()
}

// Sign returns the x-service-signature header value for body, signed with
// the current ACTIVE key: "v1,kid=<kid>,sig=<base64url DER>". The body must
// be the exact bytes sent; clients verify those and do not re-serialize.
func (k *Keyring) Sign(body []byte) (header string, err error) {
	if err := k.refresh(); err != nil {
		return "", err
	}
	k.mu.RLock()
	e := k.keys[k.idx.Current]
	k.mu.RUnlock()
	der, err := signDER(e.priv, body)
	if err != nil {
		return "", fmt.Errorf("sign with key %s: %w", e.meta.Kid, err)
	}
	return FormatHeader(e.meta.Kid, der), nil
}

// signDER signs SHA-256 of body. ECDSA signatures are randomized and a DER
// encoding is shorter than 70 bytes when r or s happens to have a leading
// zero byte (about 1 in 128); the signature scheme promises clients 70 to 72
// bytes, so such a signature is simply made again.
func signDER(priv *ecdsa.PrivateKey, body []byte) ([]byte, error) {
	h := sha256.Sum256(body)
	for range 64 {
		der, err := ecdsa.SignASN1(rand.Reader, priv, h[:])
		if err != nil {
			return nil, err
		}
		if len(der) >= 70 && len(der) <= 72 {
			return der, nil
		}
	}
	return nil, errors.New("no signature of 70 to 72 bytes in 64 attempts")
}

// Rotate makes a new ACTIVE key, signing from now on, and retires the
// current one: its status becomes RETIRED and its not_after now, and it
// stays retrievable (alias "previous") so signatures it made still verify.
// It returns the id of the new key.
func (k *Keyring) Rotate(now time.Time) (newKid string, err error) {
	now = now.UTC().Truncate(time.Second)
	err = k.update(func(ix *index) error {
		cur := ix.find(ix.Current)
		if now.Before(cur.NotBefore) {
			return fmt.Errorf("rotate at %s: before not_before %s of the current key %s (clock skew?)",
				formatTime(now), formatTime(cur.NotBefore), cur.Kid)
		}
		m, err := k.createKey(now)
		if err != nil {
			return err
		}
		cur.Status, cur.NotAfter = StatusRetired, now
		ix.Previous, ix.Current = ix.Current, m.Kid
		ix.Keys = append(ix.Keys, m)
		newKid = m.Kid
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("rotate keyring %s: %w", k.dir, err)
	}
	return newKid, nil
}

// Revoke marks key kid (or the alias "previous") REVOKED, so verifiers
// reject signatures made with it once they refresh its status. The key stays
// listed, so that clients asking for it learn it is revoked rather than
// unknown. The current key cannot be revoked: rotate first, then revoke the
// previous key. Revoking a revoked key changes nothing.
func (k *Keyring) Revoke(kid string) error {
	err := k.update(func(ix *index) error {
		id, err := ix.resolve(kid)
		if err != nil {
			return err
		}
		if id == ix.Current {
			return fmt.Errorf("%s: %w; rotate first, then revoke it as \"previous\"", id, ErrRevokeCurrent)
		}
		ix.find(id).Status = StatusRevoked
		return nil
	})
	if err != nil {
		return fmt.Errorf("revoke key %s: %w", kid, err)
	}
	return nil
}

// Document returns the key document of GET /v1/keys/{kid}: kid is a key id
// or the alias "current" or "previous". A kid with forbidden characters
// gives an error wrapping ErrInvalidKeyID (HTTP 400) and checked before the
// disk is touched; an unknown id, or "previous" before any rotation, one
// wrapping ErrUnknownKey (HTTP 404). Other errors are the server's.
func (k *Keyring) Document(kid string) (*KeyDocument, error) {
	if err := checkKeyID(kid); err != nil {
		return nil, err
	}
	if err := k.refresh(); err != nil {
		return nil, err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	id, err := k.idx.resolve(kid)
	if err != nil {
		return nil, err
	}
	e := k.keys[id]
	return &KeyDocument{
		Status:    e.meta.Status,
		NotBefore: formatTime(e.meta.NotBefore),
		NotAfter:  formatTime(e.meta.NotAfter),
		Keys:      []JWK{e.jwk},
	}, nil
}

// Fetch is Document with the signature of a [Fetcher], so a [Verifier] can
// check signatures against a local keyring without HTTP.
func (k *Keyring) Fetch(_ context.Context, kid string) (*KeyDocument, error) { return k.Document(kid) }

// Keys lists every key in creation order.
func (k *Keyring) Keys() ([]KeyInfo, error) {
	if err := k.refresh(); err != nil {
		return nil, err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	out := make([]KeyInfo, 0, len(k.idx.Keys))
	for _, m := range k.idx.Keys {
		out = append(out, KeyInfo{
			Kid: m.Kid, Status: m.Status, NotBefore: m.NotBefore, NotAfter: m.NotAfter,
			Current: m.Kid == k.idx.Current, Previous: m.Kid == k.idx.Previous,
		})
	}
	return out, nil
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (k *Keyring) indexPath() string { return filepath.Join(k.dir, IndexName) }

// refresh reloads the keyring when another writer has replaced the index.
// Writers replace it by rename, so a new file has a new identity; size and
// modification time also catch an inode number reused by the filesystem.
func (k *Keyring) refresh() error {
	fi, err := os.Stat(k.indexPath())
	if err != nil {
		return fmt.Errorf("keyring %s: %w", k.dir, err)
	}
	k.mu.RLock()
	same := k.stamp != nil && os.SameFile(k.stamp, fi) &&
		k.stamp.ModTime().Equal(fi.ModTime()) && k.stamp.Size() == fi.Size()
	k.mu.RUnlock()
	if same {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.loadLocked()
}

// loadLocked reads the index and any key file not yet parsed. The stamp
// comes from the open file itself, so it always matches the bytes read.
// On error the keyring keeps its previous state.
func (k *Keyring) loadLocked() error {
	f, err := os.Open(k.indexPath())
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w in %s (no %s)", ErrNoKeyring, k.dir, IndexName)
	}
	if err != nil {
		return fmt.Errorf("read keyring: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read keyring: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		return fmt.Errorf("read keyring %s: %w", k.indexPath(), err)
	}
	var ix index
	if err := json.Unmarshal(data, &ix); err != nil {
		return fmt.Errorf("read keyring %s: %w", k.indexPath(), err)
	}
	if err := ix.validate(); err != nil {
		return fmt.Errorf("read keyring %s: %w", k.indexPath(), err)
	}
	keys := make(map[string]*entry, len(ix.Keys))
	for _, m := range ix.Keys {
		e := &entry{meta: m}
		if old := k.keys[m.Kid]; old != nil {
			e.priv, e.jwk = old.priv, old.jwk
		} else {
			if e.priv, err = readKey(k.dir, m.Kid); err != nil {
				return err
			}
			if e.jwk, err = newJWK(m.Kid, &e.priv.PublicKey); err != nil {
				return err
			}
		}
		keys[m.Kid] = e
	}
	k.idx, k.keys, k.stamp = ix, keys, fi
	return nil
}

// update applies change to a fresh copy of the index under both locks and
// writes the result, so concurrent writers in other processes are never
// overwritten with a stale view.
func (k *Keyring) update(change func(*index) error) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	unlock, err := lockDir(k.dir)
	if err != nil {
		return err
	}
	defer unlock()
	if err := k.loadLocked(); err != nil {
		return err
	}
	removeStaleTemps(k.dir)
	ix := k.idx
	ix.Keys = slices.Clone(ix.Keys)
	if err := change(&ix); err != nil {
		return err
	}
	if err := ix.validate(); err != nil {
		return err
	}
	if err := k.writeIndex(ix); err != nil {
		return err
	}
	return k.loadLocked()
}

func (k *Keyring) writeIndex(ix index) error {
	data, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		return fmt.Errorf("encode keyring index: %w", err)
	}
	return writeFileAtomic(k.dir, IndexName, append(data, '\n'), 0o644)
}

// createKey generates a key valid from now and writes its file (before any
// index names it).
func (k *Keyring) createKey(now time.Time) (keyMeta, error) {
	now = now.UTC().Truncate(time.Second)
	kid, err := newKeyID(now)
	if err != nil {
		return keyMeta{}, err
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return keyMeta{}, fmt.Errorf("generate key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return keyMeta{}, fmt.Errorf("encode key %s: %w", kid, err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := writeFileAtomic(k.dir, kid+".pem", data, 0o600); err != nil {
		return keyMeta{}, err
	}
	return keyMeta{Kid: kid, Status: StatusActive, NotBefore: now, NotAfter: now.Add(PlannedLifetime)}, nil
}

// readKey reads and checks the private key file of kid.
func readKey(dir, kid string) (*ecdsa.PrivateKey, error) {
	name := filepath.Join(dir, kid+".pem")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", kid, err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("read key %s: %s holds no PKCS#8 \"PRIVATE KEY\" PEM block", kid, name)
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", kid, err)
	}
	priv, ok := key.(*ecdsa.PrivateKey)
	if !ok || priv.Curve != elliptic.P256() {
		return nil, fmt.Errorf("read key %s: not an ECDSA P-256 key", kid)
	}
	return priv, nil
}

// checkEmpty refuses a directory holding anything but what a keyring
// creation interrupted by a crash leaves behind.
func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("open keyring: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		if n == ".lock" || strings.HasPrefix(n, tmpPrefix) || (strings.HasPrefix(n, "k-") && strings.HasSuffix(n, ".pem")) {
			continue
		}
		return fmt.Errorf("open keyring: %s has no %s but holds other files (%s); refusing to create keys there", dir, IndexName, n)
	}
	return nil
}

// find returns the entry of kid in ix, which must exist.
func (ix *index) find(kid string) *keyMeta {
	for i := range ix.Keys {
		if ix.Keys[i].Kid == kid {
			return &ix.Keys[i]
		}
	}
	return nil
}

// resolve maps an alias or key id to a key id present in ix.
func (ix *index) resolve(kid string) (string, error) {
	switch kid {
	case AliasCurrent:
		return ix.Current, nil
	case AliasPrevious:
		if ix.Previous == "" {
			return "", fmt.Errorf("%w: %q: no rotation yet", ErrUnknownKey, kid)
		}
		return ix.Previous, nil
	}
	if err := checkKeyID(kid); err != nil {
		return "", err
	}
	if ix.find(kid) == nil {
		return "", fmt.Errorf("%w: %q", ErrUnknownKey, kid)
	}
	return kid, nil
}

// validate checks the invariants every reader relies on: one ACTIVE key and
// it is current, ids valid (they name files) and unique, previous listed.
func (ix *index) validate() error {
	if ix.Format != indexFormat {
		return fmt.Errorf("format %d, want %d", ix.Format, indexFormat)
	}
	seen := make(map[string]bool, len(ix.Keys))
	for _, m := range ix.Keys {
		if err := checkKeyID(m.Kid); err != nil {
			return err
		}
		if m.Kid == AliasCurrent || m.Kid == AliasPrevious {
			return fmt.Errorf("key id %q is reserved as an alias", m.Kid)
		}
		if seen[m.Kid] {
			return fmt.Errorf("key %s listed twice", m.Kid)
		}
		seen[m.Kid] = true
		switch m.Status {
		case StatusActive:
			if m.Kid != ix.Current {
				return fmt.Errorf("key %s is ACTIVE but %q is current", m.Kid, ix.Current)
			}
		case StatusRetired, StatusRevoked:
		default:
			return fmt.Errorf("key %s: unknown status %q", m.Kid, m.Status)
		}
		if m.NotAfter.Before(m.NotBefore) {
			return fmt.Errorf("key %s: not_after %s before not_before %s", m.Kid, formatTime(m.NotAfter), formatTime(m.NotBefore))
		}
	}
	if cur := ix.find(ix.Current); cur == nil || cur.Status != StatusActive {
		return fmt.Errorf("current key %q is not an ACTIVE key of the keyring", ix.Current)
	}
	if ix.Previous != "" && (!seen[ix.Previous] || ix.Previous == ix.Current) {
		return fmt.Errorf("previous key %q is not a former key of the keyring", ix.Previous)
	}
	return nil
}
