package casework

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// testArgon keeps password hashing cheap in tests; the parameters are
// stored with each hash, so verification uses them too.
var testArgon = Argon2Params{Memory: 64, Time: 1, Threads: 1}

const testPassword = "correct horse battery"

// clock is a test clock that moves a second at every reading.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func openTest(t testing.TB) (*Casework, *store.Store) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ck := &clock{t: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
	return New(db, Options{Now: ck.now, Argon2: testArgon}), db
}

// addUsers adds users named after their roles: ana and alf (analysts),
// rev and rita (reviewers), adm (admin) and dis (a disabled analyst).
func addUsers(t testing.TB, c *Casework) {
	t.Helper()
	op := Operator("test")
	for name, role := range map[string]string{"ana": Analyst, "alf": Analyst, "rev": Reviewer, "rita": Reviewer, "adm": Admin, "dis": Analyst} {
		if err := c.AddUser(op, name, role, testPassword); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.DisableUser(op, "dis"); err != nil {
		t.Fatal(err)
	}
}

func testRecord(i int, sourceType string) *record.Record {
	return &record.Record{ID: fmt.Sprintf("R%05d", i), Name: fmt.Sprintf("Person Number %d", i),
		SourceID: "src-1", SourceType: sourceType, EntityType: "INDIVIDUAL"}
}

func hitOn(subject string, r *record.Record) NewAlert {
	return NewAlert{Subject: subject, Origin: OriginBatch, Version: "v1",
		Query:  Query{Kind: "individual", Names: "person number"},
		Hit:    Hit{RecordID: r.ID, RecordName: r.Name, SourceType: r.SourceType, MatchedName: r.Name, Reason: "person=person"},
		Record: r}
}

// raiseOne raises one alert and returns its id.
func raiseOne(t testing.TB, c *Casework, subject string, r *record.Record) uint64 {
	t.Helper()
	if _, err := c.Raise("batch", []NewAlert{hitOn(subject, r)}); err != nil {
		t.Fatal(err)
	}
	a, err := c.AlertFor(subject, r.ID)
	if err != nil || a == nil {
		t.Fatalf("alert for %s/%s: %v, %v", subject, r.ID, a, err)
	}
	return a.ID
}

func mustVerify(t testing.TB, c *Casework) int {
	t.Helper()
	n, err := c.Verify()
	if err != nil {
		t.Fatalf("audit verify: %v", err)
	}
	return n
}
