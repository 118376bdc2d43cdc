package un

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// SourceUN is the source id of the UN Security Council list's records.
const SourceUN = "un_sc_sanctions"

// unEntry is one INDIVIDUAL or ENTITY element of the UN Security Council
// consolidated list (https://www.un.org/sc/resources/sc-sanctions.xsd).
// Individuals and entities share the element names except for their alias
// and address children, so one type reads both.
type unEntry struct {
	DataID       string         `xml:"DATAID"`
	First        string         `xml:"FIRST_NAME"`
	Second       string         `xml:"SECOND_NAME"`
	Third        string         `xml:"THIRD_NAME"`
	Fourth       string         `xml:"FOURTH_NAME"`
	UNListType   string         `xml:"UN_LIST_TYPE"`
	Reference    string         `xml:"REFERENCE_NUMBER"`
	ListedOn     string         `xml:"LISTED_ON"`
	OrigScript   string         `xml:"NAME_ORIGINAL_SCRIPT"`
	Gender       string         `xml:"GENDER"`
	Comments     string         `xml:"COMMENTS1"`
	Titles       []string       `xml:"TITLE>VALUE"`
	Designations []string       `xml:"DESIGNATION>VALUE"`
	Nationality  []string       `xml:"NATIONALITY>VALUE"`
	ListTypes    []string       `xml:"LIST_TYPE>VALUE"`
	IndAliases   []unAlias      `xml:"INDIVIDUAL_ALIAS"`
	EntAliases   []unAlias      `xml:"ENTITY_ALIAS"`
	IndAddresses []unPlace      `xml:"INDIVIDUAL_ADDRESS"`
	EntAddresses []unPlace      `xml:"ENTITY_ADDRESS"`
	DOBs         []unDOB        `xml:"INDIVIDUAL_DATE_OF_BIRTH"`
	POBs         []unPlace      `xml:"INDIVIDUAL_PLACE_OF_BIRTH"`
	Documents    []unIDDocument `xml:"INDIVIDUAL_DOCUMENT"`
}

type unAlias struct {
	Quality     string `xml:"QUALITY"`
	Name        string `xml:"ALIAS_NAME"`
	DateOfBirth string `xml:"DATE_OF_BIRTH"`
	CityOfBirth string `xml:"CITY_OF_BIRTH"`
	CountryOB   string `xml:"COUNTRY_OF_BIRTH"`
	Note        string `xml:"NOTE"`
}

type unPlace struct {
	Street  string `xml:"STREET"`
	City    string `xml:"CITY"`
	State   string `xml:"STATE_PROVINCE"`
	Zip     string `xml:"ZIP_CODE"`
	Country string `xml:"COUNTRY"`
	Note    string `xml:"NOTE"`
}

type unDOB struct {
	Type     string `xml:"TYPE_OF_DATE"`
	Date     string `xml:"DATE"`
	Year     string `xml:"YEAR"`
	FromYear string `xml:"FROM_YEAR"`
	ToYear   string `xml:"TO_YEAR"`
	Note     string `xml:"NOTE"`
}

type unIDDocument struct {
	Type           string `xml:"TYPE_OF_DOCUMENT"`
	Type2          string `xml:"TYPE_OF_DOCUMENT2"`
	Number         string `xml:"NUMBER"`
	IssuingCountry string `xml:"ISSUING_COUNTRY"`
	CountryOfIssue string `xml:"COUNTRY_OF_ISSUE"`
	CityOfIssue    string `xml:"CITY_OF_ISSUE"`
	DateOfIssue    string `xml:"DATE_OF_ISSUE"`
	Note           string `xml:"NOTE"`
}

