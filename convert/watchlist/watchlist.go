package watchlist

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/table"
)

// WatchlistOptions says how to read a bank's own watchlist and what the
// records are.
type WatchlistOptions struct {
	// Read is how the file is read, as batch reads a customer book: its
	// format, delimiter, encoding and column mapping (--map).
	Read table.ReadOptions
	// SourceID and SourceType are those of every record; both required.
	SourceID, SourceType string
	// IDPrefix precedes the id column's value in the record id; the
	// default is SourceID + ":", so that the list's ids cannot collide
	// with those of any other source.
	IDPrefix *string
	// DefaultType is the entity_type of rows whose type column is empty
	// or absent: INDIVIDUAL, ENTITY or UNKNOWN (the default, which both
	// checkIndividual and checkEntity return).
	DefaultType string
}

// Watchlist reads a bank's own list of names (CSV with a header row or
// JSON Lines, read by package table, the reader batch reads books with) and calls
// emit with a record for every row that makes one, and reject for every
// row that does not, with its line, field, value and reason. It returns an
// error only when the file cannot be read at all (no name column, no id
// column, I/O) or emit or reject fail.
//
// A row becomes a record with id IDPrefix+id, the source's id and type,
// entity_type from the type column (individual, person, entity, company,
// … as batch reads it; vessel and aircraft too; empty: DefaultType), the
// name, dates of birth (several separated by ";"; the spellings batch
// reads, written dd/mm/yyyy), gender and citizenships (codes or English
// names, several separated by ";"). An entity's country goes to
// jurisdiction and its date, which books use for the date of
// registration, to other_information; its gender is ignored.
//
// A row is rejected for: no id, an id the consolidated-file rules refuse
// (letters, digits and -_.: only, 128 bytes), an id that an earlier row
// has, no name, a type, date, gender or country that cannot be read, or a
// row the reader could not read. The ids must be stable from one run to
// the next: import --merge replaces the records of the source by id, and
// an id that changes is a delete and an add.
func Watchlist(r io.Reader, o WatchlistOptions, emit func(*record.Record) error, reject func(table.Reject) error) error {
	if !conv.ValidID(o.SourceID) || strings.ContainsAny(o.SourceID, ".:") {
		return fmt.Errorf("source id %q: use letters, digits, _ and - only", o.SourceID)
	}
	if o.SourceType == "" {
		return errors.New("source type is required")
	}
	prefix := o.SourceID + ":"
	if o.IDPrefix != nil {
		prefix = *o.IDPrefix
	}
	defaultType := o.DefaultType
	if defaultType == "" {
		defaultType = record.EntityUnknown
	}
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "watchlist"))
	if err != nil {
		return err
	}
	br := bufio.NewReaderSize(in, 64<<10)
	ro := o.Read
	if ro.Format == table.AutoFormat {
		// Decided here rather than by the reader, because JSON Lines
		// needs its id key made explicit before reading.
		ro.Format = table.CSV
		head, _ := br.Peek(4096)
		if t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"); len(t) > 0 && t[0] == '{' {
			ro.Format = table.JSONL
		}
	}
	if ro.Format == table.JSONL {
		ro.Map = withID(ro.Map)
	}
	rd, err := table.NewReader(br, ro)
	if err != nil {
		return err
	}
	if _, ok := rd.Columns()[table.FieldID]; !ok && rd.Format() == table.CSV {
		return errors.New("no id column in the header: name one with --map id=COLUMN (ids must be stable, so that a later run replaces the same records)")
	}
	lineOf := map[string]int{}
	for {
		row, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec, rej := watchlistRecord(row, o, prefix, defaultType, lineOf)
		if rej != nil {
			if err := reject(*rej); err != nil {
				return err
			}
			continue
		}
		lineOf[rec.ID] = row.Line
		if err := emit(rec); err != nil {
			return err
		}
	}
}

