package engine

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestPartnerCacheFollowsTheIndex: a scored check after a change of the
// index sees the change, though the same words were looked up before it
// (the cache belongs to one view), and repeated checks answer alike.
func TestPartnerCacheFollowsTheIndex(t *testing.T) {
	recs := scoredList()
	ix := NewIndex(recs)
	q := query.Query{Names: "Yevgeniy Pasichnyk", Fuzzy: 2, Match: query.Scored}
	first, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(scoredKeys(first)) != fmt.Sprint(scoredKeys(again)) {
		t.Fatalf("the same check answered %v, then %v", scoredKeys(first), scoredKeys(again))
	}
	if hitOf(first, "pasichnyk") == nil {
		t.Fatalf("pasichnyk not found: %v", scoredKeys(first))
	}
	// A new spelling of the surname, held by no record before.
	ix.Apply([]record.Change{{Type: record.ChangeUpdate, Record: record.Record{ID: "pasechnik", SourceID: "ofac", SourceType: "SANCTION",
		EntityType: record.EntityIndividual, Name: "PASECHNIK, Yevgeniy"}}})
	after, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	brute, err := NewBrute(append(recs, &record.Record{ID: "pasechnik", SourceID: "ofac", SourceType: "SANCTION",
		EntityType: record.EntityIndividual, Name: "PASECHNIK, Yevgeniy"})).Search(q)
	if err != nil {
		t.Fatal(err)
	}
	if hitOf(after, "pasechnik") == nil || fmt.Sprint(scoredKeys(after)) != fmt.Sprint(scoredKeys(brute)) {
		t.Errorf("after the change: index %v, brute %v", scoredKeys(after), scoredKeys(brute))
	}
}
