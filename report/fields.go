package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/amlscreen/amlscreen/record"
)

// attr is one record attribute as a report shows it.
type attr struct {
	key   string // snake_case name, as in docs/API.md "Records"
	label string
	get   func(r *record.Record, src map[string]record.Source) []string
}

// group is a heading and the attributes under it.
type group struct {
	title string
	attrs []attr
}

func str(f func(r *record.Record) string) func(*record.Record, map[string]record.Source) []string {
	return func(r *record.Record, _ map[string]record.Source) []string {
		if s := strings.TrimSpace(f(r)); s != "" {
			return []string{s}
		}
		return nil
	}
}

func list(f func(r *record.Record) []string) func(*record.Record, map[string]record.Source) []string {
	return func(r *record.Record, _ map[string]record.Source) []string {
		var out []string
		for _, v := range f(r) {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
}

func countries(f func(r *record.Record) []string) func(*record.Record, map[string]record.Source) []string {
	return func(r *record.Record, _ map[string]record.Source) []string {
		var out []string
		for _, v := range f(r) {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, countryLabel(v))
			}
		}
		return out
	}
}

// groups orders a record's attributes the way a reviewer reads them: who
// it is, why it is listed, how to tell them apart (birth, nationality),
// what they do, who they are linked to, where they are, the rest. Every
// attribute of docs/API.md "Records" except id (the section heading) is here.
var groups = []group{
	{"Identity", []attr{
		{"name", "Name", str(func(r *record.Record) string { return r.Name })},
		{"tl_name", "Name in Latin script", str(func(r *record.Record) string { return r.TLName })},
		{"given_names", "Given names", list(func(r *record.Record) []string { return r.GivenNames })},
		{"last_names", "Last names", list(func(r *record.Record) []string { return r.LastNames })},
		{"alias_names", "Aliases", list(func(r *record.Record) []string { return r.AliasNames })},
		{"alias_given_names", "Alias given names", list(func(r *record.Record) []string { return r.AliasGivenNames })},
		{"name_remarks", "Name remarks", list(func(r *record.Record) []string { return r.NameRemarks })},
		{"entity_type", "Entity type", str(func(r *record.Record) string { return words(r.EntityType) })},
		{"gender", "Gender", str(func(r *record.Record) string { return words(r.Gender) })},
	}},
	{"Listing", []attr{
		{"source_id", "Source", func(r *record.Record, src map[string]record.Source) []string {
			if r.SourceID == "" {
				return nil
			}
			return []string{sourceLabel(r.SourceID, src)}
		}},
		{"source_type", "Source type", str(func(r *record.Record) string { return typeLabel(r.SourceType) })},
		{"pep_type", "PEP type", str(func(r *record.Record) string { return words(r.PEPType) })},
		{"pep_level", "PEP level", str(func(r *record.Record) string { return pepLevel(r.PEPLevel) })},
		{"source_country", "Source country", str(func(r *record.Record) string {
			if r.SourceCountry == "" {
				return ""
			}
			return countryLabel(r.SourceCountry)
		})},
		{"list_date", "Listed on", str(func(r *record.Record) string {
			if r.ListDate <= 0 {
				return ""
			}
			return time.UnixMilli(r.ListDate).UTC().Format("2 January 2006")
		})},
		{"sanction_details", "Sanction details", list(func(r *record.Record) []string { return r.SanctionDetails })},
	}},
	{"Birth and nationality", []attr{
		{"date_of_birth", "Date of birth (dd/mm/yyyy)", list(func(r *record.Record) []string { return r.DateOfBirth })},
		{"date_of_birth_remarks", "Date of birth remarks", list(func(r *record.Record) []string { return r.DateOfBirthRemarks })},
		{"place_of_birth", "Place of birth", list(func(r *record.Record) []string { return r.PlaceOfBirth })},
		{"place_of_birth_remarks", "Place of birth remarks", list(func(r *record.Record) []string { return r.PlaceOfBirthRemarks })},
		{"citizenship", "Citizenship", countries(func(r *record.Record) []string { return r.Citizenship })},
		{"citizenship_remarks", "Citizenship remarks", list(func(r *record.Record) []string { return r.CitizenshipRemarks })},
	}},
	{"Roles and affiliations", []attr{
		{"positions", "Positions", list(func(r *record.Record) []string { return r.Positions })},
		{"functions", "Functions", list(func(r *record.Record) []string { return r.Functions })},
		{"occupations", "Occupations", list(func(r *record.Record) []string { return r.Occupations })},
		{"titles", "Titles", list(func(r *record.Record) []string { return r.Titles })},
		{"political_parties", "Political parties", list(func(r *record.Record) []string { return r.PoliticalParties })},
		{"description", "Description", list(func(r *record.Record) []string { return r.Description })},
	}},
	{"Relatives", []attr{
		{"spouse", "Spouse", list(func(r *record.Record) []string { return r.Spouse })},
		{"parents", "Parents", list(func(r *record.Record) []string { return r.Parents })},
		{"children", "Children", list(func(r *record.Record) []string { return r.Children })},
		{"siblings", "Siblings", list(func(r *record.Record) []string { return r.Siblings })},
	}},
	{"Registration and addresses", []attr{
		{"jurisdiction", "Jurisdiction", countries(func(r *record.Record) []string { return r.Jurisdiction })},
		{"company_number", "Company number", list(func(r *record.Record) []string { return r.CompanyNumber })},
		{"address", "Address", list(func(r *record.Record) []string { return r.Address })},
		{"address_remarks", "Address remarks", list(func(r *record.Record) []string { return r.AddressRemarks })},
	}},
	{"Other information", []attr{
		{"other_information", "Other information", list(func(r *record.Record) []string { return r.OtherInformation })},
		{"links", "Links", list(func(r *record.Record) []string { return r.Links })},
	}},
}

