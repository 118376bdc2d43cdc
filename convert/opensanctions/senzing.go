package opensanctions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// SenzingOptions chooses the source of the records Senzing writes.
type SenzingOptions struct {
	// SourceID is the source_id of every record; empty means the file's
	// DATA_SOURCE in lower case ("OS_US_CONGRESS" gives os_us_congress).
	SourceID string
	// SourceType is the source_type of every record; empty means one per
	// record from its risk topics (see Senzing).
	SourceType string
}

// SenzingStats says what Senzing read besides the records it emitted.
type SenzingStats struct {
	// Positions counts the records that are positions held by others
	// (no RECORD_TYPE, the target of an Occupancy): they are not people or
	// companies to screen, and their names became the holders' positions.
	Positions int
}

// maxSenzingLine bounds one line of a Senzing file; a longer one is an
// error naming its line rather than a line of gigabytes held in memory.
const maxSenzingLine = 16 << 20

// senzingEntity is one line of a Senzing file as OpenSanctions exports it
// (its "Senzing entity format" export, one JSON object a line). Every
// section is a list of objects of string attributes.
type senzingEntity struct {
	DataSource    string           `json:"DATA_SOURCE"`
	RecordID      string           `json:"RECORD_ID"`
	RecordType    *string          `json:"RECORD_TYPE"`
	LastChange    string           `json:"LAST_CHANGE"`
	Gender        string           `json:"GENDER"`
	URL           string           `json:"URL"`
	Names         []senzingSection `json:"NAMES"`
	Risks         []senzingSection `json:"RISKS"`
	Dates         []senzingSection `json:"DATES"`
	Countries     []senzingSection `json:"COUNTRIES"`
	Addresses     []senzingSection `json:"ADDRESSES"`
	Contacts      []senzingSection `json:"CONTACTS"`
	Identifiers   []senzingSection `json:"IDENTIFIERS"`
	Relationships []senzingSection `json:"RELATIONSHIPS"`
	SourceLinks   []senzingSection `json:"SOURCE_LINKS"`
	line          int              // where it starts in the file
}

// senzingSection is one object of a section, its values as text.
type senzingSection map[string]string

func (s *senzingSection) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = senzingSection{}
	for k, v := range m {
		switch v := v.(type) {
		case nil:
		case string:
			(*s)[k] = conv.Clean(v)
		case float64:
			(*s)[k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			(*s)[k] = strconv.FormatBool(v)
		default:
			b, _ := json.Marshal(v)
			(*s)[k] = string(b)
		}
	}
	return nil
}

// Senzing converts a file in the Senzing entity format as OpenSanctions
// exports its datasets (senzing.json: one JSON object a line) and calls
// emit with every record, in the order of the file. open is called twice:
// the positions people hold are records of their own, often after the
// people, so a first pass collects their names.
//
// Records are RECORD_TYPE PERSON (INDIVIDUAL), ORGANIZATION (ENTITY),
// VESSEL, AIRCRAFT and VEHICLE (OBJECT); those without a type are
// UNKNOWN, except positions (the targets of an Occupancy), which are not
// emitted and are counted in the stats. Ids are "OS-" + RECORD_ID.
//
// source_type comes from the risk topics unless the options fix it:
// sanction and sanction.linked, export.control and debarment give
// SANCTION; crime and its subtopics and wanted give CRIMINAL; role.pep,
// role.rca and the gov topics give PEP; anything else OTHER. pep_type
// comes from the topics and the names of the positions held (a senator or
// representative is a POLITICIAN, a judge a JUDGE, an ambassador an
// EMBASSY_OFFICIAL, …; role.rca is RELATIVES_AND_CLOSE_ASSOCIATES), OTHER
// when neither says.
//
// The mapping: the PRIMARY name is name, other names alias_names; GENDER
// M or F; DATE_OF_BIRTH to date_of_birth, other dates to
// other_information; NATIONALITY and CITIZENSHIP to citizenship,
// REGISTRATION_COUNTRY and COUNTRY_OF_ASSOCIATION of organisations to
// jurisdiction; ADDR_FULL to address, PLACE_OF_BIRTH to place_of_birth;
// identifiers to other_information as "TYPE number (country)" and
// organisations' registration numbers also to company_number; websites,
// e-mail addresses and the OpenSanctions page to links, phone numbers to
// other_information; positions held to positions; other relationships to
// other_information as "role: name"; the topics to other_information;
// LAST_CHANGE to list_date.
func Senzing(open func() (io.ReadCloser, error), o SenzingOptions, emit func(*record.Record) error) (SenzingStats, error) {
	var stats SenzingStats
	names := map[string]string{} // id of a position or anchor -> its name
	positions := map[string]bool{}
	err := readSenzing(open, func(e *senzingEntity) error {
		// Positions have no type; people and companies others point to
		// mark themselves as anchors.
		anchor := e.RecordType == nil || *e.RecordType == ""
		for _, rel := range e.Relationships {
			anchor = anchor || rel["REL_ANCHOR_KEY"] != ""
		}
		if anchor {
			names[e.RecordID] = senzingPrimaryName(e)
		}
		for _, rel := range e.Relationships {
			if k := rel["REL_POINTER_KEY"]; k != "" && strings.EqualFold(rel["REL_POINTER_ROLE"], "Occupancy") {
				positions[k] = true
			}
		}
		return nil
	})
	if err != nil {
		return stats, err
	}
	err = readSenzing(open, func(e *senzingEntity) error {
		if (e.RecordType == nil || *e.RecordType == "") && positions[e.RecordID] {
			stats.Positions++
			return nil
		}
		r, err := senzingRecord(e, o, names, positions)
		if err != nil {
			return fmt.Errorf("Senzing line %d: %w", e.line, err)
		}
		return emit(r)
	})
	return stats, err
}

