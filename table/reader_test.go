package table

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// readAll reads every row of a book given as bytes.
func readAll(t *testing.T, data []byte, o ReadOptions) ([]*Row, *Reader) {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data), o)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var rows []*Row
	for {
		row, err := rd.Next()
		if err == io.EOF {
			return rows, rd
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		rows = append(rows, row)
	}
}

func latin1(t *testing.T, s string) []byte {
	t.Helper()
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16(t *testing.T, s string, order unicode.Endianness) []byte {
	t.Helper()
	b, err := unicode.UTF16(order, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestCSVEncodingsAndDelimiters reads one small book written in every
// encoding and with every delimiter a bank's export may use: the same
// names must come out, with the delimiter and encoding detected unless
// given.
func TestCSVEncodingsAndDelimiters(t *testing.T) {
	book := func(d string) string {
		return strings.Join([]string{
			strings.Join([]string{"Customer ID", "Full Name", "Nationality"}, d),
			strings.Join([]string{"1", "José Müller", "ES"}, d),
			strings.Join([]string{"2", `"Škoda` + d + ` Tomáš"`, "CZ"}, d), // quoted, delimiter inside
			strings.Join([]string{"3", "Zoë O'Brien €", "IE"}, d),
		}, "\r\n") + "\r\n"
	}
	want := []string{"José Müller", "Škoda" + "%s" + " Tomáš", "Zoë O'Brien €"}
	tests := []struct {
		name  string
		delim string
		data  func(t *testing.T, s string) []byte
		opts  ReadOptions
		enc   Encoding // what the reader settles on
	}{
		{"utf8 comma", ",", func(t *testing.T, s string) []byte { return []byte(s) }, ReadOptions{}, AutoEncoding},
		{"utf8 bom semicolon", ";", func(t *testing.T, s string) []byte { return append([]byte{0xef, 0xbb, 0xbf}, s...) }, ReadOptions{}, UTF8},
		{"utf8 tab", "\t", func(t *testing.T, s string) []byte { return []byte(s) }, ReadOptions{}, AutoEncoding},
		{"utf8 pipe", "|", func(t *testing.T, s string) []byte { return []byte(s) }, ReadOptions{}, AutoEncoding},
		{"latin1 detected", ";", latin1, ReadOptions{}, AutoEncoding},
		{"latin1 given", ",", latin1, ReadOptions{Encoding: Latin1}, Latin1},
		{"utf16le bom tab", "\t", func(t *testing.T, s string) []byte { return utf16(t, s, unicode.LittleEndian) }, ReadOptions{}, UTF8},
		{"utf16be bom comma", ",", func(t *testing.T, s string) []byte { return utf16(t, s, unicode.BigEndian) }, ReadOptions{}, UTF8},
		{"gzip latin1 pipe", "|", func(t *testing.T, s string) []byte { return gzipped(t, latin1(t, s)) }, ReadOptions{}, AutoEncoding},
		{"delimiter given", ";", func(t *testing.T, s string) []byte { return []byte(s) }, ReadOptions{Delimiter: ';', Format: CSV}, AutoEncoding},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, rd := readAll(t, tc.data(t, book(tc.delim)), tc.opts)
			if got := string(rd.Delimiter()); got != tc.delim {
				t.Errorf("delimiter %q, want %q", got, tc.delim)
			}
			if rd.Encoding() != tc.enc {
				t.Errorf("encoding %s, want %s", rd.Encoding(), tc.enc)
			}
			if len(rows) != 3 {
				t.Fatalf("%d rows, want 3", len(rows))
			}
			for i, row := range rows {
				w := want[i]
				w = strings.Replace(w, "%s", tc.delim, 1)
				if row.Name != w || row.Reject != nil {
					t.Errorf("row %d: name %q (reject %v), want %q", i, row.Name, row.Reject, w)
				}
				if row.Line != i+2 || row.Index != int64(i) {
					t.Errorf("row %d: line %d index %d", i, row.Line, row.Index)
				}
			}
			if rows[0].ID != "1" || rows[0].Citizenship != "ES" {
				t.Errorf("row 0: %+v", rows[0])
			}
		})
	}
}

// TestStrictUTF8RejectsRow: with --encoding utf-8, a row that is not UTF-8
// is rejected with its line; the others are read.
func TestStrictUTF8RejectsRow(t *testing.T) {
	data := append([]byte("id,name\n1,Anna Berg\n2,"), latin1(t, "José Müller\n3,Carl Dahl\n")...)
	rows, _ := readAll(t, data, ReadOptions{Encoding: UTF8})
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	if rows[1].Reject == nil || rows[1].Reject.Line != 3 || !strings.Contains(rows[1].Reject.Reason, "UTF-8") {
		t.Errorf("row 2: reject %+v", rows[1].Reject)
	}
	if rows[0].Reject != nil || rows[2].Reject != nil || rows[2].Name != "Carl Dahl" {
		t.Errorf("rows around the bad one: %+v %+v", rows[0], rows[2])
	}
}

func TestColumnMapping(t *testing.T) {
	tests := []struct {
		name   string
		header string
		row    string
		mapStr string
		want   Row
		err    string
	}{
		{"usual names", "customer_id,full_name,type,date_of_birth,sex,nationality", "7,Anna Berg,individual,1980,F,SE", "",
			Row{ID: "7", Name: "Anna Berg", Type: "individual", DOB: "1980", Gender: "F", Citizenship: "SE"}, ""},
		{"case and spacing", "Customer Id,NAME,Date Of Birth", "7,Anna Berg,1980", "",
			Row{ID: "7", Name: "Anna Berg", DOB: "1980"}, ""},
		{"first and last", "id,first_name,middle_name,surname", "7,Anna,Maria,Berg", "",
			Row{ID: "7", Name: "Anna Maria Berg"}, ""},
		{"explicit map with +", "CIF,GIVEN,FAMILY,BIRTH", "7,Anna,Berg,1980", "id=CIF,name=GIVEN+FAMILY,dob=BIRTH",
			Row{ID: "7", Name: "Anna Berg", DOB: "1980"}, ""},
		{"explicit map wins over usual name", "id,name,legal_name", "7,Anna,Anna Berg AB", "name=legal_name",
			Row{ID: "7", Name: "Anna Berg AB"}, ""},
		{"no id column: row number", "name", "Anna Berg", "",
			Row{ID: "1", Name: "Anna Berg"}, ""},
		{"empty values", "id,name,dob", "7,Anna Berg,", "",
			Row{ID: "7", Name: "Anna Berg"}, ""},
		{"no name column", "id,address", "7,Main Street", "", Row{}, "no name column"},
		{"mapped column missing", "id,name", "7,Anna", "dob=birth", Row{}, `no column "birth"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseMapping(tc.mapStr)
			if err != nil {
				t.Fatal(err)
			}
			rd, err := NewReader(strings.NewReader(tc.header+"\n"+tc.row+"\n"), ReadOptions{Map: m})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			row, err := rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Line = 2
			if *row != tc.want {
				t.Errorf("row %+v\nwant %+v", *row, tc.want)
			}
		})
	}
}

func TestParseMappingErrors(t *testing.T) {
	for _, s := range []string{"name", "nom=X", "name=A,name=B", "name=A+", "name="} {
		if _, err := ParseMapping(s); err == nil {
			t.Errorf("ParseMapping(%q) accepted", s)
		}
	}
	m, err := ParseMapping(" name = A + B , id=C ")
	if err != nil || m.String() != "id=C,name=A+B" {
		t.Errorf("ParseMapping: %v %v", m, err)
	}
}

// TestJSONLines: keys by their usual names in either casing, numbers and
// lists as values, blank lines skipped, bad lines rejected with their line
// number, Latin-1 lines decoded.
func TestJSONLines(t *testing.T) {
	data := []byte(`{"customerId": 12345678901234567890, "fullName": "Anna Berg", "dateOfBirth": "1980", "nationality": ["SE", "FI"]}

{"id": "2", "first_name": "Carl", "last_name": "Dahl", "type": "individual"}
not json
{"id": "4", "name": null}
`)
	data = append(data, latin1(t, `{"id": "5", "name": "José Müller"}`)...) // last line, no newline
	rows, rd := readAll(t, data, ReadOptions{})
	if rd.Format() != JSONL {
		t.Fatalf("format %s", rd.Format())
	}
	want := []Row{
		{Index: 0, Line: 1, ID: "12345678901234567890", Name: "Anna Berg", DOB: "1980", Citizenship: "SE; FI"},
		{Index: 1, Line: 3, ID: "2", Name: "Carl Dahl", Type: "individual"},
		{Index: 2, Line: 4},
		{Index: 3, Line: 5, ID: "4"},
		{Index: 4, Line: 6, ID: "5", Name: "José Müller"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		got := *rows[i]
		if i == 2 {
			if got.Reject == nil || got.Reject.Line != 4 || got.Reject.Field != "row" {
				t.Errorf("bad line: %+v", got.Reject)
			}
			got.Reject = nil
		}
		if got != want[i] {
			t.Errorf("row %d: %+v\nwant %+v", i, got, want[i])
		}
	}
}

func TestEmptyBook(t *testing.T) {
	if _, err := NewReader(strings.NewReader(""), ReadOptions{Format: CSV}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty CSV: %v", err)
	}
	rows, _ := readAll(t, []byte("id,name\n\n,\n"), ReadOptions{})
	if len(rows) != 0 {
		t.Errorf("blank rows read as customers: %+v", rows)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		n := copy(p, strings.Repeat("x,y\n", 4)[:min(len(p), 16)])
		f.n--
		return n, nil
	}
	return 0, errors.New("disk on fire")
}

func TestReadErrorIsReturned(t *testing.T) {
	rd, err := NewReader(io.MultiReader(strings.NewReader("id,name\n"), &failingReader{n: 1}), ReadOptions{Format: CSV, Delimiter: ','})
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, err := rd.Next()
		if err == io.EOF {
			t.Fatal("EOF instead of the read error")
		}
		if err != nil {
			if !strings.Contains(err.Error(), "disk on fire") {
				t.Errorf("error %v", err)
			}
			return
		}
	}
}

// FuzzReader: any book, CSV or JSON Lines in any encoding, reads to the
// end without a panic or an endless loop; every row either has a line
// number no smaller than the previous one's or is a reject naming its
// line; and every physical line is accounted for: rows (screened or
// rejected) + blank lines + the header = the lines read, so no line is
// ever skipped silently.
func FuzzReader(f *testing.F) {
	f.Add([]byte("id,name,dob\nC1,Anna Alpha,01/02/1970\nC2,\"Bert, Beta\",\n"))
	f.Add([]byte("\xef\xbb\xbfcustomer_id;full_name\nX;Zoë\n"))
	f.Add([]byte("id\tname\n1\t\xe9t\xe9\n"))
	f.Add([]byte(`{"id":"J1","name":"Jane","dob":"00/00/1980"}` + "\n{bad\n"))
	f.Add([]byte("\xff\xfei\x00d\x00,\x00n\x00a\x00m\x00e\x00\n\x001\x00,\x00A\x00\n\x00"))
	f.Add([]byte("name\n\"unterminated\n"))
	f.Add([]byte("id,name,country\nC9,\"Unclosed quote name,GB\nC10,Sanctioned Co,RU\n"))
	f.Add([]byte("id,name\rC1,Anna\r\rC2,Bert\r"))
	f.Add([]byte("id,name,dob\n1,a\n2,b,c,d\n,,\n"))
	f.Add([]byte("\n\nid,name\n\n1,a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), ReadOptions{})
		if err != nil {
			return
		}
		last, rows := 0, 0
		for n := 0; ; n++ {
			if n > len(data)+1 {
				t.Fatalf("%d rows from %d bytes: the reader does not advance", n, len(data))
			}
			row, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return // a read error ends the book, as batch reports it
			}
			rows++
			if row.Reject != nil && row.Reject.Line <= 0 {
				t.Fatalf("reject without a line: %+v", row.Reject)
			}
			if row.Line <= last {
				t.Fatalf("row at line %d after line %d: two rows on one line", row.Line, last)
			}
			last = row.Line
		}
		header := 0
		if rd.Format() == CSV {
			header = 1
		}
		if rows+rd.BlankLines()+header != rd.Lines() {
			t.Fatalf("%d rows + %d blank + %d header != %d lines read", rows, rd.BlankLines(), header, rd.Lines())
		}
	})
}
