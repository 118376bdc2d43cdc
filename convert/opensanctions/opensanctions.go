package opensanctions

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// OpenSanctionsOptions chooses how OpenSanctions exports are converted.
type OpenSanctionsOptions struct {
	// SourceID, when set, is the source_id of every record; empty means
	// "os_" and the record's first dataset (FtM: the dataset's name; the
	// simple CSV: its title, in lower case with "_" for other characters).
	SourceID string
	// SourceType, when set, is the source_type of every record; empty
	// means it is read from the topics (FtM) or, for the simple CSV,
	// which has none, SANCTION for rows with sanctions and OTHER for the
	// rest.
	SourceType string
}

// ftmLineMax bounds one entity of an FtM stream: the largest entities of
// the default collection are a few hundred kilobytes.
const ftmLineMax = 32 << 20

// ftmEntity is one line of a FollowTheMoney entity stream.
type ftmEntity struct {
	ID         string              `json:"id"`
	Caption    string              `json:"caption"`
	Schema     string              `json:"schema"`
	Properties map[string][]string `json:"properties"`
	Datasets   []string            `json:"datasets"`
	Target     *bool               `json:"target"`
	FirstSeen  string              `json:"first_seen"`
	LastChange string              `json:"last_change"`
}

// ftmTypes maps the FtM schemata of screening subjects to entity types;
// entities of other schemata (Sanction, Address, Ownership, ...) are
// skipped.
var ftmTypes = map[string]string{
	"Person":       record.EntityIndividual,
	"Organization": record.EntityEntity,
	"Company":      record.EntityEntity,
	"LegalEntity":  record.EntityEntity,
	"PublicBody":   record.EntityEntity,
	"Vessel":       record.EntityVessel,
	"Airplane":     record.EntityAircraft,
}

// ftmIdentifiers are the identifier properties of FtM, with their labels;
// those marked are company registration numbers for entities.
var ftmIdentifiers = []struct {
	prop, label  string
	registration bool
}{
	{"idNumber", "National ID No.", false},
	{"passportNumber", "Passport", false},
	{"registrationNumber", "Registration Number", true},
	{"taxNumber", "Tax ID No.", false},
	{"innCode", "INN", true},
	{"ogrnCode", "OGRN", true},
	{"okpoCode", "OKPO", true},
	{"leiCode", "LEI", true},
	{"swiftBic", "SWIFT/BIC", false},
	{"vatCode", "VAT", false},
	{"imoNumber", "IMO", false},
	{"mmsi", "MMSI", false},
	{"callSign", "Call Sign", false},
}

// FtM converts an OpenSanctions FollowTheMoney entity stream
// (entities.ftm.json: one JSON entity a line) and calls emit with a record
// for every entity of a screening schema (Person, Organization, Company,
// LegalEntity, PublicBody, Vessel, Airplane) that is a target; the other
// entities (sanctions, addresses, relations) and non-targets are skipped.
//
// The mapping: id "OS-" and the entity id; source_id from the first
// dataset (the others in other_information); entity_type from the schema;
// name the first name (or the caption), other names and previous names
// alias_names, weak aliases name_remarks; firstName and lastName to
// given_names and last_names; birthDate to date_of_birth (dd/mm/yyyy),
// birthPlace to place_of_birth; nationality and citizenship to
// citizenship, and country to citizenship (persons) or jurisdiction
// (others); jurisdiction to jurisdiction; address to address; gender; the
// identifiers (idNumber, passportNumber, registrationNumber, ...) to
// other_information, registration numbers of entities also to
// company_number; position to positions, program to sanction_details,
// notes to description, website and sourceUrl to links; topics to
// source_type (sanction → SANCTION, crime → CRIMINAL, role.pep and role.rca
// → PEP with a pep_type, the rest OTHER); first_seen to list_date.
func FtM(r io.Reader, o OpenSanctionsOptions, emit func(*record.Record) error) error {
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "FtM entities"))
	if err != nil {
		return fmt.Errorf("read FtM entities: %w", err)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), ftmLineMax)
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var e ftmEntity
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("FtM entities line %d: %w", line, err)
		}
		typ, ok := ftmTypes[e.Schema]
		if !ok || (e.Target != nil && !*e.Target) {
			continue
		}
		rec, err := ftmRecord(&e, typ, o)
		if err == nil {
			err = conv.CheckRecord(rec)
		}
		if err != nil {
			return fmt.Errorf("FtM entities line %d: %w", line, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("read FtM entities: an entity longer than %d bytes: %w", ftmLineMax, err)
		}
		return fmt.Errorf("read FtM entities: %w", err)
	}
	return nil
}

