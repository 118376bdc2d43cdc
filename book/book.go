// Package book keeps a customer register in the store: the customers a
// bank screens on every change set, with the match mode and fuzziness the
// book is screened in. It reads books with batch's formats and column
// detection and checks each row with batch's rules, so a customer the
// book holds is one batch would screen. Every change to the book is one
// store transaction: an import either replaces the book whole or changes
// nothing. The book keeps its state in two of the store's sub-stores,
// store.BookCustomers and store.BookMeta.
package book

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

// Keys of store.BookMeta. The sub-stores are created on first write; a
// store without them has an empty book.
var metaKey = []byte("meta")

// MaxCustomers bounds a book, checked while reading it, so that a wrong
// file cannot make unbounded work.
const MaxCustomers = 5_000_000

// Customer is one customer of the book, as its row gave it.
type Customer struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	DOB         string `json:"dob,omitempty"`
	Gender      string `json:"gender,omitempty"`
	Citizenship string `json:"citizenship,omitempty"`
	// Extra holds the book's other columns, by header name, kept for the
	// report; they are not screened.
	Extra map[string]string `json:"extra,omitempty"`
}

// Row returns the customer as a book row, for batch's screening.
func (c *Customer) Row() *batch.Row {
	return &batch.Row{ID: c.ID, Name: c.Name, Type: c.Type, DOB: c.DOB, Gender: c.Gender, Citizenship: c.Citizenship}
}

// Config is how the book is screened.
type Config struct {
	Match string `json:"match"` // strict or scored
	Fuzzy int    `json:"fuzzy"` // 0, 1 or 2
}

// DefaultConfig is the configuration of a book imported without one:
// strict mode, no edits, as batch screens by default.
var DefaultConfig = Config{Match: "strict", Fuzzy: 0}

// Validate checks the match mode and fuzziness.
func (c Config) Validate() error {
	if _, err := query.ParseMatch(c.Match); err != nil {
		return fmt.Errorf("match: %q is not strict or scored", c.Match)
	}
	if c.Fuzzy < 0 || c.Fuzzy > 2 {
		return fmt.Errorf("fuzzy: %d is not 0, 1 or 2", c.Fuzzy)
	}
	return nil
}

// Screener returns batch's screener for the book's configuration over
// index (nil to check rows only).
func (c Config) Screener(index *engine.Index) (*batch.Screener, error) {
	mode, err := query.ParseMatch(c.Match)
	if err != nil {
		return nil, err
	}
	return &batch.Screener{Index: index, Fuzzy: c.Fuzzy, Match: mode, DefaultKind: query.Any}, nil
}

// ImportResult describes an import: the diff it applied.
type ImportResult struct {
	At        time.Time `json:"at"`
	File      string    `json:"file"`
	Customers int       `json:"customers"`
	Added     int       `json:"added"`
	Changed   int       `json:"changed"`
	Removed   int       `json:"removed"`
	Unchanged int       `json:"unchanged"`
}

type meta struct {
	Config
	LastImport *ImportResult `json:"last_import,omitempty"`
}

// LastScreen is what the last change set screened against the book gave.
type LastScreen struct {
	Version string `json:"version"`
	Matches int    `json:"matches"`
	// Skipped counts the customers the screener rejected (left out of
	// the change set's screening); SkippedIDs are the first of them.
	Skipped    int      `json:"skipped"`
	SkippedIDs []string `json:"skipped_ids,omitempty"`
}

var lastScreenKey = []byte("last_screen")

// putLastScreen records ls in the book's meta bucket, in tx.
func putLastScreen(tx *store.Tx, ls LastScreen) error {
	mb, err := store.BookMeta.Create(tx)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(ls)
	if err != nil {
		return err
	}
	return mb.Put(lastScreenKey, raw)
}

// Status is what the book holds.
type Status struct {
	Customers  int           `json:"customers"`
	Match      string        `json:"match"`
	Fuzzy      int           `json:"fuzzy"`
	LastImport *ImportResult `json:"last_import,omitempty"`
	LastScreen *LastScreen   `json:"last_screen,omitempty"`
}

// ErrRejected is returned by Read when rows were rejected; nothing may be
// imported then.
var ErrRejected = errors.New("rows were rejected")

// Read reads every row of a book and checks it with batch's rules for the
// configuration, keeping the other columns when rd was made with
// batch.ReadOptions.KeepExtra: it returns the customers, or the rejected rows (by line
// and field) with ErrRejected. A customer id given twice is a reject.
func Read(rd *batch.Reader, cfg Config) ([]Customer, []batch.Reject, error) {
	sc, err := cfg.Screener(nil)
	if err != nil {
		return nil, nil, err
	}
	var out []Customer
	var rejects []batch.Reject
	seen := map[string]int{}
	for {
		row, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(out)+len(rejects) >= MaxCustomers {
			return nil, nil, fmt.Errorf("line %d: a book holds at most %d customers", row.Line, MaxCustomers)
		}
		if rej := sc.Check(row); rej != nil {
			rejects = append(rejects, *rej)
			continue
		}
		if first, dup := seen[row.ID]; dup {
			rejects = append(rejects, batch.Reject{Line: row.Line, CustomerID: row.ID, Field: batch.FieldID, Value: row.ID,
				Reason: fmt.Sprintf("id given twice (first on line %d)", first)})
			continue
		}
		seen[row.ID] = row.Line
		out = append(out, Customer{ID: row.ID, Name: row.Name, Type: row.Type, DOB: row.DOB, Gender: row.Gender, Citizenship: row.Citizenship, Extra: rd.Extra()})
	}
	if len(rejects) > 0 {
		return nil, rejects, ErrRejected
	}
	return out, nil, nil
}