// withID makes the id key of a JSON Lines watchlist explicit ("id" unless
// mapped), so that a row without one is rejected: batch numbers such rows,
// and a row number is no stable id.
func withID(m table.Mapping) table.Mapping {
	out := table.Mapping{}
	for k, v := range m {
		out[k] = v
	}
	if _, ok := out[table.FieldID]; !ok {
		out[table.FieldID] = []string{"id"}
	}
	return out
}

// watchlistRecord turns one row of an internal watchlist into a record,
// or a reject naming the field that cannot be read.
// It is long on purpose: it maps the format's fields in the format's own
// order, a short block each, so that it can be checked against the
// format's documentation from top to bottom.
func watchlistRecord(row *table.Row, o WatchlistOptions, prefix, defaultType string, lineOf map[string]int) (*record.Record, *table.Reject) {
	reject := func(field, value, reason string) (*record.Record, *table.Reject) {
		return nil, &table.Reject{Line: row.Line, CustomerID: row.ID, Field: field, Value: value, Reason: reason}
	}
	if row.Reject != nil {
		r := *row.Reject
		if r.CustomerID == "" {
			r.CustomerID = row.ID
		}
		return nil, &r
	}
	raw := strings.TrimSpace(row.ID)
	if raw == "" {
		return reject(table.FieldID, "", "missing id")
	}
	id := prefix + raw
	if !conv.ValidID(id) {
		return reject(table.FieldID, raw, fmt.Sprintf("the record id %q is not 1 to %d bytes of letters, digits, '-', '_', '.' and ':'", id, conv.MaxIDLen))
	}
	if line, dup := lineOf[id]; dup {
		return reject(table.FieldID, raw, fmt.Sprintf("id already used on line %d", line))
	}
	name := strings.TrimSpace(row.Name)
	if name == "" {
		return reject(table.FieldName, "", "missing name")
	}
	r := &record.Record{ID: id, SourceID: o.SourceID, SourceType: o.SourceType, Name: name}
	switch t := strings.ToLower(strings.TrimSpace(row.Type)); t {
	case "":
		r.EntityType = defaultType
	case "vessel", "ship":
		r.EntityType = record.EntityVessel
	case "aircraft", "plane":
		r.EntityType = record.EntityAircraft
	default:
		kind, ok := table.ParseType(t, query.Any)
		if !ok {
			return reject(table.FieldType, row.Type, fmt.Sprintf("%q is not individual, entity, vessel, aircraft or unknown", row.Type))
		}
		switch kind {
		case query.Individual:
			r.EntityType = record.EntityIndividual
		case query.Entity:
			r.EntityType = record.EntityEntity
		default:
			r.EntityType = record.EntityUnknown
		}
	}
	individual := r.EntityType == record.EntityIndividual || r.EntityType == record.EntityUnknown
	for _, d := range splitAny(row.DOB, ";|") {
		if !individual {
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Date "+d)
			continue
		}
		v, err := table.NormalizeDOB(d)
		if err != nil {
			return reject(table.FieldDOB, row.DOB, err.Error())
		}
		r.DateOfBirth = conv.AppendUnique(r.DateOfBirth, v)
	}
	if individual {
		g, ok := table.NormalizeGender(row.Gender)
		if !ok {
			return reject(table.FieldGender, row.Gender, fmt.Sprintf("%q is not male or female", row.Gender))
		}
		switch g {
		case "male":
			r.Gender = record.GenderMale
		case "female":
			r.Gender = record.GenderFemale
		default:
			if r.EntityType == record.EntityIndividual {
				r.Gender = record.GenderUnknown
			}
		}
	}
	for _, c := range splitAny(row.Citizenship, ";,/|") {
		code, ok := country.Code(c)
		if !ok {
			return reject(table.FieldCitizenship, row.Citizenship, fmt.Sprintf("%q is not an ISO 3166-1 country code or country name", c))
		}
		if individual {
			r.Citizenship = conv.AppendUnique(r.Citizenship, code)
		} else {
			r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, code)
		}
	}
	return r, nil
}

// splitAny cuts s at any of the separators and returns the trimmed,
// non-empty parts.
func splitAny(s, seps string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
