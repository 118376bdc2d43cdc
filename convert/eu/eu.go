package eu

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// SourceEUFSF is the source id of the records EU writes.
const SourceEUFSF = "eu_fsf"

// The EU Financial Sanctions Files, full list in XML (schema
// xmlFullSanctionsList_1_1, namespace http://eu.europa.ec/fpi/fsd/export):
// one <sanctionEntity> per listing, every fact an element of attributes.
// No edition of the file was at hand when this was written: the reader
// follows the published format and is tested on fixtures made from it.

type euEntity struct {
	LogicalID       string             `xml:"logicalId,attr"`
	EUReference     string             `xml:"euReferenceNumber,attr"`
	UNID            string             `xml:"unitedNationId,attr"`
	Designation     string             `xml:"designationDetails,attr"`
	DesignatedOn    string             `xml:"designationDate,attr"`
	RemarkElements  []string           `xml:"remark"`
	Regulations     []euRegulation     `xml:"regulation"`
	SubjectType     euSubjectType      `xml:"subjectType"`
	Names           []euName           `xml:"nameAlias"`
	Citizenships    []euCountry        `xml:"citizenship"`
	Birthdates      []euBirth          `xml:"birthdate"`
	Identifications []euIdentification `xml:"identification"`
	Addresses       []euAddress        `xml:"address"`
}

// euRegulation is a regulation that lists an entity.
type euRegulation struct {
	Type        string `xml:"regulationType,attr"`
	Published   string `xml:"publicationDate,attr"`
	InForce     string `xml:"entryIntoForceDate,attr"`
	NumberTitle string `xml:"numberTitle,attr"`
	Programme   string `xml:"programme,attr"`
	URL         string `xml:"publicationUrl"`
}

// euSubjectType says whether an entity is a person or an enterprise.
type euSubjectType struct {
	Code string `xml:"code,attr"`
}

// euName is a name alias.
type euName struct {
	First    string   `xml:"firstName,attr"`
	Middle   string   `xml:"middleName,attr"`
	Last     string   `xml:"lastName,attr"`
	Whole    string   `xml:"wholeName,attr"`
	Function string   `xml:"function,attr"`
	Gender   string   `xml:"gender,attr"`
	Title    string   `xml:"title,attr"`
	Language string   `xml:"nameLanguage,attr"`
	Strong   string   `xml:"strong,attr"`
	Remarks  []string `xml:"remark"`
}

// euBirth is a date and place of birth.
type euBirth struct {
	euCountry
	Circa     string   `xml:"circa,attr"`
	Calendar  string   `xml:"calendarType,attr"`
	City      string   `xml:"city,attr"`
	ZipCode   string   `xml:"zipCode,attr"`
	Place     string   `xml:"place,attr"`
	Date      string   `xml:"birthdate,attr"`
	Day       string   `xml:"dayOfMonth,attr"`
	Month     string   `xml:"monthOfYear,attr"`
	Year      string   `xml:"year,attr"`
	RangeFrom string   `xml:"yearRangeFrom,attr"`
	RangeTo   string   `xml:"yearRangeTo,attr"`
	Remarks   []string `xml:"remark"`
}

// euIdentification is an identity document or registration number.
type euIdentification struct {
	euCountry
	Diplomatic  string   `xml:"diplomatic,attr"`
	Expired     string   `xml:"knownExpired,attr"`
	False       string   `xml:"knownFalse,attr"`
	Lost        string   `xml:"reportedLost,attr"`
	Revoked     string   `xml:"revokedByIssuer,attr"`
	IssuedBy    string   `xml:"issuedBy,attr"`
	IssueDate   string   `xml:"issueDate,attr"`
	LatinNumber string   `xml:"latinNumber,attr"`
	Number      string   `xml:"number,attr"`
	TypeCode    string   `xml:"identificationTypeCode,attr"`
	TypeText    string   `xml:"identificationTypeDescription,attr"`
	Remarks     []string `xml:"remark"`
}

// euAddress is an address with its contacts.
type euAddress struct {
	euCountry
	City     string      `xml:"city,attr"`
	Street   string      `xml:"street,attr"`
	POBox    string      `xml:"poBox,attr"`
	ZipCode  string      `xml:"zipCode,attr"`
	Place    string      `xml:"place,attr"`
	Contacts []euContact `xml:"contactInfo"`
	Remarks  []string    `xml:"remark"`
}

// euContact is a telephone, e-mail or web contact of an address.
type euContact struct {
	Key   string `xml:"key,attr"`
	Value string `xml:"value,attr"`
}

// euCountry is the country attributes several elements share.
type euCountry struct {
	Region      string `xml:"region,attr"`
	ISO2        string `xml:"countryIso2Code,attr"`
	Description string `xml:"countryDescription,attr"`
}

