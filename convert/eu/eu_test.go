package eu

import (
	"os"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestEUFixture reads a file made from the published format: no edition
// of the real list was at hand.
func TestEUFixture(t *testing.T) {
	f, err := os.Open("../testdata/eu/fsf.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return EU(f, emit) })
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	convtest.CheckRecords(t, recs)
	want := &record.Record{
		ID: "EU-9001", SourceID: SourceEUFSF, SourceType: record.SourceSanction, EntityType: record.EntityIndividual,
		ListDate: 1299888000000, Gender: record.GenderMale, Name: "Ivan Petrovich EXAMPLOV",
		LastNames: []string{"EXAMPLOV"}, GivenNames: []string{"Ivan Petrovich"},
		AliasNames:         []string{"Иван Петрович ЭКЗАМПЛОВ"},
		NameRemarks:        []string{"Vanya", "Vanya: Low quality alias"},
		DateOfBirth:        []string{"12/03/1960", "00/00/1961", "00/00/1958", "00/00/1959"},
		DateOfBirthRemarks: []string{"circa 1961", "1958 to 1959", "1380 (islamic calendar)"},
		PlaceOfBirth:       []string{"Examplegrad, RUSSIAN FEDERATION"},
		Address:            []string{"1 Example Street, Moscow, 101000, RUSSIAN FEDERATION"},
		Citizenship:        []string{"RU"},
		SanctionDetails: []string{"EU programme LYB", "Regulation 204/2011 (OJ L58) https://eur-lex.europa.eu/example-204",
			"EU reference number EU.9.99", "UN reference number QDi.999"},
		Positions:        []string{"Minister of Examples", "Member of the Example Council"},
		Titles:           []string{"Colonel", "Dr"},
		OtherInformation: []string{"National passport AB1234567 (RUSSIAN FEDERATION); known false", "Example remark about the person."},
	}
	convtest.WantRecord(t, recs[0], want)
	want = &record.Record{
		ID: "EU-9002", SourceID: SourceEUFSF, SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate: 1647302400000, Name: "Example Works JSC", AliasNames: []string{"AO Primer"},
		Address:        []string{"2 Example Embankment, P.O. Box 12, Saint Petersburg, 190000, RUSSIAN FEDERATION"},
		AddressRemarks: []string{"Head office"},
		Jurisdiction:   []string{"RU"}, CompanyNumber: []string{"1027700000000"},
		SanctionDetails: []string{"EU programme UKR", "Regulation 2022/427 (OJ L87) https://eur-lex.europa.eu/example-427",
			"EU reference number EU.7.77", "Designated for example reasons."},
		Links:            []string{"info@example.ru", "sales@example.ru"},
		OtherInformation: []string{"Maker of examples", "Registration Number 1027700000000 (RUSSIAN FEDERATION)", "Phone +7 812 000 00 00"},
	}
	convtest.WantRecord(t, recs[1], want)
}

func TestEUErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"not the EU file", `<export><other/></export>`, "no <sanctionEntity>"},
		{"no id", `<export><sanctionEntity euReferenceNumber="EU.1"><nameAlias wholeName="A" strong="true"/></sanctionEntity></export>`, "no logicalId"},
		{"no name", `<export><sanctionEntity logicalId="5"><subjectType code="person"/></sanctionEntity></export>`, "has no name"},
		{"broken", `<export><sanctionEntity logicalId="5">`, "EU list"},
		{"name too long", `<export><sanctionEntity logicalId="5"><nameAlias wholeName="A"/><nameAlias wholeName="` + strings.Repeat("B", 1100) + `"/></sanctionEntity></export>`, `field "alias_names"`},
	} {
		err := EU(strings.NewReader(c.in), func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
