package table

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// InputFormat is the shape of a customer book.
type InputFormat uint8

const (
	// AutoFormat reads JSON Lines when the first non-blank byte opens a
	// JSON object, CSV otherwise.
	AutoFormat InputFormat = iota
	// CSV is delimited text with a header row.
	CSV
	// JSONL is one JSON object per line.
	JSONL
)

// String returns the name ParseInputFormat reads.
func (f InputFormat) String() string {
	switch f {
	case CSV:
		return "csv"
	case JSONL:
		return "jsonl"
	}
	return "auto"
}

// ParseInputFormat reads csv, jsonl (or ndjson) and auto ("" too).
func ParseInputFormat(s string) (InputFormat, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return AutoFormat, nil
	case "csv", "tsv", "txt":
		return CSV, nil
	case "jsonl", "ndjson", "json":
		return JSONL, nil
	}
	return AutoFormat, fmt.Errorf("%q is not csv or jsonl", s)
}

// FormatOf guesses a book's format from its file name (a .gz suffix is
// looked through); AutoFormat when the name says nothing.
func FormatOf(path string) InputFormat {
	ext := strings.ToLower(filepath.Ext(strings.TrimSuffix(strings.ToLower(path), ".gz")))
	switch ext {
	case ".csv", ".tsv", ".txt", ".psv":
		return CSV
	case ".jsonl", ".ndjson", ".json":
		return JSONL
	}
	return AutoFormat
}

// Encoding is how the bytes of a book are turned into text.
type Encoding uint8

const (
	// AutoEncoding reads UTF-8 (a byte-order mark is skipped; one of UTF-16
	// switches to UTF-16) and reads any value that is not valid UTF-8 as
	// Windows-1252. Deciding per value rather than per file keeps reading
	// streamed, and copes with books whose rows were exported by different
	// systems.
	AutoEncoding Encoding = iota
	// UTF8 is strict: a row with bytes that are not UTF-8 is rejected.
	UTF8
	// Latin1 reads every value as Windows-1252, the superset of ISO-8859-1
	// that "Latin-1" files exported on Windows really are.
	Latin1
	// UTF16 reads UTF-16, little-endian unless a byte-order mark says
	// otherwise (Excel's "Unicode text").
	UTF16
)

// String returns the name ParseEncoding reads.
func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case Latin1:
		return "latin1"
	case UTF16:
		return "utf-16"
	}
	return "auto"
}

// ParseEncoding reads auto, utf-8, latin1 (iso-8859-1, windows-1252,
// cp1252) and utf-16.
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "_", "-")) {
	case "", "auto":
		return AutoEncoding, nil
	case "utf-8", "utf8":
		return UTF8, nil
	case "latin1", "latin-1", "iso-8859-1", "iso8859-1", "windows-1252", "cp1252":
		return Latin1, nil
	case "utf-16", "utf16", "utf-16le", "ucs-2":
		return UTF16, nil
	}
	return AutoEncoding, fmt.Errorf("%q is not auto, utf-8, latin1 or utf-16", s)
}

// ReadOptions says how to read a book. The zero value detects everything.
type ReadOptions struct {
	Format InputFormat
	// Delimiter separates CSV fields; 0 detects it from the header among
	// comma, semicolon, tab and pipe.
	Delimiter rune
	Encoding  Encoding
	// Map names the columns (CSV) or keys (JSONL) of each field; fields it
	// leaves out are found by their usual header names.
	Map Mapping
	// KeepExtra keeps the values of the columns (keys) no field is read
	// from, for Reader.Extra: whoever keeps the book (package book) keeps
	// them for the report.
	KeepExtra bool
}

// The fields of a customer that a book's columns map to.
const (
	FieldID          = "id"
	FieldName        = "name"
	FieldType        = "type"
	FieldDOB         = "dob"
	FieldGender      = "gender"
	FieldCitizenship = "citizenship"
)

// fields lists them in the order the Row holds them.
var fields = []string{FieldID, FieldName, FieldType, FieldDOB, FieldGender, FieldCitizenship}

// Mapping names, for each field, the columns it is read from. Several
// columns are joined with a space, so that name=first_name+last_name
// screens the whole name.
type Mapping map[string][]string

