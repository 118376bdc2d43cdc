package batch

import (
	"io"

	"github.com/amlscreen/amlscreen/table"
)

// The table reader batch screens from, under the names batch's callers
// already use: a Run reads its book with it and hands its rows and rejects
// on.
type (
	// Row is one customer of a book (table.Row).
	Row = table.Row
	// Reject is an input row that was not screened, and why (table.Reject).
	Reject = table.Reject
	// Reader streams the rows of a book (table.Reader).
	Reader = table.Reader
	// ReadOptions say how a book is read (table.ReadOptions).
	ReadOptions = table.ReadOptions
	// Mapping names the columns of each field (table.Mapping).
	Mapping = table.Mapping
	// InputFormat is the shape of a book (table.InputFormat).
	InputFormat = table.InputFormat
	// Encoding is the text encoding of a book (table.Encoding).
	Encoding = table.Encoding
)

// Formats, encodings and fields of a book: see package table.
const (
	AutoFormat       = table.AutoFormat
	CSV              = table.CSV
	JSONL            = table.JSONL
	AutoEncoding     = table.AutoEncoding
	UTF8             = table.UTF8
	Latin1           = table.Latin1
	UTF16            = table.UTF16
	FieldID          = table.FieldID
	FieldName        = table.FieldName
	FieldType        = table.FieldType
	FieldDOB         = table.FieldDOB
	FieldGender      = table.FieldGender
	FieldCitizenship = table.FieldCitizenship
)

// ErrNoRows is the error of a run over a book without a single customer
// row (table.ErrNoRows).
var ErrNoRows = table.ErrNoRows

// NewReader returns a reader of the book r (table.NewReader).
func NewReader(r io.Reader, o ReadOptions) (*Reader, error) { return table.NewReader(r, o) }

// ParseMapping reads --map (table.ParseMapping).
func ParseMapping(s string) (Mapping, error) { return table.ParseMapping(s) }

// ParseInputFormat reads --format (table.ParseInputFormat).
func ParseInputFormat(s string) (InputFormat, error) { return table.ParseInputFormat(s) }

// ParseEncoding reads --encoding (table.ParseEncoding).
func ParseEncoding(s string) (Encoding, error) { return table.ParseEncoding(s) }

// FormatOf returns the format a book's file name implies (table.FormatOf).
func FormatOf(path string) InputFormat { return table.FormatOf(path) }
