package decision

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

const (
	ownerA = "0123456789abcdef0123456789abcdef"
	ownerB = "fedcba9876543210fedcba9876543210"
	v0     = "2026-11-01T00:00:00Z~1"
)

var t0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// newStore returns a store holding testdata/records.jsonl.
func newStore(t testing.TB) *store.Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f, err := os.Open("testdata/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := syncer.ImportFile(db, f, v0, nil); err != nil {
		t.Fatal(err)
	}
	return db
}

func getRecord(t testing.TB, db *store.Store, id string) *record.Record {
	t.Helper()
	r, err := db.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// decided returns a valid decision of owner on r for subject.
func decided(owner, subject string, r *record.Record, status string) Decision {
	return Decision{Owner: owner, Subject: subject, RecordID: r.ID, Status: status, Note: "checked", Who: "analyst",
		Fingerprint: Content(r), IdentityFingerprint: Identity(r)}
}

func TestQuerySubject(t *testing.T) {
	tests := []struct {
		name string
		q    query.Query
		want string
	}{
		{"words folded and sorted", query.Query{Kind: query.Individual, Names: "Vladimir PUTIN"}, "q:individual:names=putin vladimir"},
		{"order does not count", query.Query{Kind: query.Individual, Names: "putin, vladimir"}, "q:individual:names=putin vladimir"},
		{"accents folded", query.Query{Kind: query.Any, Names: "José Muñoz"}, "q:any:names=jose munoz"},
		{"filters canonical", query.Query{Kind: query.Individual, Names: "ivan petrov", DOB: "12/03/1960", Gender: "M", Citizenship: "ru"},
			"q:individual:names=ivan petrov;dob=12/03/1960;gender=male;citizenship=RU"},
		{"fuzzy and sources left out", query.Query{Kind: query.Individual, Names: "ivan petrov", Fuzzy: 2, Sources: map[string]bool{"x": true}},
			"q:individual:names=ivan petrov"},
		{"entity takes no filters", query.Query{Kind: query.Entity, Names: "Acme Trading"}, "q:entity:names=acme trading"},
		{"search_all", query.Query{Kind: query.Any, SearchAll: "IMO 9123456"}, "q:any:search_all=9123456 imo"},
		{"repeated words kept", query.Query{Kind: query.Any, Names: "john john smith"}, "q:any:names=john john smith"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := QuerySubject(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("QuerySubject = %q, want %q", got, tt.want)
			}
			if !IsQuerySubject(got) {
				t.Errorf("IsQuerySubject(%q) = false", got)
			}
		})
	}
	for _, q := range []query.Query{{Kind: query.Any}, {Kind: query.Individual, Names: "x y", DOB: "1960"}, {Kind: query.Any, Names: "a", Citizenship: "ZZ"}} {
		if s, err := QuerySubject(q); err == nil {
			t.Errorf("QuerySubject(%+v) = %q, want the query's error", q, s)
		}
	}
}

// mutations change one attribute of a record each, found by reflection, so
// that an attribute added to record.Record later is covered too.
func mutations(t *testing.T, r *record.Record) map[string]*record.Record {
	t.Helper()
	out := map[string]*record.Record{}
	typ := reflect.TypeOf(*r)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		c := r.Clone()
		v := reflect.ValueOf(c).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.ValueOf("added")))
		case reflect.Map:
			c.Extra = map[string]json.RawMessage{"newAttribute": json.RawMessage(`"v"`)}
		default:
			t.Fatalf("field %s of kind %s: teach this test to change it", f.Name, v.Kind())
		}
		out[f.Name] = c
	}
	return out
}

// identityFields are the attributes Identity covers.
var identityFields = map[string]bool{"Name": true, "TLName": true, "GivenNames": true, "LastNames": true,
	"AliasNames": true, "AliasGivenNames": true, "DateOfBirth": true, "Citizenship": true}