// code returns the ISO code the element gives, from its code or its name;
// "00" and UNKNOWN say none.
func (c euCountry) code() (string, bool) {
	if iso := strings.ToUpper(strings.TrimSpace(c.ISO2)); iso != "" && iso != "00" {
		if iso == "CS" { // Serbia and Montenegro, as old entries write it
			return "RS", true
		}
		if code, ok := conv.CountryCode(iso); ok {
			return code, true
		}
	}
	return conv.CountryCode(c.Description)
}

// name returns the country's name as the list writes it, "" for none.
func (c euCountry) name() string {
	d := conv.Clean(c.Description)
	if strings.EqualFold(d, "UNKNOWN") || strings.EqualFold(d, "00") {
		return ""
	}
	return d
}

// letterSplit cuts the "(a) …, (b) …" enumerations of titles and functions.
var letterSplit = regexp.MustCompile(`\s*\([a-z]\)\s*`)

// EU converts the EU consolidated financial sanctions list in its XML
// format (Financial Sanctions Files, xmlFullSanctionsList_1_1) read from r
// and calls emit with every record, in the order of the file. It was
// written from the published format, without a real edition of the file
// at hand.
//
// The mapping: id "EU-<logicalId>"; source_id eu_fsf; source_type
// SANCTION; subject type person INDIVIDUAL, enterprise ENTITY, anything
// else UNKNOWN. The first strong name alias in English or without a
// language is name (first and middle names to given_names and the last
// name to last_names for individuals); other strong aliases, in every
// language, go to alias_names; weak ones (strong="false") to
// name_remarks, as weak aliases of the other lists do. Gender, titles and
// functions come from the name aliases (functions are positions of
// individuals, other_information of entities); citizenships become ISO
// codes; birth dates (a full date, year, month and day, a range of years,
// circa) go to date_of_birth as the other lists' dates, their places to
// place_of_birth; identity documents to other_information ("National
// passport OR801168 (AFGHANISTAN)", marked when known false, expired,
// lost or revoked), registration numbers of entities also to
// company_number; addresses street to country, entities' countries also to
// jurisdiction, e-mail and web contacts to links and others to
// other_information; regulations, programmes and the EU and UN reference
// numbers to sanction_details; the earliest designation or
// entry-into-force date to list_date; remarks to other_information.
func EU(r io.Reader, emit func(*record.Record) error) error {
	d := xml.NewDecoder(conv.LimitReader(r, conv.MaxInputBytes, "EU list"))
	seen := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if !seen {
				return errors.New("read EU list: no <sanctionEntity> element: is this the EU financial sanctions XML (xmlFullSanctionsList_1_1)?")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read EU list: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "sanctionEntity" {
			continue
		}
		seen = true
		line, _ := d.InputPos()
		var e euEntity
		if err := d.DecodeElement(&e, &se); err != nil {
			return fmt.Errorf("read EU list: sanctionEntity at line %d: %w", line, err)
		}
		rec, err := euRecord(&e)
		if err == nil {
			err = conv.CheckRecord(rec)
		}
		if err != nil {
			return fmt.Errorf("EU list: sanctionEntity at line %d: %w", line, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}

// euRecord turns one sanctionEntity into a record, one group of elements
// at a time.
func euRecord(e *euEntity) (*record.Record, error) {
	id := strings.TrimSpace(e.LogicalID)
	if id == "" {
		return nil, fmt.Errorf("entry %q has no logicalId", e.EUReference)
	}
	r := &record.Record{ID: conv.MakeID("EU-", id), SourceID: SourceEUFSF, SourceType: record.SourceSanction}
	switch strings.ToLower(strings.TrimSpace(e.SubjectType.Code)) {
	case "person":
		r.EntityType = record.EntityIndividual
	case "enterprise":
		r.EntityType = record.EntityEntity
	default:
		r.EntityType = record.EntityUnknown
	}
	individual := r.EntityType == record.EntityIndividual
	if err := euNames(r, e, id, individual); err != nil {
		return nil, err
	}
	euBirths(r, e)
	euIdentifications(r, e, individual)
	euAddresses(r, e)
	euRegulations(r, e)
	if individual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

// euNames files the nameAlias elements: the name, aliases, weak aliases
// as name remarks, gender, titles and functions.
func euNames(r *record.Record, e *euEntity, id string, individual bool) error {
	// The name: the first strong alias in English or of no language.
	main := -1
	for i, n := range e.Names {
		lang := strings.ToUpper(strings.TrimSpace(n.Language))
		if !euWeak(n.Strong) && conv.Clean(n.Whole) != "" && (lang == "" || lang == "EN") {
			main = i
			break
		}
	}
	for i, n := range e.Names {
		if main < 0 && conv.Clean(n.Whole) != "" {
			main = i
		}
	}
	if main < 0 {
		return fmt.Errorf("entry %s has no name", id)
	}
	m := e.Names[main]
	r.Name = conv.Clean(m.Whole)
	if individual && conv.Clean(m.Last) != "" && conv.JoinNonEmpty(" ", m.First, m.Middle) != "" {
		r.LastNames = []string{conv.Clean(m.Last)}
		r.GivenNames = []string{conv.JoinNonEmpty(" ", m.First, m.Middle)}
	}
	for i, n := range e.Names {
		whole := conv.Clean(n.Whole)
		switch {
		case i == main || whole == "" || whole == r.Name:
		case euWeak(n.Strong):
			r.NameRemarks = conv.AppendUnique(r.NameRemarks, whole)
		default:
			r.AliasNames = conv.AppendUnique(r.AliasNames, whole)
		}
		for _, rm := range n.Remarks {
			if rm = conv.Clean(rm); rm != "" {
				r.NameRemarks = conv.AppendUnique(r.NameRemarks, conv.JoinNonEmpty(": ", whole, rm))
			}
		}
		switch strings.ToUpper(strings.TrimSpace(n.Gender)) {
		case "M":
			r.Gender = record.GenderMale
		case "F":
			r.Gender = record.GenderFemale
		}
		for _, t := range letterSplit.Split(n.Title, -1) {
			r.Titles = conv.AppendUnique(r.Titles, strings.Trim(conv.Clean(t), ", "))
		}
		for _, f := range letterSplit.Split(n.Function, -1) {
			if f = strings.Trim(conv.Clean(f), ", "); f == "" {
				continue
			}
			if individual {
				r.Positions = conv.AppendUnique(r.Positions, f)
			} else {
				r.OtherInformation = conv.AppendUnique(r.OtherInformation, f)
			}
		}
	}
	return nil
}

// euBirths files citizenships and birthdate elements.
func euBirths(r *record.Record, e *euEntity) {
	for _, c := range e.Citizenships {
		if code, ok := c.code(); ok {
			r.Citizenship = conv.AppendUnique(r.Citizenship, code)
		} else {
			conv.AddCountry(&r.Citizenship, c.name())
		}
	}
	for _, b := range e.Birthdates {
		addEUBirth(r, b.Date, b.Year, b.Month, b.Day, b.RangeFrom, b.RangeTo, b.Circa, b.Calendar)
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, conv.JoinNonEmpty(", ", b.Place, b.City, b.ZipCode, b.Region, b.name()))
		for _, rm := range b.Remarks {
			r.DateOfBirthRemarks = conv.AppendUnique(r.DateOfBirthRemarks, conv.Clean(rm))
		}
	}
}

// euIdentifications files identification documents as other information,
// and registration numbers of entities as company numbers.
func euIdentifications(r *record.Record, e *euEntity, individual bool) {
	for _, doc := range e.Identifications {
		number := conv.Clean(doc.Number)
		if number == "" {
			number = conv.Clean(doc.LatinNumber)
		}
		typ := conv.Clean(doc.TypeText)
		if typ == "" {
			typ = conv.Clean(doc.TypeCode)
		}
		s := conv.JoinNonEmpty(" ", typ, number)
		if c := doc.name(); c != "" {
			s += " (" + c + ")"
		}
		if v := conv.Clean(doc.IssuedBy); v != "" {
			s += " issued by " + v
		}
		if v := conv.Clean(doc.IssueDate); v != "" {
			s += " on " + v
		}
		for _, f := range []struct{ flag, what string }{{doc.False, "known false"}, {doc.Expired, "known expired"},
			{doc.Lost, "reported lost"}, {doc.Revoked, "revoked by issuer"}, {doc.Diplomatic, "diplomatic"}} {
			if strings.EqualFold(strings.TrimSpace(f.flag), "true") {
				s += "; " + f.what
			}
		}
		for _, rm := range doc.Remarks {
			if rm = conv.Clean(rm); rm != "" {
				s += "; " + rm
			}
		}
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, s)
		if !individual && strings.EqualFold(strings.TrimSpace(doc.TypeCode), "regnumber") && number != "" {
			r.CompanyNumber = conv.AppendUnique(r.CompanyNumber, number)
		}
	}
}

// euAddresses files addresses, an entity's countries as its jurisdiction,
// and contacts as links or other information.
func euAddresses(r *record.Record, e *euEntity) {
	for _, a := range e.Addresses {
		street := conv.Clean(a.Street)
		if p := conv.Clean(a.POBox); p != "" {
			street = conv.JoinNonEmpty(", ", street, "P.O. Box "+p)
		}
		r.Address = conv.AppendUnique(r.Address, conv.JoinNonEmpty(", ", street, a.Place, a.City, a.ZipCode, a.Region, a.name()))
		// The address of an entity says where it is based; that of a
		// person says nothing of citizenship.
		if r.EntityType == record.EntityEntity {
			if code, ok := a.code(); ok {
				r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, code)
			}
		}
		for _, c := range a.Contacts {
			v, key := conv.Clean(c.Value), strings.ToUpper(conv.Clean(c.Key))
			switch key {
			case "":
			case "EMAIL", "WEB":
				for _, x := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
					r.Links = conv.AppendUnique(r.Links, x)
				}
			default:
				r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(" ", key[:1]+strings.ToLower(key[1:]), v))
			}
		}
		for _, rm := range a.Remarks {
			r.AddressRemarks = conv.AppendUnique(r.AddressRemarks, conv.Clean(rm))
		}
	}
}

