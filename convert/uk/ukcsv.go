package uk

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// SourceOFSI is the source id of the records UKCSV writes from OFSI's
// consolidated list (ConList.csv), whose Group IDs are not the UK
// Sanctions List's unique ids.
const SourceOFSI = "gb_hmt_ofsi"

// The UK lists in CSV, in two editions: the FCDO's UK Sanctions List
// (UK-Sanctions-List.csv: a "Report Date" line, then one row per name of
// a designation, keyed by Unique ID) and OFSI's Consolidated List of
// Financial Sanctions Targets (ConList.csv: a "Last Updated" line, then
// one row per name, keyed by Group ID). Both repeat the designation's
// columns on every row. The reader gathers the rows of a designation into
// the tree the XML reader builds (Name, Address, Passport, ... elements),
// so the CSV and XML editions are mapped by the same code. No edition of
// either file was at hand: the column names are those of the published
// formats.

// ukCSVColumn says where a column goes in the designation tree: into a
// child element named elem, inside a group element when group is set.
type ukCSVColumn struct{ group, elem string }

// ukCSVColumns maps the columns of both editions, by their names in lower
// case with everything but letters and digits dropped.
var ukCSVColumns = map[string]ukCSVColumn{
	"uniqueid": {"", "UniqueID"}, "ofsigroupid": {"", "OFSIGroupID"}, "groupid": {"", "OFSIGroupID"},
	"unreferencenumber": {"", "UNReferenceNumber"},
	"name1":             {"Name", "Name1"}, "name2": {"Name", "Name2"}, "name3": {"Name", "Name3"},
	"name4": {"Name", "Name4"}, "name5": {"Name", "Name5"}, "name6": {"Name", "Name6"},
	"nametype": {"Name", "NameType"}, "aliastype": {"Name", "NameType"},
	"aliasstrength": {"Name", "AliasStrength"}, "aliasquality": {"Name", "AliasStrength"},
	"title": {"", "Title"}, "namenonlatinscript": {"", "NameNonLatinScript"},
	"regimename": {"", "RegimeName"}, "regime": {"", "RegimeName"},
	"designationtype": {"", "IndividualEntityShip"}, "individualentityship": {"", "IndividualEntityShip"},
	"grouptype":         {"", "IndividualEntityShip"},
	"designationsource": {"", "DesignationSource"}, "sanctionsimposed": {"", "SanctionsImposed"},
	"otherinformation": {"", "OtherInformation"}, "ukstatementofreasons": {"", "UKStatementofReasons"},
	"addressline1": {"Address", "AddressLine1"}, "addressline2": {"Address", "AddressLine2"},
	"addressline3": {"Address", "AddressLine3"}, "addressline4": {"Address", "AddressLine4"},
	"addressline5": {"Address", "AddressLine5"}, "addressline6": {"Address", "AddressLine6"},
	"address1": {"Address", "AddressLine1"}, "address2": {"Address", "AddressLine2"},
	"address3": {"Address", "AddressLine3"}, "address4": {"Address", "AddressLine4"},
	"address5": {"Address", "AddressLine5"}, "address6": {"Address", "AddressLine6"},
	"addresspostalcode": {"Address", "AddressPostalCode"}, "postzipcode": {"Address", "AddressPostalCode"},
	"addresscountry": {"Address", "AddressCountry"}, "country": {"Address", "AddressCountry"},
	"phonenumber": {"", "PhoneNumber"}, "website": {"", "Website"}, "emailaddress": {"", "EmailAddress"},
	"datedesignated": {"", "DateDesignated"}, "uksanctionslistdatedesignated": {"", "DateDesignated"},
	"listedon": {"", "ListedOn"},
	"dob":      {"", "DOB"}, "nationalityies": {"", "Nationality"}, "nationality": {"", "Nationality"},
	"nationalidentifiernumber":                {"NationalIdentifier", "NationalIdentifierNumber"},
	"nationalidentificationnumber":            {"NationalIdentifier", "NationalIdentifierNumber"},
	"nationalidentifieradditionalinformation": {"NationalIdentifier", "NationalIdentifierAdditionalInformation"},
	"nationalidentificationdetails":           {"NationalIdentifier", "NationalIdentifierAdditionalInformation"},
	"passportnumber":                          {"Passport", "PassportNumber"},
	"passportadditionalinformation":           {"Passport", "PassportAdditionalInformation"},
	"passportdetails":                         {"Passport", "PassportAdditionalInformation"},
	"position":                                {"", "Position"}, "gender": {"", "Gender"},
	"townofbirth": {"Location", "TownOfBirth"}, "countryofbirth": {"Location", "CountryOfBirth"},
	"typeofentity": {"", "TypeOfEntity"}, "subsidiaries": {"", "Subsidiary"}, "parentcompany": {"", "ParentCompany"},
	"businessregistrationnumbers": {"", "BusinessRegistrationNumber"}, "imonumber": {"", "IMONumber"},
	"currentowneroperators": {"", "CurrentOwnerOperator"}, "previousowneroperators": {"", "PreviousOwnerOperator"},
	"currentbelievedflagofship": {"", "CurrentBelievedFlagOfShip"}, "previousflags": {"", "PreviousFlag"},
	"typeofship": {"", "TypeOfShip"}, "tonnageofship": {"", "TonnageOfShip"}, "lengthofship": {"", "LengthOfShip"},
	"yearbuilt": {"", "YearBuilt"}, "hullidentificationnumberhin": {"", "HullIdentificationNumber"},
}