func TestFingerprints(t *testing.T) {
	db := newStore(t)
	r := getRecord(t, db, "R1")
	if got := Content(r.Clone()); got != Content(r) || len(got) != fingerprintHex {
		t.Fatalf("Content is not stable: %q, %q", got, Content(r))
	}
	for field, m := range mutations(t, r) {
		if Content(m) == Content(r) {
			t.Errorf("changing %s leaves Content unchanged", field)
		}
		if changed := Identity(m) != Identity(r); changed != identityFields[field] {
			t.Errorf("changing %s: Identity changed = %v, want %v", field, changed, identityFields[field])
		}
	}
	// Identity takes lists as sets.
	re := r.Clone()
	re.AliasNames = []string{r.AliasNames[1], r.AliasNames[0]}
	if Identity(re) != Identity(r) {
		t.Error("reordering aliases changes Identity")
	}
	// No value can pass for two.
	a, b := r.Clone(), r.Clone()
	a.AliasNames = []string{"ab", "c"}
	b.AliasNames = []string{"a", "bc"}
	if Identity(a) == Identity(b) {
		t.Error("Identity confuses [ab c] with [a bc]")
	}
}

func TestJudge(t *testing.T) {
	db := newStore(t)
	r := getRecord(t, db, "R1")
	changed := r.Clone()
	changed.Address = append(changed.Address, "Limassol")
	fp := decided(ownerA, "C-1", r, FalsePositive)
	tm := decided(ownerA, "C-1", r, TrueMatch)
	esc := decided(ownerA, "C-1", r, Escalated)
	noPrint := fp
	noPrint.Fingerprint = ""
	tests := []struct {
		name        string
		d           *Decision
		r           *record.Record
		suppressed  bool
		changedFlag bool
	}{
		{"no decision", nil, r, false, false},
		{"false positive, same content: suppressed", &fp, r, true, false},
		{"false positive, content changed: back, marked", &fp, changed, false, true},
		{"true match is never suppressed", &tm, r, false, false},
		{"true match, content changed: marked", &tm, changed, false, true},
		{"escalated is never suppressed", &esc, r, false, false},
		{"no fingerprint suppresses nothing", &noPrint, r, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Judge(tt.d, tt.r)
			if o.Suppressed != tt.suppressed || o.Changed != tt.changedFlag || o.Decision != tt.d {
				t.Errorf("Judge = %+v, want suppressed %v, changed %v", o, tt.suppressed, tt.changedFlag)
			}
		})
	}
}

// TestSuppressionNeverHidesAChangedRecord is the safety property: once any
// attribute of a record changes, no false_positive decided on its earlier
// content suppresses it, through the book, the in-memory set or Judge.
func TestSuppressionNeverHidesAChangedRecord(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{Now: func() time.Time { return t0 }})
	r := getRecord(t, db, "R1")
	if _, _, err := book.Decide(decided(ownerA, "C-1", r, FalsePositive)); err != nil {
		t.Fatal(err)
	}
	set, err := book.LoadSet(ownerA)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := book.Current(ownerA, "C-1")
	if err != nil {
		t.Fatal(err)
	}
	d := cur["R1"]
	if !Judge(&d, r).Suppressed || !set.Judge("C-1", r).Suppressed {
		t.Fatal("the decided content is not suppressed")
	}
	for field, m := range mutations(t, r) {
		if field == "ID" {
			continue // another record: no decision at all
		}
		if o := Judge(&d, m); o.Suppressed || !o.Changed {
			t.Errorf("after a change of %s: Judge = %+v, want shown and marked changed", field, o)
		}
		if o := set.Judge("C-1", m); o.Suppressed || !o.Changed {
			t.Errorf("after a change of %s: Set.Judge = %+v, want shown and marked changed", field, o)
		}
	}
}

