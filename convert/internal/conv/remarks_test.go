package conv

import (
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

func TestParseRemarks(t *testing.T) {
	ind, ent := record.EntityIndividual, record.EntityEntity
	tests := []struct {
		name    string
		typ     string
		remarks string
		want    record.Record
	}{
		{"empty", ind, "", record.Record{}},
		{"null marker", ind, "-0-", record.Record{}},
		{"full date", ind, "DOB 12 Mar 1960.", record.Record{DateOfBirth: []string{"12/03/1960"}}},
		{"month and year", ind, "DOB Mar 1960", record.Record{DateOfBirth: []string{"00/03/1960"}}},
		{"year", ind, "DOB 1960", record.Record{DateOfBirth: []string{"00/00/1960"}}},
		{"circa year", ind, "DOB circa 1960",
			record.Record{DateOfBirth: []string{"00/00/1960"}, DateOfBirthRemarks: []string{"circa 1960"}}},
		{"circa full date", ind, "DOB circa 07 Jul 1966",
			record.Record{DateOfBirth: []string{"07/07/1966"}, DateOfBirthRemarks: []string{"circa 07 Jul 1966"}}},
		{"year range", ind, "DOB 1960 to 1962", record.Record{
			DateOfBirth:        []string{"00/00/1960", "00/00/1961", "00/00/1962"},
			DateOfBirthRemarks: []string{"1960 to 1962"}}},
		{"circa year span", ind, "DOB circa 1979-1982", record.Record{
			DateOfBirth:        []string{"00/00/1979", "00/00/1980", "00/00/1981", "00/00/1982"},
			DateOfBirthRemarks: []string{"circa 1979-1982"}}},
		{"date range over years", ind, "DOB 01 Jan 1961 to 31 Dec 1962", record.Record{
			DateOfBirth:        []string{"00/00/1961", "00/00/1962"},
			DateOfBirthRemarks: []string{"01 Jan 1961 to 31 Dec 1962"}}},
		{"range within a month", ind, "DOB 01 Feb 1960 to 29 Feb 1960", record.Record{
			DateOfBirth:        []string{"00/02/1960"},
			DateOfBirthRemarks: []string{"01 Feb 1960 to 29 Feb 1960"}}},
		{"month range", ind, "DOB Mar 1962 to Feb 1963", record.Record{
			DateOfBirth:        []string{"00/00/1962", "00/00/1963"},
			DateOfBirthRemarks: []string{"Mar 1962 to Feb 1963"}}},
		{"range too wide is only a remark", ind, "DOB 1900 to 1950",
			record.Record{DateOfBirthRemarks: []string{"1900 to 1950"}}},
		{"reversed range is only a remark", ind, "DOB 1962 to 1960",
			record.Record{DateOfBirthRemarks: []string{"1962 to 1960"}}},
		{"impossible date is only a remark", ind, "DOB 31 Feb 1960",
			record.Record{DateOfBirthRemarks: []string{"31 Feb 1960"}}},
		{"several DOBs, repeats dropped", ind, "DOB 12 Mar 1960; alt. DOB 1962; alt. DOB 12 Mar 1960",
			record.Record{DateOfBirth: []string{"12/03/1960", "00/00/1962"}}},
		{"place of birth", ind, "POB Baghdad, Iraq; alt. POB Mosul or Baghdad, Iraq",
			record.Record{PlaceOfBirth: []string{"Baghdad, Iraq", "Mosul or Baghdad, Iraq"}}},
		{"nationality and citizen", ind, "nationality Iran; citizen Korea, North; alt. nationality Iran",
			record.Record{Citizenship: []string{"IR", "KP"}}},
		{"unknown country kept as given", ind, "citizen Atlantis",
			record.Record{Citizenship: []string{"Atlantis"}}},
		{"hedged nationality is a remark", ind, "nationality possibly Palestinian",
			record.Record{CitizenshipRemarks: []string{"possibly Palestinian"}}},
		{"nationality of registration is no citizenship", ent, "Nationality of Registration Korea, North",
			record.Record{OtherInformation: []string{"Nationality of Registration Korea, North"}}},
		{"gender male", ind, "Gender Male", record.Record{Gender: record.GenderMale}},
		{"gender female", ind, "Gender Female", record.Record{Gender: record.GenderFemale}},
		{"gender unknown value kept", ind, "Gender Other", record.Record{OtherInformation: []string{"Gender Other"}}},
		{"weak alias", ind, "a.k.a. 'EL GORDO'; a.k.a. 'CHEPE'",
			record.Record{NameRemarks: []string{"EL GORDO", "CHEPE"}}},
		{"email and website", ent, "Email Address info@example.org; alt. Website http://example.org", record.Record{
			Links:            []string{"info@example.org", "http://example.org"},
			OtherInformation: []string{"alt. Website http://example.org"}}},
		{"entity registration number", ent, "Company Number 01074897 (United Kingdom); Folio Mercantil No. 343997 (Mexico) issued 14 Dec 2005", record.Record{
			CompanyNumber:    []string{"01074897", "343997"},
			OtherInformation: []string{"Company Number 01074897 (United Kingdom)", "Folio Mercantil No. 343997 (Mexico) issued 14 Dec 2005"}}},
		{"UK company number is not read as company number", ent, "UK Company Number 01126618 (United Kingdom)", record.Record{
			CompanyNumber:    []string{"01126618"},
			OtherInformation: []string{"UK Company Number 01126618 (United Kingdom)"}}},
		{"individual registration number is other information", ind, "Registration Number 123",
			record.Record{OtherInformation: []string{"Registration Number 123"}}},
		{"sanction statements", ent, "Secondary sanctions risk: North Korea Sanctions Regulations, sections 510.201 and 510.210; alt. Executive Order 13662 Directive Determination - Subject to Directive 4",
			record.Record{SanctionDetails: []string{
				"Secondary sanctions risk: North Korea Sanctions Regulations, sections 510.201 and 510.210",
				"Executive Order 13662 Directive Determination - Subject to Directive 4"}}},
		{"identifiers", ind, "Passport A1234567 (Iraq); National ID No. 99887766 (Iraq); Vessel Registration Identification IMO 1234567",
			record.Record{OtherInformation: []string{"Passport A1234567 (Iraq)", "National ID No. 99887766 (Iraq)", "Vessel Registration Identification IMO 1234567"}}},
		{"abbreviation at the end keeps its dot", ent, "Linked To: BANCO X S.A.",
			record.Record{OtherInformation: []string{"Linked To: BANCO X S.A."}}},
		{"citizen's card is no citizenship", ind, "Citizen's Card Number 211226197812154256 (China)",
			record.Record{OtherInformation: []string{"Citizen's Card Number 211226197812154256 (China)"}}},
		{"DOB without a date", ind, "DOB; POB", record.Record{OtherInformation: []string{"POB"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := &record.Record{EntityType: tt.typ}
			ParseRemarks(got, tt.remarks)
			want := tt.want
			want.EntityType = tt.typ
			wantRecord(t, got, &want)
		})
	}
}

func FuzzParseRemarks(f *testing.F) {
	for _, s := range []string{
		"DOB 12 Mar 1960; alt. DOB circa 1961; POB Baghdad, Iraq; nationality Iraq; Gender Male.",
		"DOB 1960 to 1962; DOB Mar 1958; DOB circa 1979-1982; DOB 01 Jan 1961 to 31 Dec 1962",
		"DOB 29 Feb 1900; DOB 29 Feb 2000; DOB 00 Mar 1960; DOB 1799; DOB 2101 to 2102",
		"nationality possibly Palestinian; citizen Korea, North; a.k.a. 'X'; Website www.example.org",
		"Company Number 1 (United Kingdom); Email Address a@b; Secondary sanctions risk: x",
		";;; ; DOB ; POB ; . ",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, remarks string, individual bool) {
		r := &record.Record{EntityType: record.EntityEntity}
		if individual {
			r.EntityType = record.EntityIndividual
		}
		ParseRemarks(r, remarks)
		for _, d := range r.DateOfBirth {
			if err := checkDate(d); err != nil {
				t.Fatalf("ParseRemarks(%q) gave date of birth %q: %v", remarks, d, err)
			}
		}
		switch r.Gender {
		case "", record.GenderMale, record.GenderFemale:
		default:
			t.Fatalf("ParseRemarks(%q) gave gender %q", remarks, r.Gender)
		}
		r.TextFields(func(f record.Field) {
			for _, v := range f.Values {
				if strings.TrimSpace(v) == "" {
					t.Fatalf("ParseRemarks(%q) left an empty value in %s", remarks, f.Key)
				}
			}
		})
	})
}
