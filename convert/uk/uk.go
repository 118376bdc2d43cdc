package uk

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// SourceUKSanctions is the source id of the records UK writes.
const SourceUKSanctions = "gb_fcdo_sanctions"

// The UK Sanctions List in XML, as the FCDO publishes it
// (UK_Sanctions_List.xml): one <Designation> per listing, with its names,
// addresses and the details of an individual, an entity or a ship in
// nested lists. No edition of the file was at hand when this was written:
// the reader follows the published format, tested on fixtures made from
// it. Because the nesting of the detail lists has varied, the reader
// takes each designation as a tree and finds values by element name
// wherever they sit inside it.

// xmlNode is an element with its text and children.
type xmlNode struct {
	name     string
	text     string
	children []*xmlNode
}

// readXMLNode reads the element se opened, and everything inside it.
func readXMLNode(d *xml.Decoder, se xml.StartElement) (*xmlNode, error) {
	n := &xmlNode{name: se.Name.Local}
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c, err := readXMLNode(d, t)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			n.text = conv.Clean(text.String())
			return n, nil
		}
	}
}

// all returns the descendants of n named name (any case), in document
// order, not looking inside a match.
func (n *xmlNode) all(name string) []*xmlNode {
	var out []*xmlNode
	var walk func(*xmlNode)
	walk = func(x *xmlNode) {
		for _, c := range x.children {
			if strings.EqualFold(c.name, name) {
				out = append(out, c)
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// texts returns the non-empty texts of the descendants named name.
func (n *xmlNode) texts(name string) []string {
	var out []string
	for _, c := range n.all(name) {
		if c.text != "" {
			out = append(out, c.text)
		}
	}
	return out
}

// first returns the first non-empty text of a descendant named name.
func (n *xmlNode) first(name string) string {
	if t := n.texts(name); len(t) > 0 {
		return t[0]
	}
	return ""
}

// UK converts the UK Sanctions List in the FCDO's XML format
// (UK_Sanctions_List.xml) read from r and calls emit with every record, in
// the order of the file. It was written from the published format,
// without a real edition of the file at hand.
//
// The mapping: id "UK-<UniqueID>"; source_id gb_fcdo_sanctions;
// source_type SANCTION; IndividualEntityShip Individual INDIVIDUAL, Entity
// ENTITY, Ship VESSEL. Names are Name1 to Name5 and the family name Name6
// joined: the primary name is name (Name6 to last_names and Name1 to
// Name5 to given_names for individuals), other names and the non-Latin
// ones go to alias_names, low-quality aliases to name_remarks; DOB
// (dd/mm/yyyy, with 00 or dd/mm for unknown parts) to date_of_birth;
// nationalities to citizenship; town and country of birth to
// place_of_birth; positions; gender; addresses line by line to country,
// entities' countries also to jurisdiction; e-mail addresses and websites
// to links; passports, national identifiers, business registration
// numbers (also company_number), phone numbers, ship details, parent
// companies and subsidiaries to other_information; regime, sanctions
// imposed, designation source, UN reference and statement of reasons to
// sanction_details; DateDesignated to list_date.
func UK(r io.Reader, emit func(*record.Record) error) error {
	d := xml.NewDecoder(conv.LimitReader(r, conv.MaxInputBytes, "UK list"))
	seen := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if !seen {
				return errors.New("read UK list: no <Designation> element: is this the UK Sanctions List XML?")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read UK list: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Designation" {
			continue
		}
		seen = true
		line, _ := d.InputPos()
		n, err := readXMLNode(d, se)
		if err != nil {
			return fmt.Errorf("read UK list: Designation at line %d: %w", line, err)
		}
		rec, err := ukRecord(n)
		if err == nil {
			err = conv.CheckRecord(rec)
		}
		if err != nil {
			return fmt.Errorf("UK list: Designation at line %d: %w", line, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}

// ukRecord turns one designation into a record, one group of elements at
// a time.
func ukRecord(n *xmlNode) (*record.Record, error) {
	id := n.first("UniqueID")
	if id == "" {
		return nil, errors.New("no UniqueID")
	}
	r := &record.Record{ID: conv.MakeID("UK-", id), SourceID: SourceUKSanctions, SourceType: record.SourceSanction}
	switch strings.ToLower(n.first("IndividualEntityShip")) {
	case "individual":
		r.EntityType = record.EntityIndividual
	case "entity":
		r.EntityType = record.EntityEntity
	case "ship":
		r.EntityType = record.EntityVessel
	default:
		r.EntityType = record.EntityUnknown
	}
	individual := r.EntityType == record.EntityIndividual
	if err := ukNames(r, n, id, individual); err != nil {
		return nil, err
	}
	ukPerson(r, n)
	ukAddresses(r, n)
	ukDocuments(r, n, individual)
	ukSanctions(r, n)
	if individual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

// ukNames files the Name elements (the primary name, aliases, weak ones
// as name remarks) and the names in non-Latin script.
func ukNames(r *record.Record, n *xmlNode, id string, individual bool) error {
	type ukName struct {
		full, given, last string
		primary, weak     bool
	}
	var names []ukName
	for _, nm := range n.all("Name") {
		if len(nm.children) == 0 {
			continue
		}
		var given []string
		for _, k := range []string{"Name1", "Name2", "Name3", "Name4", "Name5"} {
			if v := nm.first(k); v != "" {
				given = append(given, v)
			}
		}
		last := nm.first("Name6")
		full := conv.JoinNonEmpty(" ", append(given, last)...)
		if full == "" {
			continue
		}
		typ := strings.ToLower(nm.first("NameType"))
		names = append(names, ukName{
			full: full, given: strings.Join(given, " "), last: last,
			primary: strings.HasPrefix(typ, "primary name") && !strings.Contains(typ, "variation"),
			weak:    strings.Contains(strings.ToLower(nm.first("AliasStrength")), "low"),
		})
	}
	main := -1
	for i, nm := range names {
		if nm.primary {
			main = i
			break
		}
	}
	if main < 0 && len(names) > 0 {
		main = 0
	}
	if main < 0 {
		return fmt.Errorf("designation %s has no name", id)
	}
	r.Name = names[main].full
	if individual && names[main].last != "" && names[main].given != "" {
		r.LastNames, r.GivenNames = []string{names[main].last}, []string{names[main].given}
	}
	for i, nm := range names {
		switch {
		case i == main || nm.full == r.Name:
		case nm.weak:
			r.NameRemarks = conv.AppendUnique(r.NameRemarks, nm.full)
		default:
			r.AliasNames = conv.AppendUnique(r.AliasNames, nm.full)
		}
	}
	for _, v := range n.texts("NameNonLatinScript") {
		if v != r.Name {
			r.AliasNames = conv.AppendUnique(r.AliasNames, v)
		}
	}
	return nil
}

// ukPerson files titles, dates and places of birth, nationalities,
// positions and gender.
func ukPerson(r *record.Record, n *xmlNode) {
	for _, v := range n.texts("Title") {
		r.Titles = conv.AppendUnique(r.Titles, v)
	}
	for _, v := range n.texts("DOB") {
		addUKDate(r, v)
	}
	for _, v := range n.texts("Nationality") {
		conv.AddCitizenship(r, v)
	}
	for _, loc := range n.all("Location") {
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, conv.JoinNonEmpty(", ", loc.first("TownOfBirth"), loc.first("CountryOfBirth")))
	}
	if len(n.all("Location")) == 0 {
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, conv.JoinNonEmpty(", ", n.first("TownOfBirth"), n.first("CountryOfBirth")))
	}
	for _, v := range n.texts("Position") {
		r.Positions = conv.AppendUnique(r.Positions, v)
	}
	for _, v := range n.texts("Gender") {
		switch strings.ToLower(v) {
		case "male":
			r.Gender = record.GenderMale
		case "female":
			r.Gender = record.GenderFemale
		}
	}
}

// ukAddresses files addresses, an entity's countries as its jurisdiction,
// and e-mail addresses and websites as links.
func ukAddresses(r *record.Record, n *xmlNode) {
	for _, a := range n.all("Address") {
		var parts []string
		for _, k := range []string{"AddressLine1", "AddressLine2", "AddressLine3", "AddressLine4", "AddressLine5", "AddressLine6", "AddressPostalCode", "AddressCountry"} {
			parts = append(parts, a.first(k))
		}
		r.Address = conv.AppendUnique(r.Address, conv.JoinNonEmpty(", ", parts...))
		if r.EntityType == record.EntityEntity {
			if c, ok := conv.CountryCode(a.first("AddressCountry")); ok {
				r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, c)
			}
		}
	}
	for _, k := range []string{"EmailAddress", "Website"} {
		for _, v := range n.texts(k) {
			for _, x := range strings.FieldsFunc(v, func(c rune) bool { return c == ';' || c == ',' || c == ' ' }) {
				r.Links = conv.AppendUnique(r.Links, x)
			}
		}
	}
}

// ukDocuments files passports, national identifiers, registration numbers
// (an entity's as company numbers) and the other labelled elements.
func ukDocuments(r *record.Record, n *xmlNode, individual bool) {
	for _, p := range n.all("Passport") {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(" ", "Passport", p.first("PassportNumber"), p.first("PassportAdditionalInformation")))
	}
	for _, p := range n.all("NationalIdentifier") {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(" ", "National ID", p.first("NationalIdentifierNumber"), p.first("NationalIdentifierAdditionalInformation")))
	}
	for _, v := range n.texts("BusinessRegistrationNumber") {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Business registration number "+v)
		if !individual {
			r.CompanyNumber = conv.AppendUnique(r.CompanyNumber, v)
		}
	}
	for _, f := range []struct{ element, label string }{
		{"PhoneNumber", "Phone"}, {"TypeOfEntity", "Type of entity"}, {"ParentCompany", "Parent company"},
		{"Subsidiary", "Subsidiary"}, {"IMONumber", "IMO"}, {"TypeOfShip", "Type of ship"},
		{"CurrentBelievedFlagOfShip", "Flag"}, {"PreviousFlag", "Previous flag"},
		{"CurrentOwnerOperator", "Owner/operator"}, {"PreviousOwnerOperator", "Previous owner/operator"},
		{"TonnageOfShip", "Tonnage"}, {"LengthOfShip", "Length"}, {"YearBuilt", "Year built"},
		{"HullIdentificationNumber", "Hull identification number"}, {"OtherInformation", ""},
	} {
		for _, v := range n.texts(f.element) {
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(" ", f.label, v))
		}
	}
}

// ukSanctions files the regime, sanctions, references, the statement of
// reasons and the designation date.
func ukSanctions(r *record.Record, n *xmlNode) {
	if v := n.first("RegimeName"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "UK regime "+v)
	}
	if v := n.first("SanctionsImposed"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Sanctions imposed: "+strings.Join(conv.SplitList(v, "|"), ", "))
	}
	if v := n.first("DesignationSource"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Designation source "+v)
	}
	if v := n.first("UNReferenceNumber"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "UN reference number "+v)
	}
	if v := n.first("OFSIGroupID"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "OFSI group ID "+v)
	}
	r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, n.first("UKStatementofReasons"))
	if t, err := time.Parse("02/01/2006", n.first("DateDesignated")); err == nil {
		r.ListDate = t.UnixMilli()
	}
}

// addUKDate files a UK date of birth: dd/mm/yyyy, where the list writes
// unknown parts as 00 or as the letters dd and mm.
func addUKDate(r *record.Record, s string) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) == 3 {
		num := func(p string, width int) (int, bool) {
			if strings.Trim(strings.ToLower(p), "dm") == "" { // dd, mm
				return 0, true
			}
			return conv.AtoiLen(p, 1, width)
		}
		d, ok1 := num(parts[0], 2)
		m, ok2 := num(parts[1], 2)
		y, ok3 := conv.AtoiLen(parts[2], 4, 4)
		if v := (conv.Ymd{Y: y, M: m, D: d}); ok1 && ok2 && ok3 && v.Valid() {
			r.DateOfBirth = conv.AppendUnique(r.DateOfBirth, v.String())
			return
		}
	}
	conv.AddDOB(r, s) // "1960", "circa 1960", …
}
