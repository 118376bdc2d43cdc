package eu

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestEUCSVFixture reads a file made from the published CSV schema (no real
// edition was at hand) holding the entities of the XML fixture: both
// formats must give the same records, but for the weak alias, which the
// CSV does not mark.
func TestEUCSVFixture(t *testing.T) {
	b, err := os.ReadFile("../testdata/eucsv/csvFullSanctionsList_1_1.csv")
	if err != nil {
		t.Fatal(err)
	}
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return EUCSV(bytes.NewReader(b), emit) })
	x, err := os.Open("../testdata/eu/fsf.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	want := convtest.Collect(t, func(emit func(*record.Record) error) error { return EU(x, emit) })
	if len(got) != 2 || len(want) != 2 {
		t.Fatalf("%d records from the CSV, %d from the XML, want 2", len(got), len(want))
	}
	convtest.CheckRecords(t, got)
	want[0].AliasNames = append(want[0].AliasNames, "Vanya")
	want[0].NameRemarks = []string{"Vanya: Low quality alias"}
	for i := range want {
		convtest.WantRecord(t, got[i], want[i])
	}
}

// TestEUCSVRowsApart checks that an entity's rows are gathered wherever
// they stand, and that a header line before the columns is passed over.
func TestEUCSVRowsApart(t *testing.T) {
	in := "fileGenerationDate;2025-01-15\n" +
		"Entity_LogicalId;Entity_SubjectType;NameAlias_WholeName;Citizenship_CountryIso2Code\n" +
		"7;P;Anna EXAMPLE;\n" +
		"8;E;Example Trading LLC;\n" +
		"7;P;Anya EXAMPLE;\n" +
		"7;P;;FR\n" +
		";;;\n"
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return EUCSV(strings.NewReader(in), emit) })
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	convtest.CheckRecords(t, recs)
	a := recs[0]
	if a.ID != "EU-7" || a.EntityType != record.EntityIndividual || a.Name != "Anna EXAMPLE" ||
		strings.Join(a.AliasNames, "|") != "Anya EXAMPLE" || strings.Join(a.Citizenship, "|") != "FR" {
		t.Errorf("entity 7: %s", a.Append(nil, record.WriteOptions{}))
	}
	if recs[1].ID != "EU-8" || recs[1].EntityType != record.EntityEntity {
		t.Errorf("entity 8: %s", recs[1].Append(nil, record.WriteOptions{}))
	}
}

func TestEUCSVErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"not the EU file", "a;b;c\n1;2;3\n", "no header with Entity_LogicalId"},
		{"no name column", "Entity_LogicalId;Entity_SubjectType\n1;P\n", "no NameAlias_WholeName column"},
		{"no id", "Entity_LogicalId;NameAlias_WholeName\n1;A\n;B\n", "line 3: field Entity_LogicalId: empty"},
		{"no rows", "Entity_LogicalId;NameAlias_WholeName\n", "no entity rows"},
		{"no name", "Entity_LogicalId;NameAlias_WholeName;Citizenship_CountryIso2Code\n5;;FR\n", "has no name"},
		{"broken quote", "Entity_LogicalId;NameAlias_WholeName\n1;\"A\n", "EU list CSV"},
		{"name too long", "Entity_LogicalId;NameAlias_WholeName\n1;A\n1;" + strings.Repeat("B", 1100) + "\n", "entity 1: field \"alias_names\""},
	} {
		err := EUCSV(strings.NewReader(c.in), func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
