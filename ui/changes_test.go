package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/record"
)

// TestChangesPage: a change set renames a record to a customer's name;
// the changes page, opened on "since yesterday", lists the update by
// source with the field's old and new value, links the record, and shows
// the alert the book raised on it. A period the change log cannot answer
// is said on the page.
func TestChangesPage(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	cw := casework.New(b.st, casework.Options{})
	b.st.OnApply(cw.Hook)
	b.st.OnApply(book.Hook(cw, book.Shard{}, nil)) // a strict book needs no word statistics
	rd, err := batch.NewReader(strings.NewReader("customer_id,full_name\nC-77,Zebedee Quatermain\n"), batch.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	customers, _, err := book.Read(rd, book.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := book.Import(b.st, customers, book.DefaultConfig, "book.csv", time.Now()); err != nil {
		t.Fatal(err)
	}
	b.change(t, "R1", func(r *record.Record) { r.AliasNames = []string{"Zebedee Quatermain"} })
	b.change(t, "R2", func(r *record.Record) { r.Address = []string{"Belgrade"} })

	c := b.signedIn(t, keyA)
	// The page opens on yesterday (by the workbench's clock, 20 Nov),
	// which here begins before the store's first import: the page says
	// the change log cannot answer, and offers the form.
	res := c.get("/ui/changes")
	if res.status != http.StatusOK || !strings.Contains(res.body, `aria-current="page">Since yesterday`) ||
		!strings.Contains(res.body, `value="2026-11-19"`) || !strings.Contains(res.body, "first import") {
		t.Errorf("default period: %d\n%s", res.status, res.body)
	}
	res = c.get("/ui/changes?since=" + v0)
	if res.status != http.StatusOK {
		t.Fatalf("changes: %d %s", res.status, res.body)
	}
	for _, want := range []string{
		"0 added, 2 updated, 0 deleted",
		"ofac_sdn",
		`href="/ui/record?back=%2Fui%2Fchanges&amp;id=R1"`,
		"<strong>alias_names</strong>: <code>none</code> → <code>[&#34;Zebedee Quatermain&#34;]</code>",
		"<strong>address</strong>: <code>none</code> → <code>[&#34;Belgrade&#34;]</code>",
		"customer <strong>C-77</strong>",
		"1 alert raised on this page",
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("the changes page lacks %q:\n%s", want, res.body)
		}
	}
	if strings.Count(res.body, "customer <strong>") != 1 {
		t.Errorf("want one alert, on R1 only")
	}

	last := c.get("/ui/changes?since=last")
	if last.status != http.StatusOK || !strings.Contains(last.body, "0 added, 1 updated, 0 deleted") || strings.Contains(last.body, "C-77") {
		t.Errorf("since last: %d\n%s", last.status, last.body)
	}
	bad := c.get("/ui/changes?since=no-such-version")
	if bad.status != http.StatusOK || !strings.Contains(bad.body, "change log cannot say") || !strings.Contains(bad.body, `role="alert"`) {
		t.Errorf("unknown version: %d\n%s", bad.status, bad.body)
	}
	if res := b.client(t).get("/ui/changes"); res.status != http.StatusSeeOther {
		t.Errorf("without a session: %d", res.status)
	}
}
