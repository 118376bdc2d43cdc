package convert

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/uk"
	"github.com/amlscreen/amlscreen/record"
)

// EUAnyFormat converts the EU financial sanctions list in either of its
// formats, told by content: XML (EU) when the file opens with "<", else
// the semicolon-separated CSV (EUCSV).
func EUAnyFormat(r io.Reader, emit func(*record.Record) error) error {
	return xmlOrCSV(r, "EU list", eu.EU, eu.EUCSV, emit)
}

// UKAnyFormat converts a UK sanctions list in any of its formats, told by
// content: the FCDO's XML (UK) when the file opens with "<", else the
// FCDO's or OFSI's CSV (UKCSV).
func UKAnyFormat(r io.Reader, emit func(*record.Record) error) error {
	return xmlOrCSV(r, "UK list", uk.UK, uk.UKCSV, emit)
}

// xmlOrCSV reads the start of r and hands the whole of it to xmlConv when
// its first character, past a byte-order mark and spaces, is "<", and to
// csvConv otherwise.
func xmlOrCSV(r io.Reader, what string, xmlConv, csvConv func(io.Reader, func(*record.Record) error) error, emit func(*record.Record) error) error {
	br := bufio.NewReaderSize(r, 4096)
	head, err := br.Peek(4096)
	if err != nil && len(head) == 0 && err != io.EOF {
		return fmt.Errorf("read %s: %w", what, err)
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) > 0 && head[0] == '<' {
		return xmlConv(br, emit)
	}
	return csvConv(br, emit)
}