// readSenzing calls fn with every entity of the file open returns.
func readSenzing(open func() (io.ReadCloser, error), fn func(*senzingEntity) error) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	in, err := conv.MaybeGunzip(conv.LimitReader(rc, conv.MaxInputBytes, "Senzing file"))
	if err != nil {
		return fmt.Errorf("read Senzing file: %w", err)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxSenzingLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var e senzingEntity
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("read Senzing file: line %d: %w", line, err)
		}
		e.line = line
		if err := fn(&e); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("read Senzing file: line %d is longer than %d bytes", line+1, maxSenzingLine)
		}
		return fmt.Errorf("read Senzing file: after line %d: %w", line, err)
	}
	return nil
}

// senzingName is the name one NAMES object gives.
func senzingName(n senzingSection) string {
	for _, k := range []string{"NAME_FULL", "NAME_ORG"} {
		if v := n[k]; v != "" {
			return v
		}
	}
	return conv.JoinNonEmpty(" ", n["NAME_PREFIX"], n["NAME_FIRST"], n["NAME_MIDDLE"], n["NAME_LAST"], n["NAME_SUFFIX"])
}

func senzingPrimaryName(e *senzingEntity) string {
	for _, n := range e.Names {
		if strings.EqualFold(n["NAME_TYPE"], "PRIMARY") {
			if s := senzingName(n); s != "" {
				return s
			}
		}
	}
	for _, n := range e.Names {
		if s := senzingName(n); s != "" {
			return s
		}
	}
	return ""
}

// senzingTypes maps RECORD_TYPE to entity_type.
var senzingTypes = map[string]string{
	"PERSON":       record.EntityIndividual,
	"ORGANIZATION": record.EntityEntity,
	"VESSEL":       record.EntityVessel,
	"AIRCRAFT":     record.EntityAircraft,
	"VEHICLE":      record.EntityObject,
}

