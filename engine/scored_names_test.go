package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestNameStringAtAgrees pins nameStringAt to NameStrings: every slot of
// generated records of every type, and records with blank parts, give the
// same field and text, and the slot after the last gives none.
func TestNameStringAtAgrees(t *testing.T) {
	recs := generated(3000, 5)
	ind := record.EntityIndividual
	recs = append(recs,
		&record.Record{ID: "b1", EntityType: ind, Name: " ", TLName: "T", AliasNames: []string{"", "A b", "  "}, GivenNames: []string{" ", ""}, LastNames: []string{""}},
		&record.Record{ID: "b2", EntityType: ind, GivenNames: []string{"Ann"}, LastNames: []string{"", ""}, AliasGivenNames: []string{" ", "Bo"}},
		&record.Record{ID: "b3", EntityType: ind, LastNames: []string{"Lee", "Park"}, AliasGivenNames: []string{"", "Jun"}},
		&record.Record{ID: "b4", EntityType: ind, GivenNames: []string{" "}, LastNames: []string{" "}, AliasGivenNames: []string{" "}},
		&record.Record{ID: "b5", EntityType: record.EntityEntity, Name: "X Ltd", GivenNames: []string{"Not"}, LastNames: []string{"Used"}},
		&record.Record{ID: "b6"},
	)
	for _, r := range recs {
		want := NameStrings(r)
		for slot := 0; slot <= len(want); slot++ {
			got, ok := nameStringAt(r, slot)
			if slot == len(want) {
				if ok {
					t.Errorf("%s slot %d: got %+v past the last name string", r.ID, slot, got)
				}
				continue
			}
			if !ok || got != want[slot] {
				t.Errorf("%s slot %d: got %+v (%v), want %+v", r.ID, slot, got, ok, want[slot])
			}
		}
	}
}