// osSourceID is the source id of an OpenSanctions dataset name or title.
func osSourceID(ds string) string {
	id := senzingSourceID(ds)
	if id == "" {
		return ""
	}
	if len(id) > 60 {
		id = id[:60]
	}
	return "os_" + strings.Trim(id, "_")
}

func ftmRecord(e *ftmEntity, typ string, o OpenSanctionsOptions) (*record.Record, error) {
	raw := strings.TrimSpace(e.ID)
	if raw == "" {
		return nil, errors.New("entity has no id")
	}
	p := e.prop
	r := &record.Record{ID: conv.MakeID("OS-", raw), EntityType: typ}
	names := p("name")
	switch {
	case len(names) > 0:
		r.Name = names[0]
	default:
		r.Name = conv.Clean(e.Caption)
	}
	if r.Name == "" {
		return nil, fmt.Errorf("entity %s has no name", raw)
	}
	datasets := slices.DeleteFunc(slices.Clone(e.Datasets), func(s string) bool { return strings.TrimSpace(s) == "" })
	r.SourceID = o.SourceID
	if r.SourceID == "" && len(datasets) > 0 {
		r.SourceID = osSourceID(datasets[0])
	}
	if r.SourceID == "" {
		return nil, fmt.Errorf("entity %s has no dataset: name the source", raw)
	}
	if len(datasets) > 1 {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "OpenSanctions datasets: "+strings.Join(datasets, ", "))
	}
	for _, n := range append(names[min(1, len(names)):], append(p("alias"), p("previousName")...)...) {
		if n != r.Name {
			r.AliasNames = conv.AppendUnique(r.AliasNames, n)
		}
	}
	for _, n := range p("weakAlias") {
		r.NameRemarks = conv.AppendUnique(r.NameRemarks, n)
	}
	individual := typ == record.EntityIndividual
	addFTMPersonOrBody(r, p, individual)
	for _, c := range append(p("jurisdiction"), p("flag")...) {
		conv.AddCountry(&r.Jurisdiction, c)
	}
	for _, a := range p("address") {
		r.Address = conv.AppendUnique(r.Address, a)
	}
	for _, id := range ftmIdentifiers {
		for _, v := range p(id.prop) {
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, id.label+" "+v)
			if id.registration && !individual {
				r.CompanyNumber = conv.AppendUnique(r.CompanyNumber, v)
			}
		}
	}
	for _, v := range p("position") {
		r.Positions = conv.AppendUnique(r.Positions, v)
	}
	for _, v := range p("program") {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, v)
	}
	for _, v := range p("notes") {
		r.Description = conv.AppendUnique(r.Description, v)
	}
	for _, v := range append(p("website"), p("sourceUrl")...) {
		r.Links = conv.AppendUnique(r.Links, v)
	}
	topics := p("topics")
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
	r.ListDate = osDate(e.FirstSeen)
	return r, nil
}

