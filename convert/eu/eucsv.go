package eu

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// The EU Financial Sanctions Files in CSV (csvFullSanctionsList_1_1):
// semicolon-separated, one row per name alias, address, birth date,
// identification or citizenship of an entity, each row repeating the
// entity's columns (Entity_LogicalId, Entity_SubjectType, its regulation)
// and filling the columns of its own element (NameAlias_*, Address_*,
// BirthDate_*, Identification_*, Citizenship_*). The reader gathers the
// rows of each entity into the structure the XML reader fills, so both
// formats give the same records. No edition of the file was at hand: the
// column names are those of the published schema.

// euCSVNeed are the columns without which a file is not the EU CSV.
var euCSVNeed = []string{"Entity_LogicalId", "NameAlias_WholeName"}

// EUCSV converts the EU consolidated financial sanctions list in its CSV
// format (csvFullSanctionsList_1_1) read from r and calls emit with every
// record, in the order each entity first appears. The mapping is EU's:
// the same ids, source and fields as the XML edition, so one may replace
// the other. Columns are found by their header, in any order and case; a
// file without Entity_LogicalId or NameAlias_WholeName is refused, as is a
// row without an Entity_LogicalId (the error names the line).
func EUCSV(r io.Reader, emit func(*record.Record) error) error {
	cr := csv.NewReader(conv.LimitReader(r, conv.MaxInputBytes, "EU list CSV"))
	cr.Comma = ';'
	cr.FieldsPerRecord = -1
	col, err := euCSVHeader(cr)
	if err != nil {
		return err
	}
	var order []string
	byID := map[string]*euEntity{}
	seen := map[string]bool{} // elements already filed, by entity and content
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read EU list CSV: %w", err)
		}
		line, _ := cr.FieldPos(0)
		get := func(k string) string {
			if i, ok := col[strings.ToLower(k)]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		if conv.Blank(row) {
			continue
		}
		id := get("Entity_LogicalId")
		if id == "" {
			return fmt.Errorf("EU list CSV line %d: field Entity_LogicalId: empty", line)
		}
		e := byID[id]
		if e == nil {
			e = &euEntity{LogicalID: id}
			byID[id] = e
			order = append(order, id)
		}
		euCSVRow(e, get, func(key string) bool {
			key = id + "\x00" + key
			if seen[key] {
				return false
			}
			seen[key] = true
			return true
		})
	}
	if len(order) == 0 {
		return errors.New("read EU list CSV: no entity rows")
	}
	for _, id := range order {
		rec, err := euRecord(byID[id])
		if err == nil {
			err = conv.CheckRecord(rec)
		}
		if err != nil {
			return fmt.Errorf("EU list CSV: entity %s: %w", id, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
	return nil
}

// euCSVHeader reads up to the header row (the EU has put a line of file
// facts before it) and returns the column of each name, in lower case.
func euCSVHeader(cr *csv.Reader) (map[string]int, error) {
	for n := 0; n < 5; n++ {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read EU list CSV header: %w", err)
		}
		col := map[string]int{}
		for i, h := range row {
			col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
		}
		if _, ok := col["entity_logicalid"]; !ok {
			continue
		}
		for _, need := range euCSVNeed {
			if _, ok := col[strings.ToLower(need)]; !ok {
				return nil, fmt.Errorf("EU list CSV: no %s column: is this the EU financial sanctions CSV (csvFullSanctionsList_1_1)?", need)
			}
		}
		return col, nil
	}
	return nil, errors.New("read EU list CSV: no header with Entity_LogicalId in the first 5 lines: is this the EU financial sanctions CSV (csvFullSanctionsList_1_1)?")
}

// euCSVRow files the columns of one row into e; first reports whether an
// element of the given content is new to the entity, since rows repeat the
// entity's columns.
func euCSVRow(e *euEntity, get func(string) string, first func(string) bool) {
	set := func(dst *string, k string) {
		if *dst == "" {
			*dst = get(k)
		}
	}
	set(&e.EUReference, "Entity_EU_ReferenceNumber")
	set(&e.UNID, "Entity_UnitedNationId")
	set(&e.Designation, "Entity_DesignationDetails")
	set(&e.DesignatedOn, "Entity_DesignationDate")
	if e.SubjectType.Code == "" {
		// The CSV writes the code (person, enterprise) and the
		// classification code (P, E); either says which.
		for _, k := range []string{"Entity_SubjectType", "Entity_SubjectType_ClassificationCode"} {
			switch strings.ToUpper(get(k)) {
			case "P", "PERSON":
				e.SubjectType.Code = "person"
			case "E", "ENTERPRISE":
				e.SubjectType.Code = "enterprise"
			}
		}
	}
	// fields joins the values of the columns of one element: its identity
	// among the entity's rows, empty when the row has none of them.
	fields := func(prefix string, ks ...string) (vals []string, key string) {
		filled := false
		for _, k := range ks {
			v := get(prefix + k)
			filled = filled || v != ""
			vals = append(vals, v)
		}
		if !filled {
			return vals, ""
		}
		return vals, prefix + strings.Join(vals, "\x1f")
	}
	if v := get("Entity_Remark"); v != "" && first("remark\x00"+v) {
		e.RemarkElements = append(e.RemarkElements, v)
	}
	if v, key := fields("Entity_Regulation_", "Type", "PublicationDate", "EntryIntoForceDate", "NumberTitle", "Programme", "PublicationUrl"); key != "" && first(key) {
		e.Regulations = append(e.Regulations, euRegulation{Type: v[0], Published: v[1], InForce: v[2], NumberTitle: v[3], Programme: v[4], URL: v[5]})
	}
	if v, key := fields("NameAlias_", "WholeName", "FirstName", "MiddleName", "LastName", "Function", "Gender", "Title", "NameLanguage", "Strong", "Remark"); key != "" && first(key) {
		n := euNameOf(v)
		e.Names = append(e.Names, n)
	}
	if v, key := fields("Citizenship_", "Region", "CountryIso2Code", "CountryDescription"); key != "" && first(key) {
		e.Citizenships = append(e.Citizenships, euCountry{Region: v[0], ISO2: v[1], Description: v[2]})
	}
	if v, key := fields("BirthDate_", "BirthDate", "Day", "Month", "Year", "YearRangeFrom", "YearRangeTo", "Circa", "CalendarType",
		"City", "ZipCode", "Place", "Region", "CountryIso2Code", "CountryDescription", "Remark"); key != "" && first(key) {
		e.Birthdates = append(e.Birthdates, euBirthOf(v))
	}
	if v, key := fields("Identification_", "Number", "LatinNumber", "TypeCode", "TypeDescription", "IssuedBy", "IssuedDate",
		"Diplomatic", "KnownExpired", "KnownFalse", "ReportedLost", "RevokedByIssuer", "Region", "CountryIso2Code", "CountryDescription", "Remark"); key != "" && first(key) {
		e.Identifications = append(e.Identifications, euIdentificationOf(v))
	}
	if v, key := fields("Address_", "Street", "PoBox", "City", "ZipCode", "Place", "Region", "CountryIso2Code", "CountryDescription", "ContactInfo", "Remark"); key != "" && first(key) {
		e.Addresses = append(e.Addresses, euAddressOf(v))
	}
}

// euNameOf makes a name alias of the NameAlias_ columns, in the order
// euCSVRow reads them; a name given in parts only is joined.
func euNameOf(v []string) euName {
	n := euName{Whole: v[0], First: v[1], Middle: v[2], Last: v[3], Function: v[4], Gender: v[5], Title: v[6],
		Language: v[7], Strong: v[8], Remarks: conv.Remarks(v[9])}
	if n.Whole == "" {
		n.Whole = conv.JoinNonEmpty(" ", v[1], v[2], v[3])
	}
	return n
}

// euBirthOf makes a birthdate of the BirthDate_ columns.
func euBirthOf(v []string) euBirth {
	return euBirth{Date: v[0], Day: v[1], Month: v[2], Year: v[3], RangeFrom: v[4], RangeTo: v[5], Circa: v[6], Calendar: v[7],
		City: v[8], ZipCode: v[9], Place: v[10], euCountry: euCountry{Region: v[11], ISO2: v[12], Description: v[13]}, Remarks: conv.Remarks(v[14])}
}

// euIdentificationOf makes an identification of the Identification_
// columns.
func euIdentificationOf(v []string) euIdentification {
	return euIdentification{Number: v[0], LatinNumber: v[1], TypeCode: v[2], TypeText: v[3], IssuedBy: v[4], IssueDate: v[5],
		Diplomatic: v[6], Expired: v[7], False: v[8], Lost: v[9], Revoked: v[10],
		euCountry: euCountry{Region: v[11], ISO2: v[12], Description: v[13]}, Remarks: conv.Remarks(v[14])}
}

// euAddressOf makes an address of the Address_ columns. The CSV holds an
// address's contacts in one column, "KEY: value" parts separated by ";";
// a part without a key is an e-mail address when it holds an @.
func euAddressOf(v []string) euAddress {
	a := euAddress{Street: v[0], POBox: v[1], City: v[2], ZipCode: v[3], Place: v[4],
		euCountry: euCountry{Region: v[5], ISO2: v[6], Description: v[7]}, Remarks: conv.Remarks(v[9])}
	for _, part := range strings.Split(v[8], ";") {
		if part = conv.Clean(part); part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, ":")
		if l := strings.ToLower(key); l == "http" || l == "https" {
			key, val = "WEB", part
		} else if !ok || strings.ContainsAny(key, " @/.") {
			key, val = "Contact", part
			if strings.Contains(part, "@") {
				key = "EMAIL"
			}
		}
		a.Contacts = append(a.Contacts, euContact{Key: conv.Clean(key), Value: conv.Clean(val)})
	}
	return a
}
