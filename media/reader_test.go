package media

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

func TestReaderErrors(t *testing.T) {
	good := `{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h"}`
	for _, tt := range []struct {
		name, line, field string
	}{
		{"not json", `{"id":`, ""},
		{"not an object", `[1,2]`, ""},
		{"no id", `{"timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h"}`, "id"},
		{"id with space", `{"id":"a b","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h"}`, "id"},
		{"id too long", `{"id":"` + strings.Repeat("x", MaxIDLength+1) + `","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h"}`, "id"},
		{"no timestamp", `{"id":"a","language":"en","headline":"h"}`, "timestamp"},
		{"date only", `{"id":"a","timestamp":"2024-01-01","language":"en","headline":"h"}`, "timestamp"},
		{"timestamp a number", `{"id":"a","timestamp":1700000000,"language":"en","headline":"h"}`, "timestamp"},
		{"language name", `{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"english","headline":"h"}`, "language"},
		{"no language", `{"id":"a","timestamp":"2024-01-01T00:00:00Z","headline":"h"}`, "language"},
		{"no text", `{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":" ","body":""}`, "headline"},
		{"category not a name", `{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h","categories":["money laundering!"]}`, "categories"},
		{"categories not a list", `{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"h","categories":"political"}`, "categories"},
	} {
		in := good + "\n\n" + tt.line + "\n" + good + "\n"
		_, err := ReadAll(strings.NewReader(in))
		var le *LineError
		if !errors.As(err, &le) || le.Line != 3 || le.Field != tt.field {
			t.Errorf("%s: %v, want line 3 field %q", tt.name, err, tt.field)
		}
	}
}

func TestReaderNormalises(t *testing.T) {
	in := `{"id":"a1","timestamp":"2024-03-01T12:00:00.123456+02:00","language":"EN","headline":"H","body":"<p>B</p>","source_link":"https://x.example/1","extra":{"ignored":true}}
{"id":"a2","timestamp":"2024-03-01T12:00:00Z","language":"de","headline":"H","categories":[]}
{"id":"a3","timestamp":"2024-03-01T12:00:00Z","language":"fr","headline":"H","categories":["Financial Crime","financial-crime","Political"]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(in))
	zw.Close()
	for _, src := range []io.Reader{strings.NewReader(in), &gz} {
		arts, err := ReadAll(src)
		if err != nil {
			t.Fatal(err)
		}
		if len(arts) != 3 {
			t.Fatalf("%d articles", len(arts))
		}
		a := arts[0]
		if want := time.Date(2024, 3, 1, 10, 0, 0, 123e6, time.UTC); !a.Timestamp.Equal(want) || a.Timestamp.Location() != time.UTC {
			t.Errorf("timestamp %v, want %v in UTC, to the millisecond", a.Timestamp, want)
		}
		if a.Language != "en" || a.Categories != nil {
			t.Errorf("a1: language %q categories %#v", a.Language, a.Categories)
		}
		if arts[1].Categories == nil || len(arts[1].Categories) != 0 {
			t.Errorf("a2: [] must stay an empty list (no categories), got %#v", arts[1].Categories)
		}
		if got := strings.Join(arts[2].Categories, ","); got != "financial_crime,political" {
			t.Errorf("a3: categories %s", got)
		}
	}
}

func TestArticleJSONRoundTrip(t *testing.T) {
	a := &Article{
		ID: "q\"1", Timestamp: time.Date(2024, 3, 1, 10, 0, 0, 5e6, time.UTC), Language: "ru",
		Headline: "Путин & <Co>\u2028", Body: "<p>line\none\t\x01</p>", SourceLink: "https://x.example/?a=1&b=2",
		Categories: []string{"political"},
	}
	line := a.AppendLine(nil)
	got, err := ReadAll(bytes.NewReader(line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	b := got[0]
	if b.ID != a.ID || !b.Timestamp.Equal(a.Timestamp) || b.Headline != a.Headline || b.Body != a.Body ||
		b.SourceLink != a.SourceLink || strings.Join(b.Categories, ",") != "political" {
		t.Errorf("round trip: %+v, want %+v", b, a)
	}
	api := string(a.AppendJSON(nil))
	if want := `{"timestamp":"2024-03-01T10:00:00.005Z","id":"q\"1","language":"ru","headline":"Путин & <Co>\u2028","body":"<p>line\none\t\u0001</p>","source_link":"https://x.example/?a=1&b=2"}`; api != want {
		t.Errorf("API JSON\n%s\nwant\n%s", api, want)
	}
}

func TestParagraphs(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"<p>One.</p><p>Two &amp; three.</p>", "One.|Two & three."},
		{"<P class=x>One<br/>Two</P>", "One|Two"},
		{"plain <b>bold</b>text", "plain  bold text"},
		{"a < b and c > d", "a < b and c > d"},
		{"<p></p>", ""},
		{"<div><ul><li>x</li><li>y</li></ul></div>", "x|y"},
	} {
		if got := strings.Join(appendParagraphs(nil, tt.body), "|"); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.body, got, tt.want)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"id":"a","timestamp":"2024-01-01T00:00:00Z","language":"en","headline":"Ivan <p>Petrov</p>","body":"<p>x"}`))
	f.Add([]byte("\x1f\x8b garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := New(Options{})
		if _, err := c.Import(bytes.NewReader(b)); err != nil {
			return
		}
		// Whatever was accepted can be searched without panicking.
		c.Search(t.Context(), SearchQuery{Text: "ivan petrov", Fuzzy: 2})
	})
}
