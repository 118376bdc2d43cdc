package store_test

import (
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/internal/storetest"
	"github.com/amlscreen/amlscreen/lists"
	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/store"
)

// fixtureOwner is the key id that owns the fixture's profile, decision
// and usage.
const fixtureOwner = "0123456789abcdef0123456789abcdef"

// TestOpensAStoreWrittenBeforeSubStores opens a store written by the
// binary of before the sub-stores (testdata/main-2026-11.db.gz: monitor's
// testdata records and delta1, one profile with a queued notification, one
// decision, two counted calls, media's testdata corpus, one list's state)
// and reads every package's state back through the sub-stores: the move
// changed no bucket name and no encoding.
func TestOpensAStoreWrittenBeforeSubStores(t *testing.T) {
	db := storetest.OpenGzipped(t, "testdata/main-2026-11.db.gz")
	if v, err := db.Version(); err != nil || v.ID != "2026-11-02T00:00:00Z~2" {
		t.Fatalf("version %+v, %v", v, err)
	}

	m := monitor.New(db, monitor.Options{})
	ps, err := m.Profiles(fixtureOwner)
	if err != nil || len(ps) != 1 || ps[0].ID != "p-olga" || ps[0].Names != "Olga Ivanova" {
		t.Errorf("profiles: %+v, %v", ps, err)
	}
	queued, err := monitor.NewOutbox(db).Queued(0)
	if err != nil || len(queued) == 0 {
		t.Fatalf("outbox: %d queued, %v", len(queued), err)
	}
	for _, e := range queued {
		if e.Owner != fixtureOwner || e.ProfileID != "p-olga" {
			t.Errorf("queued notification of %s/%s", e.Owner, e.ProfileID)
		}
	}

	cur, err := decision.New(db, decision.Options{}).Current(fixtureOwner, "p-olga")
	if err != nil || cur["R1"].Status != decision.FalsePositive || cur["R1"].Who != "analyst" {
		t.Errorf("decisions: %+v, %v", cur, err)
	}
	err = db.Read(func(tx *store.Tx) error {
		d, err := decision.CurrentTx(tx, fixtureOwner, "p-olga", "R1")
		if err != nil || d == nil || d.Status != decision.FalsePositive {
			t.Errorf("CurrentTx: %+v, %v", d, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	month, err := access.NewBook(db).Month(fixtureOwner, "2026-11")
	if n := month["/v1/checkIndividual"]["2026-11-02"]; err != nil || n != 2 {
		t.Errorf("usage: %v, %v", month, err)
	}

	states, err := lists.Status(db)
	if err != nil || len(states) != 1 || states[0].Name != "un_sc" {
		t.Errorf("lists: %+v, %v", states, err)
	}

	c, err := media.Load(db, media.Options{})
	if err != nil || c.Len() != 13 {
		t.Fatalf("media: %v articles, %v", c, err)
	}
}