// defaultColumns are the header names each field is found under when the
// mapping does not name it, normalised by headerKey, in order of
// preference.
var defaultColumns = map[string][]string{
	FieldID:          {"id", "customerid", "clientid", "customerno", "customernumber", "clientnumber", "partyid", "accountid", "reference", "ref"},
	FieldName:        {"name", "fullname", "customername", "clientname", "legalname", "partyname", "accountname"},
	FieldType:        {"type", "entitytype", "customertype", "clienttype", "partytype"},
	FieldDOB:         {"dob", "dateofbirth", "birthdate", "birthday", "born"},
	FieldGender:      {"gender", "sex"},
	FieldCitizenship: {"citizenship", "nationality", "citizenshipcountry", "nationalitycode", "citizenshipcode"},
}

// Without a name column, a book with given and last names is screened on
// both: the shape most core-banking exports have.
var (
	givenColumns  = []string{"firstname", "givenname", "givennames", "forename", "forenames"}
	middleColumns = []string{"middlename", "middlenames"}
	lastColumns   = []string{"lastname", "surname", "familyname"}
)

// ParseMapping reads --map: comma-separated field=COLUMN pairs, where
// COLUMN may join several columns with +. Fields are id, name, type, dob,
// gender and citizenship.
func ParseMapping(s string) (Mapping, error) {
	m := Mapping{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		field, cols, ok := strings.Cut(part, "=")
		field = strings.ToLower(strings.TrimSpace(field))
		if !ok || strings.TrimSpace(cols) == "" {
			return nil, fmt.Errorf("%q is not field=COLUMN", part)
		}
		if !slices.Contains(fields, field) {
			return nil, fmt.Errorf("%q is not a field: use %s", field, strings.Join(fields, ", "))
		}
		if _, dup := m[field]; dup {
			return nil, fmt.Errorf("%s is mapped twice", field)
		}
		for _, c := range strings.Split(cols, "+") {
			if c = strings.TrimSpace(c); c == "" {
				return nil, fmt.Errorf("%q has an empty column name", part)
			}
			m[field] = append(m[field], c)
		}
	}
	return m, nil
}

// String writes the mapping back in --map syntax, fields in a fixed order.
func (m Mapping) String() string {
	var parts []string
	for _, f := range fields {
		if cols, ok := m[f]; ok {
			parts = append(parts, f+"="+strings.Join(cols, "+"))
		}
	}
	return strings.Join(parts, ",")
}

// headerKey normalises a column name for matching: "Customer ID",
// "customer_id" and "CUSTOMER-ID" are one key.
func headerKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '\ufeff' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ErrNoRows is the error of a run over a book without a single customer
// row: empty, a header alone, or blank lines.
var ErrNoRows = errors.New("the book has no rows to screen")

// Row is one customer of a book, with its values as written.
type Row struct {
	// Index counts the book's data rows from 0, in input order; shards and
	// checkpoints refer to rows by it.
	Index int64
	// Line is the 1-based line of the input the row starts on.
	Line                                     int
	ID, Name, Type, DOB, Gender, Citizenship string
	// Reject is set when the row could not be read at all.
	Reject *Reject
}

