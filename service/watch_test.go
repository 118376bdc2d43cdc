package service

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestMonitorMatchesBecomeAlerts: a change set that matches a search
// profile queues its notification and raises an alert (origin monitor,
// the profile id as subject, its key as owner) in the same transaction; a
// deletion raises none, and the same match again raises no second alert.
func TestMonitorMatchesBecomeAlerts(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	recs := []*record.Record{{ID: "R1", SourceID: "un", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Karl Otto"}}
	i := 0
	if err := db.ReplaceAll("v1", func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSources([]record.Source{{Source: "un", Name: "UN", SourceType: "sanction"}}); err != nil {
		t.Fatal(err)
	}
	index := func() (*engine.Index, error) { return nil, nil } // strict profiles need none
	mon := monitor.New(db, MonitorOptions(db, index, nil))
	Watch{Index: index, Monitor: mon}.Register(db)
	const owner = "0123456789abcdef0123456789abcdef"
	if _, _, err := mon.Register(owner, monitor.Params{ID: "cust-9", Kind: query.Individual, Names: "Anna Berg"}, access.Policy{}, -1); err != nil {
		t.Fatal(err)
	}
	add := record.Record{ID: "R2", SourceID: "un", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Anna Berg"}
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: add}}, nil); err != nil {
		t.Fatal(err)
	}
	cw := casework.New(db, casework.Options{})
	as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Subject != "cust-9" || as[0].Owner != owner || as[0].Hit.RecordID != "R2" || as[0].Version != "v2" {
		t.Fatalf("alerts %+v, want one on R2 for cust-9", as)
	}
	renamed := add
	renamed.AliasNames = []string{"Anna Bergh"}
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: record.ChangeUpdate, Record: renamed}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ApplyDelta("v3", "v4", []record.Change{{Type: record.ChangeDelete, Record: record.Record{ID: "R2"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if as, _ = cw.Alerts(casework.Filter{}); len(as) != 1 {
		t.Errorf("%d alerts after an update and a deletion, want the one", len(as))
	}
	if n, err := cw.Verify(); err != nil || n == 0 {
		t.Errorf("audit chain: %d entries, %v", n, err)
	}
}
