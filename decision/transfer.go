package decision

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/internal/csvsafe"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Format is the shape of an export or import file.
type Format uint8

const (
	// CSV is a header row and one row per decision, columns as Columns.
	CSV Format = iota
	// JSONL is one JSON object per decision, keys as the CSV header.
	JSONL
)

// ParseFormat reads csv or jsonl.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson":
		return JSONL, nil
	}
	return CSV, fmt.Errorf("%q is not csv or jsonl", s)
}

// Columns is the header of an exported CSV file. An import reads the same
// columns (seq and current are ignored there: they are assigned) plus
// "key", a key's name instead of its id.
var Columns = []string{"seq", "owner", "subject", "record_id", "status", "note", "decided_by", "decided_at",
	"fingerprint", "identity_fingerprint", "current"}

// exported is the JSONL form of a decision in an export.
type exported struct {
	Decision
	Current bool `json:"current"`
}

// Export writes the audit trail of owner ("" for every owner) to w in
// format f, grouped by owner, subject and record, oldest first within a
// group, each row saying whether it is the current decision. It returns the
// number of decisions written.
func (b *Book) Export(w io.Writer, owner string, f Format) (int, error) {
	n := 0
	bw := bufio.NewWriter(w)
	cw := csvsafe.NewWriter(bw) // cells a spreadsheet would run as formulas are quoted
	if f == CSV {
		if err := cw.Write(Columns); err != nil {
			return 0, err
		}
	}
	err := b.Each(owner, func(d Decision, current bool) error {
		n++
		if f == JSONL {
			v, err := json.Marshal(exported{d, current})
			if err != nil {
				return err
			}
			bw.Write(v)
			return bw.WriteByte('\n')
		}
		return cw.Write([]string{strconv.FormatUint(d.Seq, 10), d.Owner, d.Subject, d.RecordID, d.Status, d.Note,
			d.Who, d.At.UTC().Format(time.RFC3339), d.Fingerprint, d.IdentityFingerprint, strconv.FormatBool(current)})
	})
	if err != nil {
		return n, fmt.Errorf("export decisions: %w", err)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// Limits of an import file, checked while reading, before anything is
// stored: far above a spreadsheet of decisions, far below what would make
// one transaction hold the store's writer for long.
const (
	MaxImportBytes = 64 << 20
	MaxImportRows  = 1_000_000
	maxImportLine  = 1 << 20
)

// Owner is an API key as an import resolves it.
type Owner struct {
	ID   string // the key id decisions are stored under
	Name string // the key's name: the default decided_by
}

// ImportOptions says how to complete the rows of an import file.
type ImportOptions struct {
	// Key resolves the "key" column (a key's name); nil refuses the
	// column.
	Key func(name string) (Owner, bool)
	// Default is the owner of rows that name none (--key); nil requires
	// every row to name one.
	Default *Owner
	// Pin, when set, completes a row without fingerprints with those of
	// the record as it is now (for decisions from a spreadsheet, which
	// has none); it returns nil for a record the store does not hold.
	// When nil such rows are refused.
	Pin func(recordID string) (*record.Record, error)
	// Now is the decided_at of rows without one; zero means time.Now.
	Now time.Time
}

// ReadImport reads an import file, CSV with a header row or JSON Lines
// (told apart by the first character: '{' is JSON Lines), and returns its
// decisions, complete and valid, in file order. The first bad row stops it
// with an error naming its line and field; nothing is returned then, so a
// caller stores all of a file or none of it.
func ReadImport(r io.Reader, o ImportOptions) ([]Decision, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	lim := &io.LimitedReader{R: r, N: MaxImportBytes + 1}
	br := bufio.NewReaderSize(lim, 64<<10)
	// A byte-order mark is what spreadsheets put first.
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	first, err := firstByte(br)
	if err != nil {
		return nil, err
	}
	var rows []Decision
	add := func(line int, f rowFields) error {
		if len(rows) == MaxImportRows {
			return fmt.Errorf("line %d: more than %d decisions in one file: split it", line, MaxImportRows)
		}
		d, err := f.complete(o)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		rows = append(rows, d)
		return nil
	}
	if first == '{' {
		err = readJSONL(br, add)
	} else {
		err = readCSV(br, add)
	}
	if lim.N <= 0 {
		return nil, fmt.Errorf("the file is larger than %d MiB: split it", MaxImportBytes>>20)
	}
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("the file holds no decisions")
	}
	return rows, nil
}

func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return 0, errors.New("the file is empty")
		}
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.Discard(1)
			continue
		}
		return b[0], nil
	}
}