// euRegulations files the designation: the list date (the earliest of the
// designation and the regulations in force), programmes, regulations,
// reference numbers and remarks.
func euRegulations(r *record.Record, e *euEntity) {
	var listed time.Time
	consider := func(s string) {
		if t, err := time.Parse("2006-01-02", strings.TrimSpace(s)); err == nil && (listed.IsZero() || t.Before(listed)) {
			listed = t
		}
	}
	consider(e.DesignatedOn)
	for _, reg := range e.Regulations {
		consider(reg.InForce)
		if p := conv.Clean(reg.Programme); p != "" {
			r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "EU programme "+p)
		}
		if s := conv.JoinNonEmpty(" ", "Regulation", reg.NumberTitle); s != "Regulation" {
			if u := conv.Clean(reg.URL); u != "" {
				s += " " + u
			}
			r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, s)
		}
	}
	if !listed.IsZero() {
		r.ListDate = listed.UnixMilli()
	}
	if v := conv.Clean(e.EUReference); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "EU reference number "+v)
	}
	if v := conv.Clean(e.UNID); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "UN reference number "+v)
	}
	r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, conv.Clean(e.Designation))
	for _, rm := range e.RemarkElements {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.Clean(rm))
	}
}

// euWeak reports whether a strong attribute marks a weak alias.
func euWeak(strong string) bool { return strings.EqualFold(strings.TrimSpace(strong), "false") }