// extraAttrs lists attributes this version does not know (Record.Extra),
// sorted by key, with their JSON values made readable: strings and lists
// of strings as text, anything else as compact JSON.
func extraAttrs(r *record.Record) [][2]string {
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out [][2]string
	for _, k := range keys {
		raw := r.Extra[k]
		var s string
		var l []string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			if strings.TrimSpace(s) != "" {
				out = append(out, [2]string{k, s})
			}
		case json.Unmarshal(raw, &l) == nil:
			for _, v := range l {
				if strings.TrimSpace(v) != "" {
					out = append(out, [2]string{k, v})
				}
			}
		default:
			if t := strings.TrimSpace(string(raw)); t != "" && t != "null" && t != "[]" && t != "{}" {
				out = append(out, [2]string{k, t})
			}
		}
	}
	return out
}

// words turns an upper-case enum value into words: BOARD_MEMBER_OF_CENTRAL_BANK
// → "Board member of central bank".
func words(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	v = strings.ToLower(strings.ReplaceAll(v, "_", " "))
	return strings.ToUpper(v[:1]) + v[1:]
}

// typeLabel names a source type; PEP stays an acronym.
func typeLabel(t string) string {
	switch strings.ToUpper(t) {
	case record.SourcePEP:
		return "PEP (politically exposed person)"
	case record.SourceSanction:
		return "Sanction"
	case record.SourceCriminal:
		return "Criminal"
	}
	return words(t)
}

// shortType is typeLabel for a table cell.
func shortType(t string) string {
	if strings.EqualFold(t, record.SourcePEP) {
		return "PEP"
	}
	return words(t)
}

// pepLevel explains a PEP level in plain words.
func pepLevel(l int32) string {
	switch l {
	case 1:
		return "1 – top national leader (head of state or government, cabinet, speaker, chief of defence or security)"
	case 2:
		return "2 – other senior national or international official"
	case 3:
		return "3 – sub-national or institutional position of significant influence"
	case 4:
		return "4 – local, administrative, judicial or institutional role with limited exposure"
	case 0:
		return ""
	}
	return strconv.Itoa(int(l))
}

var regionNames = display.English.Regions()

// countryLabel writes a two-letter code with its English name ("RU –
// Russia"); anything else (a country name as some lists give) as it is.
func countryLabel(v string) string {
	if len(v) != 2 {
		return v
	}
	reg, err := language.ParseRegion(v)
	if err != nil {
		return v
	}
	code := strings.ToUpper(v)
	if code == "XK" {
		return "XK – Kosovo"
	}
	if n := regionNames.Name(reg); n != "" && !strings.EqualFold(n, code) {
		return code + " – " + n
	}
	return code
}

// sourceLabel names a source by its catalogue name and id.
func sourceLabel(id string, src map[string]record.Source) string {
	if s, ok := src[id]; ok && s.Name != "" {
		return fmt.Sprintf("%s (%s)", s.Name, id)
	}
	return id
}