func TestDecideHistoryAndCurrent(t *testing.T) {
	db := newStore(t)
	now := t0
	book := New(db, Options{Now: func() time.Time { return now }})
	r := getRecord(t, db, "R1")

	first, prev, err := book.Decide(decided(ownerA, "C-1", r, FalsePositive))
	if err != nil || prev != nil || first.Seq == 0 || !first.At.Equal(t0) {
		t.Fatalf("first decision: %+v, previous %v, %v", first, prev, err)
	}
	now = t0.Add(time.Hour)
	second, prev, err := book.Decide(decided(ownerA, "C-1", r, Escalated))
	if err != nil || prev == nil || prev.Seq != first.Seq || second.Seq <= first.Seq {
		t.Fatalf("second decision: %+v, previous %+v, %v", second, prev, err)
	}
	// An older decision (an import of last year's spreadsheet) goes into
	// the history without overriding the newer one.
	old := decided(ownerA, "C-1", r, FalsePositive)
	old.At = t0.Add(-24 * time.Hour)
	if _, _, err := book.Decide(old); err != nil {
		t.Fatal(err)
	}
	hist, err := book.History(ownerA, "C-1", "R1")
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 || hist[0].Status != FalsePositive || hist[1].Status != Escalated || hist[2].Status != FalsePositive {
		t.Fatalf("history = %+v", hist)
	}
	cur, err := book.Current(ownerA, "C-1")
	if err != nil {
		t.Fatal(err)
	}
	if got := cur["R1"]; got.Status != Escalated || got.Seq != second.Seq {
		t.Errorf("current = %+v, want the escalation", got)
	}
	on, err := book.OnRecord(ownerA, "R1")
	if err != nil || len(on) != 3 {
		t.Errorf("OnRecord = %d decisions, %v; want 3", len(on), err)
	}
	if n, err := book.Count(ownerA); n != 3 || err != nil {
		t.Errorf("Count = %d, %v; want 3", n, err)
	}
}

func TestOwnersAreIsolated(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{Now: func() time.Time { return t0 }})
	r := getRecord(t, db, "R1")
	if _, _, err := book.Decide(decided(ownerA, "C-1", r, FalsePositive)); err != nil {
		t.Fatal(err)
	}
	cur, err := book.Current(ownerB, "C-1")
	if err != nil || len(cur) != 0 {
		t.Errorf("owner B sees %v, %v", cur, err)
	}
	if h, _ := book.History(ownerB, "C-1", "R1"); len(h) != 0 {
		t.Errorf("owner B sees history %v", h)
	}
	if on, _ := book.OnRecord(ownerB, "R1"); len(on) != 0 {
		t.Errorf("owner B sees %v on the record", on)
	}
	set, err := book.LoadSet(ownerB)
	if err != nil || set.Len() != 0 || set.Judge("C-1", r).Decision != nil {
		t.Errorf("owner B's set holds %d decisions, %v", set.Len(), err)
	}
	var buf bytes.Buffer
	if n, err := book.Export(&buf, ownerB, JSONL); n != 0 || err != nil || buf.Len() != 0 {
		t.Errorf("owner B's export: %d decisions, %v: %q", n, err, buf.String())
	}
	// A prefix of an owner is not the owner.
	if cur, _ := book.Current(ownerA[:10], "C-1"); len(cur) != 0 {
		t.Errorf("a prefix of owner A sees %v", cur)
	}
	// Nor is a prefix of a subject the subject.
	if cur, _ := book.Current(ownerA, "C-"); len(cur) != 0 {
		t.Errorf("subject C- sees the decisions of C-1: %v", cur)
	}
}

