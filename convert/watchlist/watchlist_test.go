package watchlist

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/table"
)

func watchlist(t *testing.T, path string, o WatchlistOptions) ([]*record.Record, []table.Reject, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*record.Record
	var rejs []table.Reject
	err = Watchlist(bytes.NewReader(data), o, func(r *record.Record) error {
		recs = append(recs, r)
		return nil
	}, func(r table.Reject) error {
		rejs = append(rejs, r)
		return nil
	})
	return recs, rejs, err
}

func TestWatchlistCSV(t *testing.T) {
	m, err := table.ParseMapping("id=CIF,name=Full Name,type=Kind,dob=Born,gender=Sex,citizenship=Country")
	if err != nil {
		t.Fatal(err)
	}
	o := WatchlistOptions{Read: table.ReadOptions{Map: m}, SourceID: "my_bank", SourceType: record.SourceOther}
	recs, rejs, err := watchlist(t, "../testdata/watchlist/internal.csv", o)
	if err != nil {
		t.Fatal(err)
	}
	convtest.CheckRecords(t, recs)
	want := []*record.Record{
		{ID: "my_bank:100", SourceID: "my_bank", SourceType: record.SourceOther, EntityType: record.EntityIndividual,
			Gender: record.GenderMale, Name: "Ivan Examplov", DateOfBirth: []string{"12/03/1960"}, Citizenship: []string{"RU"}},
		{ID: "my_bank:101", SourceID: "my_bank", SourceType: record.SourceOther, EntityType: record.EntityEntity,
			Name: "Example Trading LLC", Jurisdiction: []string{"AE"}, OtherInformation: []string{"Date 2001-05-06"}},
		{ID: "my_bank:102", SourceID: "my_bank", SourceType: record.SourceOther, EntityType: record.EntityUnknown,
			Gender: record.GenderFemale, Name: "Jane Roe", DateOfBirth: []string{"00/00/1960"}, Citizenship: []string{"DE"}},
		{ID: "my_bank:108", SourceID: "my_bank", SourceType: record.SourceOther, EntityType: record.EntityVessel,
			Name: "Sea Example", Jurisdiction: []string{"PA"}},
		{ID: "my_bank:109", SourceID: "my_bank", SourceType: record.SourceOther, EntityType: record.EntityIndividual,
			Gender: record.GenderUnknown, Name: "Two Countries", DateOfBirth: []string{"00/00/1960"}, Citizenship: []string{"RU", "CY"}},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i := range want {
		convtest.WantRecord(t, recs[i], want[i])
	}
	// Every other row is rejected with its line and the field at fault.
	var got []string
	for _, r := range rejs {
		got = append(got, strings.Join([]string{strconv.Itoa(r.Line), r.CustomerID, r.Field}, " "))
	}
	wantRej := []string{"5 103 name", "6 104 dob", "7 100 id", "8 105 citizenship", "9 106 7 id", "10 107 type", "13 110 gender"}
	if strings.Join(got, "|") != strings.Join(wantRej, "|") {
		t.Errorf("rejects\n got %v\nwant %v", got, wantRej)
	}
	if !strings.Contains(rejs[2].Reason, "line 2") {
		t.Errorf("duplicate id reason %q does not name the first line", rejs[2].Reason)
	}

	// Another prefix, another default type.
	prefix := "X-"
	o.IDPrefix, o.DefaultType = &prefix, record.EntityIndividual
	recs, _, err = watchlist(t, "../testdata/watchlist/internal.csv", o)
	if err != nil || recs[0].ID != "X-100" || recs[2].EntityType != record.EntityIndividual || recs[2].Gender != record.GenderFemale {
		t.Fatalf("prefix X-, default INDIVIDUAL: %v %+v", err, recs[2])
	}
}

func TestWatchlistJSONL(t *testing.T) {
	o := WatchlistOptions{SourceID: "my_bank", SourceType: record.SourceOther}
	recs, rejs, err := watchlist(t, "../testdata/watchlist/internal.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].ID != "my_bank:A1" || strings.Join(recs[0].Citizenship, ",") != "RU,CY" || recs[0].DateOfBirth[0] != "12/03/1960" {
		t.Fatalf("records %v", recs)
	}
	// A row without an id is rejected, not numbered: a row number is no
	// id that stays the same from one run to the next.
	if len(rejs) != 2 || rejs[0].Line != 2 || rejs[0].Field != "id" || rejs[1].Line != 4 || rejs[1].Field != "row" {
		t.Fatalf("rejects %+v", rejs)
	}
}

func TestWatchlistRefusals(t *testing.T) {
	ok := WatchlistOptions{SourceID: "my_bank", SourceType: record.SourceOther}
	for _, c := range []struct {
		name, in string
		o        WatchlistOptions
		want     string
	}{
		{"no id column", "name,dob\nA,1960\n", ok, "no id column"},
		{"no name column", "id,dob\n1,1960\n", ok, "no name column"},
		{"bad source id", "id,name\n1,A\n", WatchlistOptions{SourceID: "my bank", SourceType: "OTHER"}, "source id"},
		{"no source type", "id,name\n1,A\n", WatchlistOptions{SourceID: "my_bank"}, "source type"},
	} {
		err := Watchlist(strings.NewReader(c.in), c.o, func(*record.Record) error { return nil }, func(table.Reject) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