// prop returns the values of e's property k, cleaned, without empty ones.
func (e *ftmEntity) prop(k string) []string {
	var out []string
	for _, v := range e.Properties[k] {
		if v = conv.Clean(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// addFTMPersonOrBody files what an entity says of a person (names, birth,
// gender) or of a body (incorporation), and its countries: a person's are
// citizenships, a body's jurisdictions. p reads a property.
func addFTMPersonOrBody(r *record.Record, p func(string) []string, individual bool) {
	if individual {
		for _, n := range p("firstName") {
			r.GivenNames = conv.AppendUnique(r.GivenNames, n)
		}
		for _, n := range p("lastName") {
			r.LastNames = conv.AppendUnique(r.LastNames, n)
		}
		for _, d := range p("birthDate") {
			addISODate(r, d)
		}
		for _, b := range p("birthPlace") {
			r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, b)
		}
		switch g := strings.ToLower(strings.Join(p("gender"), " ")); g {
		case "male", "m":
			r.Gender = record.GenderMale
		case "female", "f":
			r.Gender = record.GenderFemale
		default:
			r.Gender = record.GenderUnknown
		}
	} else {
		for _, d := range p("incorporationDate") {
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Incorporation date "+d)
		}
	}
	for _, c := range append(p("nationality"), p("citizenship")...) {
		if individual {
			conv.AddCountry(&r.Citizenship, c)
		} else {
			conv.AddCountry(&r.Jurisdiction, c)
		}
	}
	for _, c := range p("country") {
		if individual {
			conv.AddCountry(&r.Citizenship, c)
		} else {
			conv.AddCountry(&r.Jurisdiction, c)
		}
	}
}

// osDate reads OpenSanctions' timestamps (2024-01-02T03:04:05, or a
// date) as Unix milliseconds; 0 when it cannot.
func osDate(s string) int64 {
	for _, layout := range []string{"2006-01-02T15:04:05", time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t.UnixMilli()
		}
	}
	return 0
}

// OpenSanctionsSimple converts OpenSanctions' targets.simple.csv and calls
// emit with a record for every row, keeping every column: aliases to
// alias_names, birth dates, countries (citizenship for persons,
// jurisdiction for others), addresses, identifiers (other_information,
// and company_number for entities), sanctions to sanction_details, phones
// and e-mails to other_information and links, program ids to
// sanction_details, datasets (titles, ";"-separated) to the source (the
// first) and other_information (all). Columns are found by their header,
// so added columns do no harm; a missing one of id, schema and name is an
// error.
func OpenSanctionsSimple(r io.Reader, o OpenSanctionsOptions, emit func(*record.Record) error) error {
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "targets.simple.csv"))
	if err != nil {
		return fmt.Errorf("read targets.simple.csv: %w", err)
	}
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("read targets.simple.csv header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, need := range []string{"id", "schema", "name"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("targets.simple.csv: no %q column (columns: %s)", need, strings.Join(header, ", "))
		}
	}
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("targets.simple.csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		rec, err := osSimpleRecord(get, o)
		if err == nil {
			err = conv.CheckRecord(rec)
		}
		if err != nil {
			return fmt.Errorf("targets.simple.csv line %d: %w", line, err)
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}

func osSimpleRecord(get func(string) string, o OpenSanctionsOptions) (*record.Record, error) {
	raw := get("id")
	if raw == "" {
		return nil, errors.New("field id: empty")
	}
	typ, ok := ftmTypes[get("schema")]
	if !ok {
		typ = record.EntityUnknown
	}
	multi := func(k string) []string {
		var out []string
		for _, v := range strings.Split(get(k), ";") {
			if v = conv.Clean(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	r := &record.Record{ID: conv.MakeID("OS-", raw), EntityType: typ, Name: conv.Clean(get("name"))}
	if r.Name == "" {
		return nil, fmt.Errorf("field name: empty (id %s)", raw)
	}
	datasets := multi("dataset")
	r.SourceID = o.SourceID
	if r.SourceID == "" && len(datasets) > 0 {
		r.SourceID = osSourceID(datasets[0])
	}
	if r.SourceID == "" {
		return nil, fmt.Errorf("field dataset: empty (id %s): name the source", raw)
	}
	if len(datasets) > 0 {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "OpenSanctions datasets: "+strings.Join(datasets, ", "))
	}
	for _, a := range multi("aliases") {
		if a != r.Name {
			r.AliasNames = conv.AppendUnique(r.AliasNames, a)
		}
	}
	individual := typ == record.EntityIndividual
	for _, d := range multi("birth_date") {
		addISODate(r, d)
	}
	for _, c := range multi("countries") {
		if individual || typ == record.EntityUnknown {
			conv.AddCountry(&r.Citizenship, c)
		} else {
			conv.AddCountry(&r.Jurisdiction, c)
		}
	}
	for _, a := range multi("addresses") {
		r.Address = conv.AppendUnique(r.Address, a)
	}
	for _, id := range multi("identifiers") {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Identifier "+id)
		if !individual {
			r.CompanyNumber = conv.AppendUnique(r.CompanyNumber, id)
		}
	}
	sanctions := multi("sanctions")
	for _, s := range append(sanctions, multi("program_ids")...) {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, s)
	}
	for _, p := range multi("phones") {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Phone "+p)
	}
	for _, e := range multi("emails") {
		r.Links = conv.AppendUnique(r.Links, e)
	}
	r.SourceType = o.SourceType
	if r.SourceType == "" {
		r.SourceType = record.SourceOther
		if len(sanctions) > 0 {
			r.SourceType = record.SourceSanction
		}
	}
	if r.SourceType == record.SourcePEP {
		r.PEPType = senzingPEPType(r, nil)
	}
	if individual {
		r.Gender = record.GenderUnknown
	}
	r.ListDate = osDate(get("first_seen"))
	return r, nil
}