func TestValidate(t *testing.T) {
	db := newStore(t)
	r := getRecord(t, db, "R1")
	good := decided(ownerA, "C-1", r, FalsePositive)
	tests := []struct {
		field  string
		change func(d *Decision)
	}{
		{"owner", func(d *Decision) { d.Owner = "" }},
		{"subject", func(d *Decision) { d.Subject = " " }},
		{"subject", func(d *Decision) { d.Subject = "C-1\x00x" }},
		{"subject", func(d *Decision) { d.Subject = strings.Repeat("s", MaxSubjectBytes+1) }},
		{"subject", func(d *Decision) { d.Subject = "\xff" }},
		{"record_id", func(d *Decision) { d.RecordID = "R 1" }},
		{"status", func(d *Decision) { d.Status = "cleared" }},
		{"status", func(d *Decision) { d.Status = "FALSE_POSITIVE" }},
		{"note", func(d *Decision) { d.Note = strings.Repeat("n", MaxNoteBytes+1) }},
		{"note", func(d *Decision) { d.Note = "bell\a" }},
		{"decided_by", func(d *Decision) { d.Who = "" }},
		{"fingerprint", func(d *Decision) { d.Fingerprint = "abc" }},
		{"fingerprint", func(d *Decision) { d.Fingerprint = strings.ToUpper(good.Fingerprint) }},
		{"identity_fingerprint", func(d *Decision) { d.IdentityFingerprint = "" }},
	}
	book := New(db, Options{})
	for _, tt := range tests {
		d := good
		tt.change(&d)
		_, _, err := book.Decide(d)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field {
			t.Errorf("%s: Decide error %v, want a FieldError on %s", tt.field, err, tt.field)
		}
	}
	if n, _ := book.Count(""); n != 0 {
		t.Errorf("%d invalid decisions stored", n)
	}
	multiline := good
	multiline.Note = "line one\nline two\ttab"
	if _, _, err := book.Decide(multiline); err != nil {
		t.Errorf("a note of several lines: %v", err)
	}
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]string{"false_positive": FalsePositive, "False positive": FalsePositive,
		"false-positive": FalsePositive, " TRUE_MATCH ": TrueMatch, "escalated": Escalated} {
		if got, err := ParseStatus(in); got != want || err != nil {
			t.Errorf("ParseStatus(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fp", "false", "positive"} {
		if got, err := ParseStatus(in); err == nil {
			t.Errorf("ParseStatus(%q) = %q, want an error", in, got)
		}
	}
}

func TestSuppressUpdate(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{Now: func() time.Time { return t0 }})
	r := getRecord(t, db, "R1")
	if _, _, err := book.Decide(decided(ownerA, "profile-1", r, FalsePositive)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := book.Decide(decided(ownerA, "profile-2", r, TrueMatch)); err != nil {
		t.Fatal(err)
	}
	address := r.Clone()
	address.Address = []string{"Elsewhere"}
	name := r.Clone()
	name.AliasNames = append(name.AliasNames, "Ivan Petroff")
	dob := r.Clone()
	dob.DateOfBirth = []string{"12/03/1961"}
	cit := r.Clone()
	cit.Citizenship = append(cit.Citizenship, "CY")
	tests := []struct {
		name    string
		owner   string
		profile string
		after   *record.Record
		want    bool
	}{
		{"address changed: held back", ownerA, "profile-1", address, true},
		{"same record: held back", ownerA, "profile-1", r, true},
		{"alias added: sent", ownerA, "profile-1", name, false},
		{"date of birth changed: sent", ownerA, "profile-1", dob, false},
		{"citizenship added: sent", ownerA, "profile-1", cit, false},
		{"true match: sent", ownerA, "profile-2", address, false},
		{"another profile: sent", ownerA, "profile-3", address, false},
		{"another owner: sent", ownerB, "profile-1", address, false},
		{"nothing after: sent", ownerA, "profile-1", nil, false},
	}
	for _, tt := range tests {
		var got bool
		err := db.Read(func(tx *store.Tx) error {
			var err error
			got, err = SuppressUpdate(tx, tt.owner, tt.profile, tt.after)
			return err
		})
		if err != nil || got != tt.want {
			t.Errorf("%s: SuppressUpdate = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestReadsOfAStoreWithoutDecisions(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{})
	if cur, err := book.Current(ownerA, "C-1"); err != nil || len(cur) != 0 {
		t.Errorf("Current: %v, %v", cur, err)
	}
	if set, err := book.LoadSet(ownerA); err != nil || set.Len() != 0 {
		t.Errorf("LoadSet: %v", err)
	}
	var buf bytes.Buffer
	if n, err := book.Export(&buf, "", CSV); n != 0 || err != nil || buf.String() != strings.Join(Columns, ",")+"\n" {
		t.Errorf("Export: %d, %v, %q", n, err, buf.String())
	}
	err := db.Read(func(tx *store.Tx) error {
		got, err := SuppressUpdate(tx, ownerA, "p", getRecord(t, db, "R1"))
		if got || err != nil {
			t.Errorf("SuppressUpdate without decisions: %v, %v", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