// rowFields are the values of one import row, by column name.
type rowFields map[string]string

// importColumns are the columns an import reads; seq and current are read
// and ignored, so that an export imports as it is.
var importColumns = []string{"seq", "owner", "key", "subject", "record_id", "status", "note", "decided_by", "decided_at",
	"fingerprint", "identity_fingerprint", "current"}

func readCSV(r io.Reader, add func(int, rowFields) error) error {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("line 1: header: %w", err)
	}
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		c := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(importColumns, c) {
			return fmt.Errorf("line 1: unknown column %s (columns: %s)", quote(h), strings.Join(importColumns, ", "))
		}
		if seen[c] {
			return fmt.Errorf("line 1: column %s given twice", c)
		}
		seen[c] = true
		cols[i] = c
	}
	for _, req := range []string{"subject", "record_id", "status"} {
		if !seen[req] {
			return fmt.Errorf("line 1: the header has no %s column", req)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("line %d: %v", pe.StartLine, pe.Err)
			}
			return err
		}
		line, _ := cr.FieldPos(0)
		f := rowFields{}
		blank := true
		for i, v := range rec {
			v = csvsafe.Unquote(v) // an export's quoted cells read back as they were
			f[cols[i]] = v
			if strings.TrimSpace(v) != "" {
				blank = false
			}
		}
		if blank {
			continue
		}
		if err := add(line, f); err != nil {
			return err
		}
	}
}

func readJSONL(r io.Reader, add func(int, rowFields) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxImportLine)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(text, &m); err != nil {
			return fmt.Errorf("line %d: not a JSON object: %v", line, err)
		}
		f := rowFields{}
		for k, v := range m {
			if !slices.Contains(importColumns, k) {
				return fmt.Errorf("line %d: unknown key %s (keys: %s)", line, quote(k), strings.Join(importColumns, ", "))
			}
			switch k {
			case "seq", "current":
				continue
			}
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("line %d: %s: not a string", line, k)
			}
			f[k] = s
		}
		if err := add(line, f); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d: longer than %d bytes", line+1, maxImportLine)
		}
		return err
	}
	return nil
}

