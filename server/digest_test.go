package server

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/digest"
)

// digestAnswer is getChangeDigest's answer as a tool reads it.
type digestAnswer struct {
	Since, From, Version, Next string
	Summary                    digest.Summary
	BySource                   map[string]digest.Summary `json:"by_source"`
	Changes                    []digest.Change
}

func (f *fixture) changeDigest(key, query string, status int) (digestAnswer, []byte) {
	f.t.Helper()
	a := f.get(key, "/v1/getChangeDigest?"+query)
	if a.StatusCode != status {
		f.t.Fatalf("getChangeDigest?%s: %d, want %d: %s", query, a.StatusCode, status, a.body)
	}
	var d digestAnswer
	if status == 200 {
		if err := json.Unmarshal(a.body, &d); err != nil {
			f.t.Fatalf("getChangeDigest?%s: %v: %s", query, err, a.body)
		}
	}
	return d, a.body
}

func ids(cs []digest.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Type+":"+c.ID)
	}
	return strings.Join(out, " ")
}

// TestChangeDigestIsTheCLIDocument: for a key that sees every source and
// attribute, the answer is byte for byte the document amlscreen changes
// --format json writes of the same period (one encoder for both).
func TestChangeDigestIsTheCLIDocument(t *testing.T) {
	f := newFixture(t)
	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	f.applyDelta("delta2.jsonl", "2026-11-22T12:00:00Z~3")

	_, body := f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion)+"&format=json", 200)
	entries, cur, err := f.st.Digest(testVersion)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := digest.WriteJSON(&want, digest.NewDocument(testVersion, testVersion, cur, digest.FromStore(entries))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, want.Bytes()) {
		t.Fatalf("server:\n%s\ncli:\n%s", body, want.Bytes())
	}
	var d digestAnswer
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if got := ids(d.Changes); got != "DELETE:AML009 UPDATE:AML011 UPDATE:AML012 ADD:AML013 ADD:AML014" {
		t.Fatalf("changes: %s", got)
	}
	u := d.Changes[1]
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		json.Compact(&b, raw)
		return b.String()
	}
	if len(u.Fields) != 2 || u.Fields[0].Name != "alias_names" || compact(u.Fields[0].Old) != "null" || compact(u.Fields[0].New) != `["Johnny Smith"]` ||
		u.Fields[1].Name != "citizenship" || compact(u.Fields[1].Old) != `["US"]` || compact(u.Fields[1].New) != `["US","GB"]` {
		t.Errorf("update of AML011: %+v", u)
	}
	if d.Summary != (digest.Summary{Added: 2, Updated: 2, Deleted: 1}) || d.Next != "" {
		t.Errorf("summary %+v next %q", d.Summary, d.Next)
	}

	// since=last is the last change set alone.
	last, _ := f.changeDigest(keyFull, "since=last", 200)
	if got := ids(last.Changes); got != "DELETE:AML009 UPDATE:AML012 ADD:AML014" || last.From != "2026-11-22T11:00:00Z~2" {
		t.Errorf("since last: %s from %s", got, last.From)
	}
}

// TestChangeDigestKeyView: a key sees the changes of its sources only, and
// no difference in an attribute its features strip.
func TestChangeDigestKeyView(t *testing.T) {
	f := newFixture(t)
	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	f.applyDelta("delta2.jsonl", "2026-11-22T12:00:00Z~3")
	f.applyDelta("delta3.jsonl", "2026-11-22T13:00:00Z~4")
	q := "since=" + url.QueryEscape(testVersion)
	full, _ := f.changeDigest(keyFull, q, 200)
	picky, _ := f.changeDigest(keyPicky, q, 200) // excludes un_sc
	for _, c := range picky.Changes {
		if c.Source == "un_sc" {
			t.Errorf("picky key sees %s of un_sc", c.ID)
		}
	}
	if strings.Contains(ids(full.Changes), "AML013") == false || len(picky.Changes) >= len(full.Changes) {
		t.Errorf("full %s, picky %s", ids(full.Changes), ids(picky.Changes))
	}
	if _, ok := picky.BySource["un_sc"]; ok {
		t.Errorf("picky key's counts name un_sc: %+v", picky.BySource)
	}
}

