package report

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestSectionsShowEveryAttribute: a record with every attribute set shows
// each of them (id aside, which heads the page) under its report label,
// an attribute this version does not know included.
func TestSectionsShowEveryAttribute(t *testing.T) {
	obj := map[string]json.RawMessage{"id": json.RawMessage(`"R1"`), "vesselFlag": json.RawMessage(`"PA"`)}
	for _, a := range record.Attributes() {
		if a == "id" {
			continue
		}
		// Each attribute takes a list, a string or a number: the first
		// its reader accepts.
		for _, v := range []string{`["v"]`, `"2"`, `2`} {
			if json.Unmarshal([]byte(`{"id":"R1","`+a+`":`+v+`}`), new(record.Record)) == nil {
				obj[a] = json.RawMessage(v)
				break
			}
		}
		if obj[a] == nil {
			t.Fatalf("no value found for %s", a)
		}
	}
	b, _ := json.Marshal(obj)
	var r record.Record
	if err := r.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	var keys []string
	labels := map[string]bool{}
	for _, s := range Sections(&r, []record.Source{{Source: "v", Name: "A source"}}) {
		for _, row := range s.Rows {
			keys = append(keys, row.Key)
			labels[row.Label] = true
			if len(row.Values) == 0 {
				t.Errorf("%s: no values", row.Label)
			}
		}
	}
	for _, a := range record.Attributes() {
		if a != "id" && !slices.Contains(keys, a) {
			t.Errorf("attribute %s is not shown", a)
		}
	}
	if !labels["vesselFlag"] {
		t.Error("the unknown attribute vesselFlag is not shown")
	}
}