// complete turns a row into a valid decision: its owner resolved, its
// defaults filled in, its fingerprints given or pinned.
func (f rowFields) complete(o ImportOptions) (Decision, error) {
	d := Decision{
		Subject:             f["subject"],
		RecordID:            strings.TrimSpace(f["record_id"]),
		Note:                f["note"],
		Who:                 strings.TrimSpace(f["decided_by"]),
		Fingerprint:         strings.ToLower(strings.TrimSpace(f["fingerprint"])),
		IdentityFingerprint: strings.ToLower(strings.TrimSpace(f["identity_fingerprint"])),
	}
	owner, key := strings.TrimSpace(f["owner"]), strings.TrimSpace(f["key"])
	var who string
	switch {
	case key != "":
		if o.Key == nil {
			return d, &FieldError{Field: "key", Msg: "naming keys needs the keys file (--keys)"}
		}
		k, ok := o.Key(key)
		if !ok {
			return d, &FieldError{Field: "key", Msg: fmt.Sprintf("no key named %s in the keys file", quote(key))}
		}
		if owner != "" && owner != k.ID {
			return d, &FieldError{Field: "owner", Msg: fmt.Sprintf("%s is not the id of key %s", quote(owner), quote(key))}
		}
		d.Owner, who = k.ID, k.Name
	case owner != "":
		d.Owner = owner
		if o.Default != nil && o.Default.ID == owner {
			who = o.Default.Name
		}
	case o.Default != nil:
		d.Owner, who = o.Default.ID, o.Default.Name
	default:
		return d, &FieldError{Field: "owner", Msg: "required: give an owner or key column, or --key for the whole file"}
	}
	if d.Who == "" {
		d.Who = who
	}
	st, err := ParseStatus(f["status"])
	if err != nil {
		return d, err
	}
	d.Status = st
	if at := strings.TrimSpace(f["decided_at"]); at != "" {
		t, err := parseTime(at)
		if err != nil {
			return d, &FieldError{Field: "decided_at", Msg: err.Error()}
		}
		d.At = t
	} else {
		d.At = o.Now.UTC()
	}
	switch {
	case d.Fingerprint == "" && d.IdentityFingerprint == "":
		if o.Pin == nil {
			return d, &FieldError{Field: "fingerprint", Msg: "missing: give fingerprint and identity_fingerprint, or import with --pin-current to take them from the record as it is now"}
		}
		if err := record.ValidID(d.RecordID); err != nil {
			return d, &FieldError{Field: "record_id", Msg: err.Error()}
		}
		r, err := o.Pin(d.RecordID)
		if err != nil {
			return d, err
		}
		if r == nil {
			return d, &FieldError{Field: "record_id", Msg: fmt.Sprintf("no record %s in the store to take fingerprints from", quote(d.RecordID))}
		}
		d.Fingerprint, d.IdentityFingerprint = Content(r), Identity(r)
	case d.Fingerprint == "" || d.IdentityFingerprint == "":
		return d, &FieldError{Field: "fingerprint", Msg: "give both fingerprint and identity_fingerprint, or neither"}
	}
	if err := d.Validate(); err != nil {
		return d, err
	}
	return d, nil
}

// parseTime reads RFC 3339 or a date (yyyy-mm-dd, midnight UTC).
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%s is not a time (2006-01-02T15:04:05Z) or a date (2006-01-02)", quote(s))
}

// ImportResult counts what an import did.
type ImportResult struct {
	// Stored decisions were added to the audit trail.
	Stored int
	// Duplicates were already in it (same owner, subject, record, status,
	// note, decided_by, decided_at and fingerprints), from an earlier
	// import of the same file, and were not added again.
	Duplicates int
}

// Import stores ds in one transaction: all of them or, on an error, none.
// Each is validated first. Decisions already in the audit trail are
// skipped, so importing a file twice stores it once.
func (b *Book) Import(ds []Decision) (ImportResult, error) {
	var res ImportResult
	for i := range ds {
		ds[i].At = ds[i].At.UTC()
		if err := ds[i].Validate(); err != nil {
			return res, fmt.Errorf("decision %d: %w", i+1, err)
		}
	}
	err := b.db.Write(func(tx *store.Tx) error {
		res = ImportResult{}
		bk, err := store.Decisions.Create(tx)
		if err != nil {
			return err
		}
		for _, d := range ds {
			dup := false
			err := walk(tx, prefixOf(historyTag, d.Owner, d.Subject, d.RecordID), func(_ []byte, h Decision) error {
				dup = dup || sameDecision(h, d)
				return nil
			})
			if err != nil {
				return err
			}
			if dup {
				res.Duplicates++
				continue
			}
			d.Seq = 0
			if _, err := put(bk, d); err != nil {
				return err
			}
			res.Stored++
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import decisions: %w", err)
	}
	return res, nil
}

// sameDecision reports whether a and b record the same decision, their
// place in the audit trail aside.
func sameDecision(a, b Decision) bool {
	return a.Owner == b.Owner && a.Subject == b.Subject && a.RecordID == b.RecordID && a.Status == b.Status &&
		a.Note == b.Note && a.Who == b.Who && a.At.Equal(b.At) &&
		a.Fingerprint == b.Fingerprint && a.IdentityFingerprint == b.IdentityFingerprint
}