// ukCSVGroups are the group elements, in the order a row files them.
var ukCSVGroups = []string{"Name", "Location", "Address", "Passport", "NationalIdentifier"}

// ukColumnKey returns a column name as ukCSVColumns spells it.
func ukColumnKey(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimPrefix(h, "\ufeff")) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// UKCSV converts a UK sanctions list in CSV read from r, the FCDO's UK
// Sanctions List or OFSI's consolidated list (told apart by their
// columns), and calls emit with every record, in the order each
// designation first appears. The mapping is UK's: the FCDO edition gives
// the same ids, source and fields as the XML (UK-<Unique ID>,
// gb_fcdo_sanctions); the OFSI edition gives OFSI-<Group ID> of source
// gb_hmt_ofsi, since its Group IDs are another numbering. Date Designated
// (UK Sanctions List Date Designated, else Listed On, for OFSI) is the
// list date. A row without its key is refused, naming the line.
func UKCSV(r io.Reader, emit func(*record.Record) error) error {
	cr := csv.NewReader(conv.LimitReader(r, conv.MaxInputBytes, "UK list CSV"))
	cr.FieldsPerRecord = -1
	cols, keyCol, ofsi, err := ukCSVHeader(cr)
	if err != nil {
		return err
	}
	keyName := "Unique ID"
	if ofsi {
		keyName = "Group ID"
	}
	var order []string
	byKey := map[string]*xmlNode{}
	seen := map[string]bool{}
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read UK list CSV: %w", err)
		}
		if conv.Blank(row) {
			continue
		}
		line, _ := cr.FieldPos(0)
		key := ""
		if keyCol < len(row) {
			key = conv.Clean(row[keyCol])
		}
		if key == "" {
			return fmt.Errorf("UK list CSV line %d: field %s: empty", line, keyName)
		}
		n := byKey[key]
		if n == nil {
			n = &xmlNode{name: "Designation"}
			if ofsi {
				n.children = append(n.children, &xmlNode{name: "UniqueID", text: key})
			}
			byKey[key] = n
			order = append(order, key)
		}
		ukCSVRow(n, cols, row, func(s string) bool {
			s = key + "\x00" + s
			if seen[s] {
				return false
			}
			seen[s] = true
			return true
		})
	}
	if len(order) == 0 {
		return errors.New("read UK list CSV: no designation rows")
	}
	for _, key := range order {
		n := byKey[key]
		if n.first("DateDesignated") == "" {
			if v := n.first("ListedOn"); v != "" {
				n.children = append(n.children, &xmlNode{name: "DateDesignated", text: v})
			}
		}
		rec, err := ukRecord(n)
		if err != nil {
			return fmt.Errorf("UK list CSV: %s %s: %w", keyName, key, err)
		}
		if ofsi {
			rec.ID, rec.SourceID = conv.MakeID("OFSI-", key), SourceOFSI
		}
		if err := conv.CheckRecord(rec); err != nil {
			return fmt.Errorf("UK list CSV: %s %s: %w", keyName, key, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
	return nil
}

// ukCSVHeader reads up to the header row (both editions put a date line
// before it) and returns where each column goes, the column of the key,
// and whether the file is OFSI's (keyed by Group ID, without Unique ID).
func ukCSVHeader(cr *csv.Reader) (cols []ukCSVColumn, keyCol int, ofsi bool, err error) {
	for n := 0; n < 5; n++ {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, false, fmt.Errorf("read UK list CSV header: %w", err)
		}
		cols = make([]ukCSVColumn, len(row))
		at := map[string]int{}
		for i, h := range row {
			k := ukColumnKey(h)
			cols[i] = ukCSVColumns[k]
			if _, dup := at[k]; !dup {
				at[k] = i
			}
		}
		if _, ok := at["name6"]; !ok {
			continue
		}
		if i, ok := at["uniqueid"]; ok {
			return cols, i, false, nil
		}
		if i, ok := at["groupid"]; ok {
			return cols, i, true, nil
		}
		return nil, 0, false, errors.New("UK list CSV: no Unique ID or Group ID column: is this the UK Sanctions List or OFSI's consolidated list in CSV?")
	}
	return nil, 0, false, errors.New("read UK list CSV: no header with Name 6 in the first 5 lines: is this the UK Sanctions List or OFSI's consolidated list in CSV?")
}

// ukCSVRow files the cells of one row into the designation n: group
// elements (a name, an address, ...) and single values, each once; first
// reports whether an element of the given content is new to n.
func ukCSVRow(n *xmlNode, cols []ukCSVColumn, row []string, first func(string) bool) {
	groups := map[string]*xmlNode{}
	for i, c := range cols {
		if c.elem == "" || i >= len(row) {
			continue
		}
		v := conv.Clean(row[i])
		if v == "" {
			continue
		}
		if c.group == "" {
			if first(c.elem + "\x00" + v) {
				n.children = append(n.children, &xmlNode{name: c.elem, text: v})
			}
			continue
		}
		g := groups[c.group]
		if g == nil {
			g = &xmlNode{name: c.group}
			groups[c.group] = g
		}
		g.children = append(g.children, &xmlNode{name: c.elem, text: v})
	}
	for _, name := range ukCSVGroups {
		g := groups[name]
		if g == nil {
			continue
		}
		var key strings.Builder
		key.WriteString(name)
		for _, c := range g.children {
			key.WriteString("\x00" + c.name + "=" + c.text)
		}
		if first(key.String()) {
			n.children = append(n.children, g)
		}
	}
}