// UN converts the UN Security Council consolidated list (XML) read from r
// and calls emit with every record, individuals and entities in the order
// of the file. It reads one entry at a time, so memory does not grow with
// the list.
//
// The mapping: id "UN-<DATAID>"; source_id un_sc_sanctions; source_type
// SANCTION; entity_type INDIVIDUAL or ENTITY; gender from GENDER or, where
// that is missing, from "Gender: Male" in the comments (UNKNOWN when
// neither says); name FIRST_NAME to FOURTH_NAME joined by spaces (the list
// does not say which part is the family name, so last_names and
// given_names stay empty); list_date from LISTED_ON. Aliases
// of quality Good, a.k.a. and f.k.a. and the name in original script go to
// alias_names; Low-quality aliases to name_remarks (the UN's own advice is
// that they are too broad to screen on), as do alias notes. Every shape of
// date of birth is read: EXACT dates and years, APPROXIMATELY (also kept as
// a remark), BETWEEN years (one date per year), month-and-year notes
// ("Nov. 1973"), and the dates of birth given with aliases; notes that are
// not a date ("30-35 years old", Hijri dates) go to date_of_birth_remarks.
// Places of birth and addresses are joined street to country, their notes to
// the remarks attributes; nationalities become ISO codes; titles go to
// titles, designations to positions, documents and COMMENTS1 to
// other_information, and the UN list type and reference number to
// sanction_details. Entity address countries also fill jurisdiction.
func UN(r io.Reader, emit func(*record.Record) error) error {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read UN list: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var typ string
		switch se.Name.Local {
		case "INDIVIDUAL":
			typ = record.EntityIndividual
		case "ENTITY":
			typ = record.EntityEntity
		default:
			continue
		}
		line, _ := d.InputPos()
		var e unEntry
		if err := d.DecodeElement(&e, &se); err != nil {
			return fmt.Errorf("read UN list: %s at line %d: %w", se.Name.Local, line, err)
		}
		rec, err := unRecord(&e, typ)
		if err != nil {
			return fmt.Errorf("UN list: %s at line %d: %w", se.Name.Local, line, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}

// unRecord turns one INDIVIDUAL or ENTITY element into a record.
// It is long on purpose: it maps the format's fields in the format's own
// order, a short block each, so that it can be checked against the
// format's documentation from top to bottom.
func unRecord(e *unEntry, typ string) (*record.Record, error) {
	id := strings.TrimSpace(e.DataID)
	if id == "" {
		return nil, fmt.Errorf("entry %q has no DATAID", strings.TrimSpace(e.Reference))
	}
	r := &record.Record{
		ID:         "UN-" + id,
		SourceID:   SourceUN,
		SourceType: record.SourceSanction,
		EntityType: typ,
		Name:       conv.JoinNonEmpty(" ", e.First, e.Second, e.Third, e.Fourth),
	}
	if r.Name == "" {
		return nil, fmt.Errorf("entry %s has no name", id)
	}
	if t, err := time.Parse("2006-01-02", strings.TrimSpace(e.ListedOn)); err == nil {
		r.ListDate = t.UnixMilli()
	}
	switch strings.ToLower(strings.TrimSpace(e.Gender)) {
	case "male":
		r.Gender = record.GenderMale
	case "female":
		r.Gender = record.GenderFemale
	default:
		if typ == record.EntityIndividual {
			r.Gender = genderInText(e.Comments)
		}
	}
	if s := conv.Clean(e.OrigScript); s != "" && s != r.Name {
		r.AliasNames = conv.AppendUnique(r.AliasNames, s)
	}
	for _, a := range append(e.IndAliases, e.EntAliases...) {
		name := conv.Clean(a.Name)
		if name == "" {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(a.Quality), "low") {
			r.NameRemarks = conv.AppendUnique(r.NameRemarks, name)
		} else if name != r.Name {
			r.AliasNames = conv.AppendUnique(r.AliasNames, name)
		}
		if n := conv.Clean(a.Note); n != "" {
			r.NameRemarks = conv.AppendUnique(r.NameRemarks, name+": "+n)
		}
		if a.DateOfBirth != "" {
			conv.AddDOB(r, a.DateOfBirth)
		}
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, conv.JoinNonEmpty(", ", a.CityOfBirth, a.CountryOB))
	}
	for _, v := range e.Titles {
		r.Titles = conv.AppendUnique(r.Titles, conv.Clean(v))
	}
	for _, v := range e.Designations {
		r.Positions = conv.AppendUnique(r.Positions, conv.Clean(v))
	}
	for _, v := range e.Nationality {
		conv.AddCountry(&r.Citizenship, conv.Clean(v))
	}
	for _, d := range e.DOBs {
		addUNDOB(r, d)
	}
	for _, p := range e.POBs {
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, conv.JoinNonEmpty(", ", p.Street, p.City, p.State, p.Country))
		r.PlaceOfBirthRemarks = conv.AppendUnique(r.PlaceOfBirthRemarks, conv.Clean(p.Note))
	}
	for _, a := range append(e.IndAddresses, e.EntAddresses...) {
		r.Address = conv.AppendUnique(r.Address, conv.JoinNonEmpty(", ", a.Street, a.City, a.State, a.Zip, a.Country))
		r.AddressRemarks = conv.AppendUnique(r.AddressRemarks, conv.Clean(a.Note))
		if typ != record.EntityIndividual {
			if c, ok := conv.CountryCode(a.Country); ok {
				r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, c)
			}
		}
	}
	for _, d := range e.Documents {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, unDocument(d))
	}
	r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.Clean(e.Comments))
	if t := conv.Clean(e.UNListType); t != "" {
		r.SanctionDetails = append(r.SanctionDetails, "UN Security Council sanctions: "+t)
	}
	if ref := conv.Clean(e.Reference); ref != "" {
		r.SanctionDetails = append(r.SanctionDetails, "Reference number "+ref)
	}
	for _, v := range e.ListTypes {
		// Every entry says "UN List"; only other values tell something.
		if v = conv.Clean(v); v != "" && v != "UN List" {
			r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, v)
		}
	}
	return r, nil
}