// senzingRecord turns one Senzing entity into a record; names and
// positions are the names of every record of the file and the ids of its
// position records, for relationships.
func senzingRecord(e *senzingEntity, o SenzingOptions, names map[string]string, positions map[string]bool) (*record.Record, error) {
	raw := strings.TrimSpace(e.RecordID)
	if raw == "" {
		return nil, errors.New("no RECORD_ID")
	}
	r := &record.Record{ID: conv.MakeID("OS-", raw), SourceID: o.SourceID, Name: senzingPrimaryName(e)}
	if r.Name == "" {
		return nil, fmt.Errorf("record %s has no name", raw)
	}
	if r.SourceID == "" {
		r.SourceID = senzingSourceID(e.DataSource)
		if r.SourceID == "" {
			return nil, fmt.Errorf("record %s has no DATA_SOURCE: name the source with --source-id", raw)
		}
	}
	r.EntityType = record.EntityUnknown
	if e.RecordType != nil && *e.RecordType != "" {
		t, ok := senzingTypes[strings.ToUpper(*e.RecordType)]
		if !ok {
			t = strings.ToUpper(*e.RecordType)
		}
		r.EntityType = t
	}
	for _, n := range e.Names {
		if s := senzingName(n); s != "" && s != r.Name {
			r.AliasNames = conv.AppendUnique(r.AliasNames, s)
		}
	}
	switch strings.ToUpper(e.Gender) {
	case "M", "MALE":
		r.Gender = record.GenderMale
	case "F", "FEMALE":
		r.Gender = record.GenderFemale
	}
	if t, err := time.Parse("2006-01-02T15:04:05", e.LastChange); err == nil {
		r.ListDate = t.UnixMilli()
	} else if t, err := time.Parse("2006-01-02", e.LastChange); err == nil {
		r.ListDate = t.UnixMilli()
	}
	var topics []string
	for _, rk := range e.Risks {
		if t := rk["TOPIC"]; t != "" {
			topics = conv.AppendUnique(topics, t)
		}
	}
	individual := r.EntityType == record.EntityIndividual
	senzingDates(r, e)
	senzingCountries(r, e, individual)
	senzingContacts(r, e)
	senzingRelationships(r, e, names, positions)
	if len(topics) > 0 {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Topics: "+strings.Join(topics, ", "))
	}
	r.SourceType = o.SourceType
	if r.SourceType == "" {
		r.SourceType = senzingSourceType(topics)
	}
	if r.SourceType == record.SourcePEP {
		r.PEPType = senzingPEPType(r, topics)
	}
	if individual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

// senzingDates files DATE_OF_BIRTH as dates of birth and other dates as
// other information.
func senzingDates(r *record.Record, e *senzingEntity) {
	for _, d := range e.Dates {
		for _, k := range sortedKeys(d) {
			v := d[k]
			if v == "" {
				continue
			}
			if k == "DATE_OF_BIRTH" {
				addISODate(r, v)
				continue
			}
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, senzingLabel(k)+" "+v)
		}
	}
}

// senzingCountries files nationalities and countries of registration or
// association as citizenship (individuals, and records of unknown type
// for nationality) or jurisdiction, and other countries as other
// information.
func senzingCountries(r *record.Record, e *senzingEntity, individual bool) {
	for _, c := range e.Countries {
		for _, k := range sortedKeys(c) {
			v := c[k]
			switch {
			case v == "":
			case k == "NATIONALITY" || k == "CITIZENSHIP":
				if individual || r.EntityType == record.EntityUnknown {
					conv.AddCountry(&r.Citizenship, v)
				} else {
					conv.AddCountry(&r.Jurisdiction, v)
				}
			case k == "REGISTRATION_COUNTRY" || k == "COUNTRY_OF_ASSOCIATION":
				if individual {
					conv.AddCountry(&r.Citizenship, v)
				} else {
					conv.AddCountry(&r.Jurisdiction, v)
				}
			default:
				r.OtherInformation = conv.AppendUnique(r.OtherInformation, senzingLabel(k)+" "+v)
			}
		}
	}
}

// senzingContacts files places of birth, addresses, contacts (web and
// e-mail as links), identifiers and source links.
func senzingContacts(r *record.Record, e *senzingEntity) {
	for _, a := range e.Addresses {
		if v := a["PLACE_OF_BIRTH"]; v != "" {
			r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, v)
		}
		full := a["ADDR_FULL"]
		if full == "" {
			full = conv.JoinNonEmpty(", ", a["ADDR_LINE1"], a["ADDR_LINE2"], a["ADDR_LINE3"], a["ADDR_CITY"], a["ADDR_STATE"],
				a["ADDR_POSTAL_CODE"], a["ADDR_COUNTRY"])
		}
		r.Address = conv.AppendUnique(r.Address, full)
	}
	for _, c := range e.Contacts {
		for _, k := range sortedKeys(c) {
			switch v := c[k]; {
			case v == "":
			case k == "WEBSITE_ADDRESS" || k == "EMAIL_ADDRESS":
				r.Links = conv.AppendUnique(r.Links, v)
			default:
				r.OtherInformation = conv.AppendUnique(r.OtherInformation, senzingLabel(k)+" "+v)
			}
		}
	}
	for _, id := range e.Identifiers {
		addSenzingIdentifier(r, id)
	}
	for _, l := range e.SourceLinks {
		r.Links = conv.AppendUnique(r.Links, l["SOURCE_URL"])
	}
	r.Links = conv.AppendUnique(r.Links, e.URL)
}