// Reject is an input row that was not screened, and why.
type Reject struct {
	Line       int    `json:"line"`
	CustomerID string `json:"customer_id"`
	// Field is the field at fault (name, dob, citizenship, type, gender)
	// or "row" when the row as a whole is unreadable.
	Field  string `json:"field"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// Reader streams the rows of a customer book, CSV with a header row or
// JSON Lines, plain or gzip-compressed. Memory is one row at a time,
// whatever the size of the book.
type Reader struct {
	format InputFormat
	enc    Encoding
	dec    *encoding.Decoder // Windows-1252
	delim  rune

	cols [][]int // per field, the CSV column indexes joined
	// fields is the row being split, reused from line to line.
	fields []string
	// noID: the book has no id column; rows are then identified by their
	// number.
	noID   bool
	header []string

	br     *bufio.Reader
	line   int // physical lines read, the header included
	blank  int // blank lines skipped
	buf    []byte
	keys   [][]string // JSONL: per field, candidate keys in order
	mapped Mapping

	index int64

	keepExtra bool
	extra     []int             // CSV: the columns no field is read from
	lastExtra map[string]string // the other values of the row Next returned last
}

// Extra returns the non-empty values of the columns (JSON keys) no field
// is read from, by header name (key), of the row Next returned last; nil
// unless ReadOptions.KeepExtra asked for them or when there are none.
func (rd *Reader) Extra() map[string]string { return rd.lastExtra }

func (rd *Reader) addExtra(k, v string) {
	if rd.lastExtra == nil {
		rd.lastExtra = map[string]string{}
	}
	rd.lastExtra[k] = v
}

// maxLine bounds a JSON line, so that a file that is not JSON Lines cannot
// make a row of gigabytes.
const maxLine = 1 << 20

// NewReader returns a Reader over r. For CSV it reads the header and
// resolves the mapping, so a book without a name column fails here, before
// any work is done.
func NewReader(r io.Reader, o ReadOptions) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip header: %w", err)
		}
		br = bufio.NewReaderSize(gz, 64<<10)
	}
	enc := o.Encoding
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte{0xef, 0xbb, 0xbf}):
		br.Discard(3)
		if enc == AutoEncoding {
			// A byte-order mark says UTF-8 as plainly as a file can.
			enc = UTF8
		}
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}), bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		if enc == AutoEncoding || enc == UTF16 {
			enc = UTF16
		}
	}
	if enc == UTF16 {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		br = bufio.NewReaderSize(transform.NewReader(br, dec), 64<<10)
		enc = UTF8 // the decoder's output is UTF-8
	}
	rd := &Reader{format: o.Format, enc: enc, dec: charmap.Windows1252.NewDecoder(), br: br, mapped: o.Map, keepExtra: o.KeepExtra}
	if rd.format == AutoFormat {
		rd.format = sniffFormat(br)
	}
	if rd.format == JSONL {
		rd.resolveKeys()
		return rd, nil
	}
	rd.delim = o.Delimiter
	if rd.delim == 0 {
		rd.delim = sniffDelimiter(br)
	}
	if rd.delim == '"' || rd.delim == '\r' || rd.delim == '\n' || !utf8.ValidRune(rd.delim) {
		return nil, fmt.Errorf("delimiter %q cannot separate CSV fields", rd.delim)
	}
	hdrLine, long, err := rd.readLine()
	for err == nil && !long && len(bytes.TrimSpace(hdrLine)) == 0 {
		rd.blank++ // blank lines before the header
		hdrLine, long, err = rd.readLine()
	}
	if err == io.EOF {
		return nil, fmt.Errorf("%w: the book is empty, not even a header row", ErrNoRows)
	}
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if long {
		return nil, fmt.Errorf("header (line %d): longer than %d bytes", rd.line, maxLine)
	}
	hdr, err := splitCSV(string(hdrLine), rd.delim, nil)
	if err != nil {
		return nil, fmt.Errorf("header (line %d): %w", rd.line, err)
	}
	rd.header = make([]string, len(hdr))
	for i, h := range hdr {
		rd.header[i] = strings.TrimSpace(rd.text(h))
	}
	if err := rd.checkHeader(); err != nil {
		return nil, err
	}
	if err := rd.resolveColumns(); err != nil {
		return nil, err
	}
	return rd, nil
}

// errUnclosedQuote is the reason for a line whose quoted value does not
// end on it.
var errUnclosedQuote = errors.New(`a quoted value is not closed on this line (values are not read across lines: a stray " or a line break inside a value)`)

// splitCSV splits one physical line into its fields, appending to
// fields[:0]. A value that starts with a double quote is quoted: it ends
// at a quote followed by the delimiter or the end of the line, and "" in
// it is one quote; any other quote is kept as text, inside a quoted value
// or not, since exports from core systems carry stray quotes in names
// (O"Brien). A quoted value that does not end on its line is an error: a
// book is read line by line, so that one stray quote can never swallow
// the rows after it, as a CSV parser reading across lines would.
func splitCSV(line string, delim rune, fields []string) ([]string, error) {
	fields = fields[:0]
	d := string(delim)
	for {
		if !strings.HasPrefix(line, `"`) {
			i := strings.Index(line, d)
			if i < 0 {
				return append(fields, line), nil
			}
			fields = append(fields, line[:i])
			line = line[i+len(d):]
			continue
		}
		// A quoted value.
		var b strings.Builder
		rest := line[1:]
		for {
			i := strings.IndexByte(rest, '"')
			if i < 0 {
				return fields, errUnclosedQuote
			}
			b.WriteString(rest[:i])
			rest = rest[i+1:]
			switch {
			case strings.HasPrefix(rest, `"`):
				b.WriteByte('"')
				rest = rest[1:]
				continue
			case rest == "":
				return append(fields, b.String()), nil
			case strings.HasPrefix(rest, d):
				fields = append(fields, b.String())
				line = rest[len(d):]
			default:
				b.WriteByte('"') // a stray quote inside the value
				continue
			}
			break
		}
	}
}

// checkHeader refuses a header that names a column twice: which of the
// two a field would be read from is a guess, and a guess about the name
// column is a silent miss. Names are compared as the columns are matched
// (headerKey), so "Customer ID" and "customer_id" are one name.
func (rd *Reader) checkHeader() error {
	seen := map[string]int{}
	var dups []string
	for i, h := range rd.header {
		k := headerKey(h)
		if k == "" {
			if h == "" {
				continue // unnamed columns cannot be mapped, so cannot be confused
			}
			k = "\x00" + h
		}
		if j, ok := seen[k]; ok {
			dups = append(dups, fmt.Sprintf("%q (columns %d and %d)", h, j+1, i+1))
			continue
		}
		seen[k] = i
	}
	if len(dups) > 0 {
		return fmt.Errorf("the header names a column twice: %s; rename one of them", strings.Join(dups, ", "))
	}
	return nil
}

// peekUntil peeks at the input until stop says the bytes seen suffice, the
// input ends or limit bytes are buffered. It asks for one byte more than
// is buffered at a time, so that on a pipe it waits only for data that is
// needed, never for a full buffer that may not come.
func peekUntil(br *bufio.Reader, limit int, stop func([]byte) bool) []byte {
	for {
		if head, _ := br.Peek(min(limit, br.Buffered())); len(head) > 0 && (stop(head) || len(head) >= limit) {
			return head
		}
		head, err := br.Peek(min(limit, br.Buffered()+1))
		if stop(head) || err != nil || len(head) >= limit {
			return head
		}
	}
}

// sniffFormat tells JSON Lines from CSV by the first non-blank byte.
func sniffFormat(br *bufio.Reader) InputFormat {
	head := peekUntil(br, 4096, func(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\n")) > 0 })
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return JSONL
	}
	return CSV
}

// sniffDelimiter picks the candidate that occurs most often, outside
// quotes, in the header line; a one-column book gets a comma.
func sniffDelimiter(br *bufio.Reader) rune {
	head := peekUntil(br, 64<<10, func(b []byte) bool { return bytes.ContainsAny(b, "\r\n") })
	if i := bytes.IndexAny(head, "\r\n"); i >= 0 {
		head = head[:i]
	}
	cands := []byte{',', ';', '\t', '|'}
	counts := make([]int, len(cands))
	quoted := false
	for _, c := range head {
		if c == '"' {
			quoted = !quoted
			continue
		}
		if quoted {
			continue
		}
		if i := bytes.IndexByte(cands, c); i >= 0 {
			counts[i]++
		}
	}
	best := 0
	for i := range cands {
		if counts[i] > counts[best] {
			best = i
		}
	}
	return rune(cands[best])
}

// resolveColumns finds the columns of every field in the CSV header.
func (rd *Reader) resolveColumns() error {
	byKey := map[string]int{}
	byName := map[string]int{}
	for i, h := range rd.header {
		if _, ok := byName[h]; !ok {
			byName[h] = i
		}
		if k := headerKey(h); k != "" {
			if _, ok := byKey[k]; !ok {
				byKey[k] = i
			}
		}
	}
	find := func(col string) (int, bool) {
		if i, ok := byName[col]; ok {
			return i, true
		}
		i, ok := byKey[headerKey(col)]
		return i, ok
	}
	rd.cols = make([][]int, len(fields))
	for fi, f := range fields {
		if cols, ok := rd.mapped[f]; ok {
			for _, c := range cols {
				i, ok := find(c)
				if !ok {
					return fmt.Errorf("--map %s=%s: no column %q in the header (%s)", f, strings.Join(cols, "+"), c, rd.headerList())
				}
				rd.cols[fi] = append(rd.cols[fi], i)
			}
			continue
		}
		for _, k := range defaultColumns[f] {
			if i, ok := byKey[k]; ok {
				rd.cols[fi] = []int{i}
				break
			}
		}
	}
	if name := rd.cols[1]; len(name) == 0 {
		first := func(keys []string) (int, bool) {
			for _, k := range keys {
				if i, ok := byKey[k]; ok {
					return i, true
				}
			}
			return 0, false
		}
		g, okG := first(givenColumns)
		l, okL := first(lastColumns)
		if !okG || !okL {
			return fmt.Errorf("no name column in the header (%s): name one with --map name=COLUMN, or name=FIRST+LAST", rd.headerList())
		}
		rd.cols[1] = []int{g}
		if m, ok := first(middleColumns); ok {
			rd.cols[1] = append(rd.cols[1], m)
		}
		rd.cols[1] = append(rd.cols[1], l)
	}
	rd.noID = len(rd.cols[0]) == 0
	used := map[int]bool{}
	for _, cols := range rd.cols {
		for _, c := range cols {
			used[c] = true
		}
	}
	for i := range rd.header {
		if !used[i] && rd.header[i] != "" {
			rd.extra = append(rd.extra, i)
		}
	}
	return nil
}

func (rd *Reader) headerList() string {
	q := make([]string, len(rd.header))
	for i, h := range rd.header {
		q[i] = fmt.Sprintf("%q", h)
	}
	return strings.Join(q, ", ")
}

// resolveKeys sets the JSON keys each field is read from: the mapped ones,
// or the usual names.
func (rd *Reader) resolveKeys() {
	rd.keys = make([][]string, len(fields))
	for fi, f := range fields {
		if cols, ok := rd.mapped[f]; ok {
			for _, c := range cols {
				rd.keys[fi] = append(rd.keys[fi], headerKey(c))
			}
			continue
		}
		rd.keys[fi] = defaultColumns[f]
	}
}

// Columns reports, for a CSV book, which header columns each field is read
// from, in --map syntax; for JSON Lines the keys looked for.
func (rd *Reader) Columns() Mapping {
	m := Mapping{}
	for fi, f := range fields {
		if rd.format == JSONL {
			if _, ok := rd.mapped[f]; ok {
				m[f] = rd.mapped[f]
			}
			continue
		}
		for _, i := range rd.cols[fi] {
			m[f] = append(m[f], rd.header[i])
		}
	}
	return m
}

// Format returns the format being read, once detected.
func (rd *Reader) Format() InputFormat { return rd.format }

// Delimiter returns the CSV delimiter in use (0 for JSON Lines).
func (rd *Reader) Delimiter() rune { return rd.delim }

// Encoding returns the encoding in use after looking at the first bytes:
// a byte-order mark turns AutoEncoding into UTF8.
func (rd *Reader) Encoding() Encoding { return rd.enc }

// text turns a value's bytes into UTF-8 per the encoding. A UTF8 reader
// leaves invalid bytes for the caller to reject.
func (rd *Reader) text(s string) string {
	switch rd.enc {
	case Latin1:
		if isASCII(s) {
			return s
		}
	case AutoEncoding:
		if utf8.ValidString(s) {
			return s
		}
	default:
		return s
	}
	out, err := rd.dec.String(s)
	if err != nil {
		return s // Windows-1252 maps every byte; this does not happen
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Next returns the next row, or io.EOF after the last. Every physical line
// of the book is the header, a blank line (skipped, counted in
// BlankLines) or a row: rows that cannot be read (an unclosed quote, more
// or fewer values than the header has columns, bad JSON, bytes that are
// not UTF-8 under a strict encoding, a line over 1 MiB) come back with
// Reject set and their line, so that nothing is skipped silently. Only
// I/O errors are returned as errors.
func (rd *Reader) Next() (*Row, error) {
	rd.lastExtra = nil
	if rd.format == JSONL {
		return rd.nextJSON()
	}
	for {
		raw, long, err := rd.readLine()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, fmt.Errorf("read line %d: %w", rd.line+1, err)
		}
		line := rd.line
		if long {
			row := rd.newRow(line)
			row.Reject = &Reject{Line: line, Field: "row", Reason: fmt.Sprintf("line longer than %d bytes", maxLine)}
			return row, nil
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			rd.blank++
			continue
		}
		rec, err := splitCSV(string(raw), rd.delim, rd.fields)
		rd.fields = rec
		if err != nil {
			row := rd.newRow(line)
			row.Reject = &Reject{Line: line, CustomerID: rd.idOf(rec), Field: "row", Value: clip(rd.text(string(raw)), 80), Reason: err.Error()}
			return row, nil
		}
		if blank(rec) {
			rd.blank++ // only delimiters: an empty row of a spreadsheet
			continue
		}
		row := rd.newRow(line)
		// Trailing delimiters (spreadsheets export rows as "a;b;c;") add
		// empty values past the header's columns: nothing is lost by
		// dropping them.
		for len(rec) > len(rd.header) && strings.TrimSpace(rec[len(rec)-1]) == "" {
			rec = rec[:len(rec)-1]
		}
		if len(rec) != len(rd.header) {
			// No customer id: with values missing or extra, which value
			// is the id is a guess.
			row.Reject = &Reject{Line: line, Field: "row", Value: clip(rd.text(string(raw)), 80),
				Reason: fmt.Sprintf("%d values, the header has %d columns", len(rec), len(rd.header))}
			return row, nil
		}
		vals := [6]*string{&row.ID, &row.Name, &row.Type, &row.DOB, &row.Gender, &row.Citizenship}
		for fi, cols := range rd.cols {
			*vals[fi] = rd.join(rec, cols)
		}
		if rd.noID {
			row.ID = fmt.Sprint(row.Index + 1)
		}
		if rd.keepExtra {
			for _, c := range rd.extra {
				if v := strings.TrimSpace(rd.text(rec[c])); v != "" {
					rd.addExtra(rd.header[c], v)
				}
			}
		}
		if rd.enc == UTF8 {
			for _, v := range rec {
				if !utf8.ValidString(v) {
					row.Reject = &Reject{Line: line, CustomerID: row.ID, Field: "row", Value: strings.ToValidUTF8(v, "\uFFFD"),
						Reason: "not valid UTF-8 (read it with --encoding latin1)"}
					break
				}
			}
		}
		return row, nil
	}
}

// idOf returns the customer id of a row that cannot be read whole, when
// the id column is among the values read; "" otherwise.
func (rd *Reader) idOf(rec []string) string {
	if id := rd.cols[0]; len(id) == 1 && id[0] < len(rec) {
		return strings.TrimSpace(rd.text(rec[id[0]]))
	}
	return ""
}

// Lines returns the number of physical lines read so far, the header
// included. Every one is a header, a blank line (BlankLines) or a row
// screened or rejected: rows + blank lines + header = lines.
func (rd *Reader) Lines() int { return rd.line }

// BlankLines returns the number of blank lines skipped: empty, white
// space only, or (CSV) only delimiters.
func (rd *Reader) BlankLines() int { return rd.blank }

func (rd *Reader) newRow(line int) *Row {
	row := &Row{Index: rd.index, Line: line}
	rd.index++
	return row
}

// join returns the values of cols, decoded and trimmed, joined by a space.
func (rd *Reader) join(rec []string, cols []int) string {
	switch len(cols) {
	case 0:
		return ""
	case 1:
		if cols[0] >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rd.text(rec[cols[0]]))
	}
	var parts []string
	for _, c := range cols {
		if c < len(rec) {
			if v := strings.TrimSpace(rd.text(rec[c])); v != "" {
				parts = append(parts, v)
			}
		}
	}
	return strings.Join(parts, " ")
}

func blank(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

// readLine returns the next physical line without its end, and whether it
// was cut at maxLine. A line ends at LF, CRLF or a lone CR, so that a book
// saved with old Mac line endings reads as its lines, not as one.
func (rd *Reader) readLine() ([]byte, bool, error) {
	rd.buf = rd.buf[:0]
	long := false
	add := func(b []byte) {
		if long || len(rd.buf)+len(b) > maxLine {
			long = true
			return
		}
		rd.buf = append(rd.buf, b...)
	}
	for {
		if rd.br.Buffered() == 0 {
			if _, err := rd.br.Peek(1); err != nil {
				if err == io.EOF && (len(rd.buf) > 0 || long) {
					rd.line++
					return rd.buf, long, nil
				}
				return nil, false, err
			}
		}
		chunk, _ := rd.br.Peek(rd.br.Buffered())
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			add(chunk)
			rd.br.Discard(len(chunk))
			continue
		}
		add(chunk[:i])
		end := chunk[i]
		rd.br.Discard(i + 1)
		if end == '\r' {
			if next, err := rd.br.Peek(1); err == nil && next[0] == '\n' {
				rd.br.Discard(1)
			}
		}
		rd.line++
		return rd.buf, long, nil
	}
}

func (rd *Reader) nextJSON() (*Row, error) {
	for {
		line, long, err := rd.readLine()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, fmt.Errorf("read line %d: %w", rd.line+1, err)
		}
		if !long && len(bytes.TrimSpace(line)) == 0 {
			rd.blank++
			continue
		}
		row := rd.newRow(rd.line)
		if long {
			row.Reject = &Reject{Line: rd.line, Field: "row", Reason: fmt.Sprintf("line longer than %d bytes", maxLine)}
			return row, nil
		}
		text := line
		if !utf8.Valid(line) {
			if rd.enc == UTF8 {
				row.Reject = &Reject{Line: rd.line, Field: "row", Value: clip(strings.ToValidUTF8(string(line), "\uFFFD"), 80),
					Reason: "not valid UTF-8 (read it with --encoding latin1)"}
				return row, nil
			}
			text = []byte(rd.text(string(line)))
		} else if rd.enc == Latin1 {
			text = []byte(rd.text(string(line)))
		}
		if err := rd.fillJSON(row, text); err != nil {
			row.Reject = &Reject{Line: rd.line, Field: "row", Value: clip(string(text), 80), Reason: err.Error()}
		}
		return row, nil
	}
}

// fillJSON sets the row's values from one JSON object.
func (rd *Reader) fillJSON(row *Row, line []byte) error {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var obj map[string]any
	if err := d.Decode(&obj); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if obj == nil {
		return errors.New("not a JSON object: null")
	}
	if d.More() {
		return errors.New("more than one JSON value on the line")
	}
	byKey := make(map[string]any, len(obj))
	for k, v := range obj {
		byKey[headerKey(k)] = v
	}
	vals := [6]*string{&row.ID, &row.Name, &row.Type, &row.DOB, &row.Gender, &row.Citizenship}
	used := map[string]bool{}
	for fi, keys := range rd.keys {
		_, explicit := rd.mapped[fields[fi]]
		var parts []string
		for _, k := range keys {
			v, ok := byKey[k]
			if !ok {
				continue
			}
			used[k] = true
			if s := strings.TrimSpace(jsonText(v)); s != "" {
				parts = append(parts, s)
			}
			if !explicit {
				break // defaults are alternatives, not parts
			}
		}
		*vals[fi] = strings.Join(parts, " ")
	}
	if row.Name == "" {
		if _, explicit := rd.mapped[FieldName]; !explicit {
			var parts []string
			for _, keys := range [][]string{givenColumns, middleColumns, lastColumns} {
				for _, k := range keys {
					if v, ok := byKey[k]; ok {
						used[k] = true
						if s := strings.TrimSpace(jsonText(v)); s != "" {
							parts = append(parts, s)
						}
						break
					}
				}
			}
			row.Name = strings.Join(parts, " ")
		}
	}
	if row.ID == "" {
		if _, explicit := rd.mapped[FieldID]; !explicit {
			// Without an id key, the row number identifies the customer,
			// as for a CSV book without an id column.
			row.ID = fmt.Sprint(row.Index + 1)
		}
	}
	if rd.keepExtra {
		for k, v := range obj {
			if used[headerKey(k)] {
				continue
			}
			if s := strings.TrimSpace(jsonText(v)); s != "" {
				rd.addExtra(k, s)
			}
		}
	}
	return nil
}

// jsonText renders a JSON value as a field value: lists are joined with
// "; ", which separates words and country codes alike.
func jsonText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			if s := jsonText(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