// TestChangeDigestPages: pages of limit changes, chained by next, add up
// to the whole period, and a change set applied between pages moves
// nothing.
func TestChangeDigestPages(t *testing.T) {
	f := newFixture(t)
	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	f.applyDelta("delta2.jsonl", "2026-11-22T12:00:00Z~3")
	whole, _ := f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion), 200)

	var got []digest.Change
	page, _ := f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion)+"&limit=2", 200)
	for n := 0; ; n++ {
		if len(page.Changes) > 2 || page.Summary != whole.Summary || page.Version != whole.Version {
			t.Fatalf("page %d: %d changes, summary %+v, version %s", n, len(page.Changes), page.Summary, page.Version)
		}
		got = append(got, page.Changes...)
		if n == 0 {
			// Moves the store on: later pages still end at the first's version.
			f.applyDelta("delta3.jsonl", "2026-11-22T13:00:00Z~4")
		}
		if page.Next == "" {
			break
		}
		if n > 5 {
			t.Fatal("next never ends")
		}
		page, _ = f.changeDigest(keyFull, "limit=2&next="+url.QueryEscape(page.Next), 200)
	}
	if ids(got) != ids(whole.Changes) {
		t.Errorf("pages %s\nwhole %s", ids(got), ids(whole.Changes))
	}
	// The next of a page also works with the same since.
	whole, _ = f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion), 200)
	first, _ := f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion)+"&limit=4", 200)
	rest, _ := f.changeDigest(keyFull, "since="+url.QueryEscape(testVersion)+"&limit=4&next="+url.QueryEscape(first.Next), 200)
	if ids(append(first.Changes, rest.Changes...)) != ids(whole.Changes) || rest.Next != "" {
		t.Errorf("two pages of 4: %s + %s", ids(first.Changes), ids(rest.Changes))
	}
}

// TestChangeDigestRefuses: bad input is 400 with a message naming the
// parameter, before any work.
func TestChangeDigestRefuses(t *testing.T) {
	f := newFixture(t)
	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	tok := digestToken{Since: "last", From: testVersion, Until: "2026-11-22T11:00:00Z~2", After: "AML011"}.encode()
	tests := []struct{ query, want string }{
		{"", "since: required"},
		{"since=2026-13-01", "since:"},
		{"since=no-such-version", "change log cannot say"},
		{"since=" + url.QueryEscape(testVersion) + "&limit=0", "limit:"},
		{"since=" + url.QueryEscape(testVersion) + "&limit=10001", "limit:"},
		{"since=" + url.QueryEscape(testVersion) + "&limit=ten", "limit:"},
		{"since=" + url.QueryEscape(testVersion) + "&format=csv", "format:"},
		{"next=bm90IGEgdG9rZW4", "next:"},
		{"next=%%%", "malformed"},
		{"since=2026-11-01&next=" + tok, "not the since of the first page"},
		{"since=" + strings.Repeat("v", 300), "since"},
	}
	for _, tt := range tests {
		_, body := f.changeDigest(keyBasic, tt.query, 400)
		var e struct {
			Message string `json:"error_message"`
		}
		if err := json.Unmarshal(body, &e); err != nil || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s: %s, want a message with %q", tt.query, body, tt.want)
		}
	}
	// A token still valid after the store moved on answers its page.
	f.applyDelta("delta2.jsonl", "2026-11-22T12:00:00Z~3")
	d, _ := f.changeDigest(keyBasic, "next="+tok, 200)
	if d.Version != "2026-11-22T11:00:00Z~2" || ids(d.Changes) != "ADD:AML013" {
		t.Errorf("page after AML011: %+v", d)
	}
	f.changeDigest(keyDisabled, "since=last", 403)
	f.changeDigest("", "since=last", 401)
}
