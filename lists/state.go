package lists

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// store.Lists holds one State per list, as JSON under the list's name.

// FileState is what the store remembers of one file of the edition of a
// list it holds: enough for a conditional GET and a checksum.
type FileState struct {
	Name         string `json:"name"`
	URL          string `json:"url,omitempty"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
	Size         int64  `json:"size"`
	Missing      bool   `json:"missing,omitempty"` // an optional file the issuer did not serve
}

// State is a list's fetch history in a store, shown by lists status.
type State struct {
	Name string `json:"name"`
	// LastFetch is when the last fetch ended, LastSuccess when one last
	// ended without error, LastChange when one last changed records.
	LastFetch   time.Time `json:"last_fetch,omitzero"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastChange  time.Time `json:"last_change,omitzero"`
	// Version is the store version the last change made.
	Version string `json:"version,omitempty"`
	// Records is how many records the edition held; Added, Updated and
	// Deleted are the counts of its last change.
	Records int `json:"records"`
	Added   int `json:"added"`
	Updated int `json:"updated"`
	Deleted int `json:"deleted"`
	// Sources are the source ids of the edition's records: the next
	// edition replaces them, also those it no longer holds.
	Sources []string `json:"sources,omitempty"`
	// Files describe the edition the store holds.
	Files []FileState `json:"files,omitempty"`
	// LastError is the error of the last fetch, "" when it succeeded;
	// Failures counts the fetches that failed since the last success.
	LastError string `json:"last_error,omitempty"`
	Failures  int    `json:"failures,omitempty"`
}

// file returns the state of the file called name, nil when none.
func (s *State) file(name string) *FileState {
	for i := range s.Files {
		if s.Files[i].Name == name {
			return &s.Files[i]
		}
	}
	return nil
}

// LoadState returns the state of the list called name; a list never
// fetched has a zero State with its name.
func LoadState(db *store.Store, name string) (State, error) {
	st := State{Name: name}
	err := db.Read(func(tx *store.Tx) error {
		b := store.Lists.Bucket(tx)
		if b == nil {
			return nil
		}
		if v := b.Get([]byte(name)); v != nil {
			return json.Unmarshal(v, &st)
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("list state %s: %w", name, err)
	}
	return st, nil
}

// Status returns the state of every list the store has fetched, by name.
func Status(db *store.Store) ([]State, error) {
	var out []State
	err := db.Read(func(tx *store.Tx) error {
		b := store.Lists.Bucket(tx)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var st State
			if err := json.Unmarshal(v, &st); err != nil {
				return fmt.Errorf("list state %s: %w", k, err)
			}
			out = append(out, st)
			return nil
		})
	})
	slices.SortFunc(out, func(a, b State) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out, err
}

// saveState writes st in one transaction.
func saveState(db *store.Store, st State) error {
	v, err := json.Marshal(st)
	if err != nil {
		return err
	}
	err = db.Write(func(tx *store.Tx) error {
		b, err := store.Lists.Create(tx)
		if err != nil {
			return err
		}
		return b.Put([]byte(st.Name), v)
	})
	if err != nil {
		return fmt.Errorf("save list state %s: %w", st.Name, err)
	}
	return nil
}