// Import makes customers the book, with cfg, in one transaction, and
// returns the diff: customers added, changed (any value differs) and
// removed (absent from customers).
func Import(db *store.Store, customers []Customer, cfg Config, file string, now time.Time) (ImportResult, error) {
	res := ImportResult{At: now.UTC(), File: file, Customers: len(customers)}
	if err := cfg.Validate(); err != nil {
		return res, err
	}
	err := db.Write(func(tx *store.Tx) error {
		b, mb, err := buckets(tx)
		if err != nil {
			return err
		}
		keep := make(map[string]bool, len(customers))
		for i := range customers {
			c := &customers[i]
			keep[c.ID] = true
			raw, old, err := storedAs(b, c)
			if err != nil {
				return err
			}
			switch {
			case old == nil:
				res.Added++
			case string(old) == string(raw):
				res.Unchanged++
				continue
			default:
				res.Changed++
			}
			if err := b.Put([]byte(c.ID), raw); err != nil {
				return fmt.Errorf("customer %s: %w", c.ID, err)
			}
		}
		var gone [][]byte
		if err := b.ForEach(func(k, _ []byte) error {
			if !keep[string(k)] {
				gone = append(gone, slices.Clone(k))
			}
			return nil
		}); err != nil {
			return err
		}
		for _, k := range gone {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		res.Removed = len(gone)
		if _, err := b.NextSequence(); err != nil { // the book changed: see watcher
			return err
		}
		return putMeta(mb, meta{Config: cfg, LastImport: &res})
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import book: %w", err)
	}
	return res, nil
}

// Remove deletes the customers ids from the book in one transaction and
// returns the ids it did not hold.
func Remove(db *store.Store, ids []string) (missing []string, err error) {
	err = db.Write(func(tx *store.Tx) error {
		missing = missing[:0]
		b, _, err := buckets(tx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if b.Get([]byte(id)) == nil {
				missing = append(missing, id)
				continue
			}
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		_, err = b.NextSequence() // the book changed: see watcher
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("remove customers: %w", err)
	}
	return missing, nil
}

// ForEach calls fn with every customer, by id, in one read transaction.
func ForEach(db *store.Store, fn func(*Customer) error) error {
	return db.Read(func(tx *store.Tx) error { return forEachTx(tx, fn) })
}

func forEachTx(tx *store.Tx, fn func(*Customer) error) error {
	b := store.BookCustomers.Bucket(tx)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var c Customer
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("customer %s: %w", k, err)
		}
		return fn(&c)
	})
}

// LoadTx returns the book's customers, by id, and its configuration,
// read with tx, a read or write transaction of the store.
func LoadTx(tx *store.Tx) ([]Customer, Config, error) {
	var out []Customer
	err := forEachTx(tx, func(c *Customer) error {
		out = append(out, *c)
		return nil
	})
	if err != nil {
		return nil, Config{}, err
	}
	st, err := statusTx(tx)
	return out, Config{Match: st.Match, Fuzzy: st.Fuzzy}, err
}

// GetStatus returns the book's size, configuration and last import.
func GetStatus(db *store.Store) (st Status, err error) {
	err = db.Read(func(tx *store.Tx) error {
		st, err = statusTx(tx)
		return err
	})
	return st, err
}

func statusTx(tx *store.Tx) (Status, error) {
	st := Status{Match: DefaultConfig.Match, Fuzzy: DefaultConfig.Fuzzy}
	if b := store.BookCustomers.Bucket(tx); b != nil {
		st.Customers = b.KeyN()
	}
	mb := store.BookMeta.Bucket(tx)
	if mb == nil {
		return st, nil
	}
	if raw := mb.Get(lastScreenKey); raw != nil {
		var ls LastScreen
		if err := json.Unmarshal(raw, &ls); err != nil {
			return Status{}, fmt.Errorf("book status: %w", err)
		}
		st.LastScreen = &ls
	}
	raw := mb.Get(metaKey)
	if raw == nil {
		return st, nil
	}
	var m meta
	if err := json.Unmarshal(raw, &m); err != nil {
		return Status{}, fmt.Errorf("book status: %w", err)
	}
	st.Match, st.Fuzzy, st.LastImport = m.Match, m.Fuzzy, m.LastImport
	return st, nil
}

func buckets(tx *store.Tx) (*store.Bucket, *store.Bucket, error) {
	b, err := store.BookCustomers.Create(tx)
	if err != nil {
		return nil, nil, err
	}
	mb, err := store.BookMeta.Create(tx)
	return b, mb, err
}

// storedAs returns c encoded as the book stores it, and what b holds under
// its id (nil: nothing): the one comparison that says a customer is added,
// changed or unchanged, for Import and Onboard alike.
func storedAs(b *store.Bucket, c *Customer) (raw, old []byte, err error) {
	if raw, err = json.Marshal(c); err != nil {
		return nil, nil, err
	}
	if b != nil {
		old = b.Get([]byte(c.ID))
	}
	return raw, old, nil
}

func putMeta(mb *store.Bucket, m meta) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return mb.Put(metaKey, raw)
}
