package opensanctions

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func convertOS(t *testing.T, path string, fn func(r *bytes.Reader, emit func(*record.Record) error) error) map[string]*record.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*record.Record{}
	if err := fn(bytes.NewReader(b), func(r *record.Record) error {
		if err := conv.CheckRecord(r); err != nil {
			t.Errorf("record %s: %v", r.ID, err)
		}
		got[r.ID] = r
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestFtM(t *testing.T) {
	got := convertOS(t, "../testdata/opensanctions/entities.ftm.json", func(r *bytes.Reader, emit func(*record.Record) error) error {
		return FtM(r, OpenSanctionsOptions{}, emit)
	})
	var ids []string
	for id := range got {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	want := []string{"OS-NK-abc123", "OS-NK-air-1", "OS-NK-co-1", "OS-NK-crime-1", "OS-NK-org-soe", "OS-NK-ship-1", "OS-Q-pep-1", "OS-Q-rca-1"}
	if !slices.Equal(ids, want) {
		t.Fatalf("records %v, want %v (sanctions and non-targets skipped)", ids, want)
	}
	cases := []struct {
		id    string
		check func(r *record.Record) bool
		what  string
	}{
		{"OS-NK-abc123", func(r *record.Record) bool {
			return r.SourceID == "os_us_ofac_sdn" && r.SourceType == record.SourceSanction && r.EntityType == record.EntityIndividual &&
				r.Name == "Ivan Petrovich EXAMPLOV" && slices.Equal(r.AliasNames, []string{"Ivan Examplov", "Иван Экземплов"}) &&
				slices.Equal(r.NameRemarks, []string{"Vanya"}) && slices.Equal(r.GivenNames, []string{"Ivan"}) &&
				slices.Equal(r.DateOfBirth, []string{"12/03/1965", "00/00/1966"}) && slices.Equal(r.Citizenship, []string{"RU", "CY"}) &&
				r.Gender == record.GenderMale && slices.Contains(r.OtherInformation, "Passport 710000001") &&
				slices.Contains(r.OtherInformation, "OpenSanctions datasets: us_ofac_sdn, eu_fsf") &&
				slices.Equal(r.Address, []string{"10 Example Street, Moscow, Russia"}) && slices.Equal(r.SanctionDetails, []string{"RUSSIA-EO14024"}) &&
				slices.Equal(r.PlaceOfBirth, []string{"Tula, Russia"}) && r.ListDate > 0 && len(r.CompanyNumber) == 0
		}, "sanctioned person, every property"},
		{"OS-Q-pep-1", func(r *record.Record) bool {
			return r.SourceType == record.SourcePEP && r.PEPType == "POLITICIAN" && r.SourceID == "os_everypolitician" &&
				slices.Equal(r.Citizenship, []string{"DE"}) && r.Gender == record.GenderFemale && slices.Equal(r.DateOfBirth, []string{"00/07/1971"})
		}, "PEP with a position"},
		{"OS-Q-rca-1", func(r *record.Record) bool {
			return r.SourceType == record.SourcePEP && r.PEPType == "RELATIVES_AND_CLOSE_ASSOCIATES" && r.Gender == record.GenderUnknown
		}, "relative or close associate"},
		{"OS-NK-co-1", func(r *record.Record) bool {
			return r.EntityType == record.EntityEntity && slices.Equal(r.AliasNames, []string{"AO Primer Oborona", "Example Arms Plant"}) &&
				slices.Equal(r.Jurisdiction, []string{"RU"}) && slices.Equal(r.CompanyNumber, []string{"1027700000001", "7700000001"}) &&
				r.Gender == ""
		}, "company with registration numbers"},
		{"OS-NK-ship-1", func(r *record.Record) bool {
			return r.EntityType == record.EntityVessel && slices.Contains(r.OtherInformation, "IMO IMO 9123456") && slices.Equal(r.Jurisdiction, []string{"RU"})
		}, "vessel"},
		{"OS-NK-air-1", func(r *record.Record) bool { return r.EntityType == record.EntityAircraft }, "airplane"},
		{"OS-NK-crime-1", func(r *record.Record) bool { return r.SourceType == record.SourceCriminal }, "crime topic"},
		{"OS-NK-org-soe", func(r *record.Record) bool {
			return r.SourceType == record.SourcePEP && r.PEPType == "STATE_OWNED_ENTERPRISE"
		}, "state-owned enterprise"},
	}
	for _, c := range cases {
		if r := got[c.id]; r == nil || !c.check(r) {
			t.Errorf("%s (%s): %s", c.id, c.what, r.Append(nil, record.WriteOptions{}))
		}
	}
}

func TestFtMErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id":"x","schema":"Person","properties":{"name":["A"]},"datasets":["d"]}` + "\n{broken\n", "line 2"},
		{`{"id":"","schema":"Person","properties":{"name":["A"]},"datasets":["d"]}`, "no id"},
		{`{"id":"x","schema":"Person","properties":{},"datasets":["d"]}`, "no name"},
		{`{"id":"x","schema":"Person","properties":{"name":["A"]}}`, "no dataset"},
	} {
		err := FtM(strings.NewReader(c.in), OpenSanctionsOptions{}, func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.in, err, c.want)
		}
	}
}

func TestOpenSanctionsSimple(t *testing.T) {
	got := convertOS(t, "../testdata/opensanctions/targets.simple.csv", func(r *bytes.Reader, emit func(*record.Record) error) error {
		return OpenSanctionsSimple(r, OpenSanctionsOptions{}, emit)
	})
	if len(got) != 4 {
		t.Fatalf("%d records, want 4", len(got))
	}
	p := got["OS-NK-abc123"]
	if p.SourceID != "os_us_ofac_specially_designated_nationals__sdn__list" || p.SourceType != record.SourceSanction ||
		!slices.Equal(p.AliasNames, []string{"Ivan Examplov", "Иван Экземплов"}) || !slices.Equal(p.DateOfBirth, []string{"12/03/1965", "00/00/1966"}) ||
		!slices.Equal(p.Citizenship, []string{"RU", "CY"}) || !slices.Equal(p.Address, []string{"10 Example Street, Moscow, Russia"}) ||
		!slices.Contains(p.OtherInformation, "Identifier 710000001") || !slices.Contains(p.OtherInformation, "Phone +7 495 000 0000") ||
		!slices.Equal(p.SanctionDetails, []string{"Blocked - RUSSIA-EO14024 - 2022-03-15", "Asset freeze - EU 269/2014", "RUSSIA-EO14024"}) ||
		!slices.Contains(p.OtherInformation, "OpenSanctions datasets: US OFAC Specially Designated Nationals (SDN) List, EU Financial Sanctions Files (FSF)") ||
		!slices.Equal(p.Links, []string{"ivan@example.org"}) {
		t.Errorf("person: %s", p.Append(nil, record.WriteOptions{}))
	}
	if c := got["OS-NK-co-1"]; c.EntityType != record.EntityEntity || !slices.Equal(c.Jurisdiction, []string{"RU"}) || !slices.Equal(c.CompanyNumber, []string{"1027700000001", "7700000001"}) {
		t.Errorf("company: %s", c.Append(nil, record.WriteOptions{}))
	}
	if r := got["OS-Q-pep-1"]; r.SourceType != record.SourceOther {
		t.Errorf("row without sanctions: source_type %s, want OTHER", r.SourceType)
	}
	forced := convertOS(t, "../testdata/opensanctions/targets.simple.csv", func(r *bytes.Reader, emit func(*record.Record) error) error {
		return OpenSanctionsSimple(r, OpenSanctionsOptions{SourceID: "opensanctions", SourceType: record.SourcePEP}, emit)
	})
	if r := forced["OS-Q-pep-1"]; r.SourceID != "opensanctions" || r.SourceType != record.SourcePEP || r.PEPType == "" {
		t.Errorf("forced source: %s", r.Append(nil, record.WriteOptions{}))
	}
	err := OpenSanctionsSimple(strings.NewReader("id,name\nx,y\n"), OpenSanctionsOptions{}, func(*record.Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `no "schema" column`) {
		t.Errorf("missing column: %v", err)
	}
	err = OpenSanctionsSimple(strings.NewReader("id,schema,name,dataset\nx,Person,,d\n"), OpenSanctionsOptions{}, func(*record.Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "field name") {
		t.Errorf("empty name: %v", err)
	}
}

func FuzzFtM(f *testing.F) {
	convtest.FuzzSeed(f, "../testdata/opensanctions/entities.ftm.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		FtM(bytes.NewReader(data), OpenSanctionsOptions{}, convtest.CheckEmitted(t))
	})
}

func FuzzOpenSanctionsSimple(f *testing.F) {
	convtest.FuzzSeed(f, "../testdata/opensanctions/targets.simple.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		OpenSanctionsSimple(bytes.NewReader(data), OpenSanctionsOptions{}, convtest.CheckEmitted(t))
	})
}