// genderInComments finds the "Gender: Male." many entries write in their
// comments instead of the GENDER element.
var genderInComments = regexp.MustCompile(`(?i)\bgender\s*[:\[]?\s*(male|female)\b`)

// genderInText returns the gender the comments state, or UNKNOWN.
func genderInText(s string) string {
	m := genderInComments.FindStringSubmatch(s)
	switch {
	case m == nil:
		return record.GenderUnknown
	case strings.EqualFold(m[1], "female"):
		return record.GenderFemale
	default:
		return record.GenderMale
	}
}

// addUNDOB files one INDIVIDUAL_DATE_OF_BIRTH element. The dates go to
// date_of_birth; a remark keeps what the dates cannot say: that they are
// approximate, a range, or a note ("from false passport").
func addUNDOB(r *record.Record, d unDOB) {
	note := conv.Clean(d.Note)
	approx := strings.EqualFold(strings.TrimSpace(d.Type), "APPROXIMATELY")
	if strings.EqualFold(note, "approximately") {
		approx, note = true, ""
	}
	var dates []string
	var text string // the date as the list gives it
	vague := approx // the dates alone would overstate what is known
	switch {
	case strings.TrimSpace(d.Date) != "":
		text = strings.TrimSpace(d.Date)
		if v, ok := conv.ParseDate(text); ok {
			dates = []string{v.String()}
		}
	case strings.TrimSpace(d.FromYear) != "" || strings.TrimSpace(d.ToYear) != "":
		text = strings.TrimSpace(strings.TrimSpace(d.FromYear) + " to " + strings.TrimSpace(d.ToYear))
		from, ok1 := conv.ParseDate(d.FromYear)
		to, ok2 := conv.ParseDate(d.ToYear)
		switch {
		case ok1 && ok2:
			dates = conv.ExpandRange(from, to)
		case ok1:
			dates = []string{from.String()}
		case ok2:
			dates = []string{to.String()}
		}
		vague = true
	case strings.TrimSpace(d.Year) != "":
		text = strings.TrimSpace(d.Year)
		if v, ok := conv.ParseDate(text); ok {
			// A note may name the month the year lacks ("Sep.").
			if m := conv.MonthOf(note); m != 0 && !strings.Contains(note, " ") {
				v.M = m
				text, note = note+" "+text, ""
			}
			dates = []string{v.String()}
		}
	case note != "":
		// Only a note: "Nov. 1973", "30-35 years old", a Hijri date.
		if ds, remark := conv.ParseDOB(note); len(ds) > 0 {
			dates, text, note = ds, note, ""
			vague = vague || remark != ""
		}
	}
	for _, v := range dates {
		r.DateOfBirth = conv.AppendUnique(r.DateOfBirth, v)
	}
	remark := text
	if approx && remark != "" {
		remark = "approximately " + remark
	}
	if note != "" {
		vague = true
		if remark != "" {
			remark += ": "
		}
		remark += note
	}
	if vague || len(dates) == 0 {
		r.DateOfBirthRemarks = conv.AppendUnique(r.DateOfBirthRemarks, remark)
	}
}

// unDocument writes an identity document as one line: "Passport OB 0243318
// (Democratic Republic of the Congo) issued 2009-04-21 in Kinshasa; note".
func unDocument(d unIDDocument) string {
	s := conv.JoinNonEmpty(" ", d.Type, d.Type2, d.Number)
	if c := conv.JoinNonEmpty(", ", d.IssuingCountry, d.CountryOfIssue); c != "" {
		s += " (" + c + ")"
	}
	if v := conv.Clean(d.DateOfIssue); v != "" {
		s += " issued " + v
	}
	if v := conv.Clean(d.CityOfIssue); v != "" {
		s += " in " + v
	}
	if v := conv.Clean(d.Note); v != "" {
		if s != "" {
			s += "; "
		}
		s += v
	}
	return strings.TrimSpace(s)
}