// senzingRelationships files relationships: an occupied position (a
// position record of the file) as a position, others as other information
// naming the related record.
func senzingRelationships(r *record.Record, e *senzingEntity, names map[string]string, positions map[string]bool) {
	for _, rel := range e.Relationships {
		k := rel["REL_POINTER_KEY"]
		if k == "" {
			continue
		}
		name := names[k]
		if name == "" {
			name = k
		}
		if positions[k] && strings.EqualFold(rel["REL_POINTER_ROLE"], "Occupancy") {
			r.Positions = conv.AppendUnique(r.Positions, name)
			continue
		}
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(": ", rel["REL_POINTER_ROLE"], name))
	}
}

// senzingSourceID turns a DATA_SOURCE into a source id: lower case, every
// character an id cannot hold as "_".
func senzingSourceID(ds string) string {
	ds = strings.TrimSpace(ds)
	b := []byte(strings.ToLower(ds))
	for i, c := range b {
		if !conv.IDByte(c) || c == ':' || c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}

// senzingLabel writes an attribute name as words: "DATE_OF_DEATH" gives
// "Date of death".
func senzingLabel(k string) string {
	s := strings.ToLower(strings.ReplaceAll(k, "_", " "))
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// senzingIDLabels name the identifier attributes of the Senzing format.
var senzingIDLabels = map[string]string{
	"PASSPORT_NUMBER":    "Passport",
	"NATIONAL_ID_NUMBER": "National ID",
	"TAX_ID_NUMBER":      "Tax ID",
	"SSN_NUMBER":         "SSN",
	"LEI_NUMBER":         "LEI",
	"DUNS_NUMBER":        "D-U-N-S Number",
	"IMO_NUMBER":         "IMO",
	"MMSI_NUMBER":        "MMSI",
	"CALL_SIGN":          "Call Sign",
	"ISIN_NUMBER":        "ISIN",
	"NPI_NUMBER":         "NPI",
	"OFAC_ID":            "OFAC ID",
	"OPEN_SANCTIONS":     "OpenSanctions id",
	"WIKIDATA":           "Wikidata",
}

// registrationTypes are the NATIONAL_ID_TYPE values that are company
// registration numbers (OpenSanctions keeps the FtM property there).
var registrationTypes = []string{"registrationNumber", "ogrnCode", "okpoCode", "innCode", "leiCode"}

func addSenzingIdentifier(r *record.Record, id senzingSection) {
	number, label, country, typ := "", "", "", ""
	for _, k := range sortedKeys(id) {
		v := id[k]
		switch {
		case v == "":
		case strings.HasSuffix(k, "_COUNTRY"):
			country = v
		case k == "OTHER_ID_TYPE" || k == "TRUSTED_ID_TYPE":
			label = v
			if l, ok := senzingIDLabels[v]; ok {
				label = l
			}
		case k == "OTHER_ID_NUMBER" || k == "TRUSTED_ID_NUMBER":
			number = v
		case strings.HasSuffix(k, "_TYPE"):
			typ = v
		default:
			number = v
			if l, ok := senzingIDLabels[k]; ok {
				label = l
			} else {
				label = senzingLabel(k)
			}
		}
	}
	if number == "" {
		return
	}
	if typ != "" {
		label = conv.JoinNonEmpty(" ", label, "("+typ+")")
	}
	s := conv.JoinNonEmpty(" ", label, number)
	if country != "" {
		s += " (" + strings.ToUpper(country) + ")"
	}
	r.OtherInformation = conv.AppendUnique(r.OtherInformation, s)
	if r.EntityType != record.EntityIndividual && slices.Contains(registrationTypes, typ) {
		r.CompanyNumber = conv.AppendUnique(r.CompanyNumber, number)
	}
}

// senzingSourceType reads a record's source type from its topics, the
// strongest first.
func senzingSourceType(topics []string) string {
	has := func(pred func(string) bool) bool { return slices.ContainsFunc(topics, pred) }
	switch {
	case has(func(t string) bool {
		return t == "sanction" || t == "sanction.linked" || t == "export.control" || t == "debarment"
	}):
		return record.SourceSanction
	case has(func(t string) bool { return t == "crime" || strings.HasPrefix(t, "crime.") || t == "wanted" }):
		return record.SourceCriminal
	case has(func(t string) bool {
		return strings.HasPrefix(t, "role.pep") || t == "role.rca" || strings.HasPrefix(t, "gov.")
	}):
		return record.SourcePEP
	}
	return record.SourceOther
}

// pepPositionWords map words of a position's name to a pep_type, in order.
var pepPositionWords = []struct {
	re  *regexp.Regexp
	typ string
}{
	{regexp.MustCompile(`(?i)\bcentral bank\b`), "BOARD_MEMBER_OF_CENTRAL_BANK"},
	{regexp.MustCompile(`(?i)\b(judges?|justices?|court)\b`), "JUDGE"},
	{regexp.MustCompile(`(?i)\b(prosecutors?|attorney general)\b`), "PROSECUTION_OFFICIAL"},
	{regexp.MustCompile(`(?i)\b(ambassadors?|consul|embassy|envoy|charg[eé] d'affaires)\b`), "EMBASSY_OFFICIAL"},
	{regexp.MustCompile(`(?i)\b(auditors?|court of audit|comptroller)\b`), "EXECUTIVE_AUDITOR"},
	{regexp.MustCompile(`(?i)\b(admiral|colonel|brigadier|(major|lieutenant) general|general staff|army|navy|air force|armed forces|military|commander)\b`), "MILITARY_OFFICIAL"},
	{regexp.MustCompile(`(?i)\b(senators?|representatives?|parliament|congress|deputy|deputies|minister|president|prime minister|governor|mayor|councill?or|legislat|assembly|head of state|chancellor|secretary of state|party)`), "POLITICIAN"},
}

// senzingPEPType picks the pep_type of a PEP record.
func senzingPEPType(r *record.Record, topics []string) string {
	if r.EntityType != record.EntityIndividual {
		if slices.Contains(topics, "gov.soe") {
			return "STATE_OWNED_ENTERPRISE"
		}
		return "OTHER"
	}
	switch {
	case slices.Contains(topics, "role.rca"):
		return "RELATIVES_AND_CLOSE_ASSOCIATES"
	case slices.Contains(topics, "role.judge"):
		return "JUDGE"
	case slices.Contains(topics, "role.diplo"):
		return "EMBASSY_OFFICIAL"
	case slices.Contains(topics, "gov.soe"):
		return "BOARD_MEMBER_OF_STATE_OWNED_ENTERPRISE"
	case slices.Contains(topics, "role.pep.intl") || slices.Contains(topics, "gov.igo"):
		return "INTERNATIONAL_ORGANIZATION_OFFICIAL"
	}
	for _, w := range pepPositionWords {
		for _, p := range r.Positions {
			if w.re.MatchString(p) {
				return w.typ
			}
		}
	}
	if slices.Contains(topics, "gov.legislative") || slices.Contains(topics, "gov.head") || slices.Contains(topics, "gov.executive") {
		return "POLITICIAN"
	}
	return "OTHER"
}

// addISODate files a date of birth given as yyyy, yyyy-mm or yyyy-mm-dd,
// and any other as OFAC's remarks are read (addDOB).
func addISODate(r *record.Record, s string) {
	var v conv.Ymd
	ok := false
	parts := strings.Split(s, "-")
	if len(parts) <= 3 {
		nums := make([]int, 3)
		ok = true
		for i, p := range parts {
			width := 2
			if i == 0 {
				width = 4
			}
			n, good := conv.AtoiLen(p, width, width)
			if !good {
				ok = false
				break
			}
			nums[i] = n
		}
		v = conv.Ymd{Y: nums[0], M: nums[1], D: nums[2]}
		ok = ok && v.Valid()
	}
	if !ok {
		conv.AddDOB(r, s) // "circa 1970", "12 Mar 1960", …
		return
	}
	r.DateOfBirth = conv.AppendUnique(r.DateOfBirth, v.String())
}

func sortedKeys(m senzingSection) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