// addEUBirth files one birthdate element: a full date, or year, month and
// day in parts, or a range of years; circa dates keep their wording as a
// remark. Dates of another calendar are kept as remarks only.
func addEUBirth(r *record.Record, date, year, month, day, from, to, circa, calendar string) {
	if c := strings.ToUpper(strings.TrimSpace(calendar)); c != "" && c != "GREGORIAN" {
		r.DateOfBirthRemarks = conv.AppendUnique(r.DateOfBirthRemarks,
			conv.JoinNonEmpty(" ", conv.JoinNonEmpty("-", year, month, day), date, "("+strings.ToLower(c)+" calendar)"))
		return
	}
	approx := strings.EqualFold(strings.TrimSpace(circa), "true")
	num := func(s string) int {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return 0
		}
		return n
	}
	var dates []string
	text := ""
	switch {
	case strings.TrimSpace(date) != "":
		text = strings.TrimSpace(date)
		if v, ok := conv.ParseDate(text); ok {
			dates = []string{v.String()}
		}
	case strings.TrimSpace(year) != "":
		v := conv.Ymd{Y: num(year), M: num(month), D: num(day)}
		text = v.String()
		if v.M == 0 && v.D == 0 {
			text = strconv.Itoa(v.Y)
		}
		if v.Valid() {
			dates = []string{v.String()}
		}
	case strings.TrimSpace(from) != "" || strings.TrimSpace(to) != "":
		text = strings.TrimSpace(strings.TrimSpace(from) + " to " + strings.TrimSpace(to))
		a, b := conv.Ymd{Y: num(from)}, conv.Ymd{Y: num(to)}
		switch {
		case a.Valid() && b.Valid():
			dates = conv.ExpandRange(a, b)
		case a.Valid():
			dates = []string{a.String()}
		case b.Valid():
			dates = []string{b.String()}
		}
		approx = true // a range is as vague as a circa
	default:
		return
	}
	for _, v := range dates {
		r.DateOfBirth = conv.AppendUnique(r.DateOfBirth, v)
	}
	if len(dates) == 0 || approx {
		if strings.EqualFold(strings.TrimSpace(circa), "true") {
			text = "circa " + text
		}
		r.DateOfBirthRemarks = conv.AppendUnique(r.DateOfBirthRemarks, text)
	}
}
