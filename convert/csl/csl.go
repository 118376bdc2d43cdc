package csl

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
	"golang.org/x/text/encoding/charmap"
)

// CSLList is one list of the US Consolidated Screening List, which the
// trade.gov CSV names in its source column ("Entity List (EL) - Bureau of
// Industry and Security").
type CSLList struct {
	Code     string // the abbreviation in brackets, upper case: "EL"
	SourceID string // source_id of its records: "us_csl_el"
	// ExportControl marks the lists of the export-control agencies (BIS,
	// State's DDTC) as against sanctions programmes; see CSLOptions.
	ExportControl bool
	Name          string // what the list is called
}

// CSLLists are the lists the CSL carries today, by their code.
var CSLLists = []CSLList{
	{Code: "SDN", SourceID: "us_csl_sdn", Name: "Specially Designated Nationals (SDN) - Treasury Department"},
	{Code: "SSI", SourceID: "us_csl_ssi", Name: "Sectoral Sanctions Identifications List (SSI) - Treasury Department"},
	{Code: "FSE", SourceID: "us_csl_fse", Name: "Foreign Sanctions Evaders (FSE) - Treasury Department"},
	{Code: "PLC", SourceID: "us_csl_plc", Name: "Palestinian Legislative Council List (PLC) - Treasury Department"},
	{Code: "CAP", SourceID: "us_csl_cap", Name: "Capta List (CAP) - Treasury Department"},
	{Code: "NS-MBS", SourceID: "us_csl_mbs", Name: "Non-SDN Menu-Based Sanctions List (NS-MBS List) - Treasury Department"},
	{Code: "CMIC", SourceID: "us_csl_cmic", Name: "Non-SDN Chinese Military-Industrial Complex Companies List (CMIC) - Treasury Department"},
	{Code: "ISN", SourceID: "us_csl_isn", Name: "Nonproliferation Sanctions (ISN) - State Department"},
	{Code: "EL", SourceID: "us_csl_el", ExportControl: true, Name: "Entity List (EL) - Bureau of Industry and Security"},
	{Code: "DPL", SourceID: "us_csl_dpl", ExportControl: true, Name: "Denied Persons List (DPL) - Bureau of Industry and Security"},
	{Code: "UVL", SourceID: "us_csl_uvl", ExportControl: true, Name: "Unverified List (UVL) - Bureau of Industry and Security"},
	{Code: "MEU", SourceID: "us_csl_meu", ExportControl: true, Name: "Military End User (MEU) List - Bureau of Industry and Security"},
	{Code: "DTC", SourceID: "us_csl_dtc", ExportControl: true, Name: "ITAR Debarred (DTC) - State Department"},
}

// CSLOptions chooses what CSL converts.
type CSLOptions struct {
	// Lists restricts the conversion to these codes (CSLList.Code, any
	// case); empty means every list in the file.
	Lists []string
	// ExportControlType is the source_type of the export-control lists
	// (EL, DPL, UVL, MEU, DTC); empty means SANCTION. They are not
	// sanctions programmes, but a bank screens against them as it does
	// against sanctions, and the service's OTHER type is left out of
	// every check unless the API key enables it: a list converted as
	// OTHER would quietly not be screened. Pass "OTHER" to keep them
	// apart all the same.
	ExportControlType string
}

// cslCode finds the list code in a source column: the last bracketed
// abbreviation ("Non-SDN Menu-Based Sanctions List (NS-MBS List) - …"
// gives NS-MBS).
var cslCode = regexp.MustCompile(`\(([A-Za-z][A-Za-z0-9 .-]*)\)`)

// CSL converts the US Consolidated Screening List in the trade.gov CSV
// format (consolidated.csv, plain or gzip-compressed) read from r and calls
// emit with every record, in the order of the file.
//
// Each list of the CSL becomes its own source (CSLLists; a list the table
// does not know gets us_csl_ and its code in lower case, as a sanction, so
// that a new list is screened rather than dropped). Ids are
// "CSL-<code>-<_id>": the CSL's _id is OFAC's entity number for the
// Treasury lists and a hash for the others. Rows that share an id (the CSL
// repeats some entries) become one record holding the aliases, addresses
// and details of all of them.
//
// The mapping: name as written; entity_type from type, UNKNOWN where the
// list gives none (BIS and State lists mix people and companies, and
// UNKNOWN is what both checkIndividual and checkEntity return); for
// individuals of OFAC lists, the "LAST, First" parts to last_names and
// given_names; alt_names (";"-separated, with the Entity List's "and" and
// "-" list marks and "f.k.a." prefixes taken off) to alias_names, bracketed
// notes among them to name_remarks; programs, Federal Register notices,
// licence requirement and policy and end date to sanction_details;
// start_date to list_date; addresses to address and, for entities,
// vessels and aircraft, their country code to jurisdiction; citizenships and
// nationalities to citizenship; dates and places of birth as OFAC's
// remarks are read; the ids column ("RU, 7702070139, Tax ID No.; Male,
// Gender") statement by statement as OFAC remarks (ParseRemarks), so
// gender, websites, e-mail addresses, registration numbers and sanction
// statements land where they do for OFAC; remarks likewise; vessel
// columns to other_information. The list URLs name the list, not the
// entry, and are left out.
func CSL(r io.Reader, o CSLOptions, emit func(*record.Record) error) error {
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "CSL"))
	if err != nil {
		return fmt.Errorf("read CSL: %w", err)
	}
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("read CSL header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	for _, need := range []string{"source", "name"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("read CSL: the header has no %q column: is this the consolidated screening list CSV?", need)
		}
	}
	want := map[string]bool{}
	for _, c := range o.Lists {
		want[strings.ToUpper(strings.TrimSpace(c))] = true
	}
	exportType := o.ExportControlType
	if exportType == "" {
		exportType = record.SourceSanction
	}
	dec := charmap.Windows1252.NewDecoder()
	var out []*record.Record
	byID := map[string]*record.Record{}
	for {
		f, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("read CSL: %w", err)
		}
		if len(f) == 1 && strings.TrimSpace(f[0]) == "" {
			continue
		}
		get := func(name string) string {
			i, ok := col[name]
			if !ok || i >= len(f) {
				return ""
			}
			v := f[i]
			if !utf8.ValidString(v) {
				if d, err := dec.String(v); err == nil {
					v = d
				}
			}
			return conv.Clean(v)
		}
		list := cslListOf(get("source"))
		if len(want) > 0 && !want[list.Code] {
			continue
		}
		rec, err := cslRecord(get, list, exportType)
		if err != nil {
			return fmt.Errorf("CSL line %d: %w", line, err)
		}
		if prev, ok := byID[rec.ID]; ok {
			conv.MergeRecord(prev, rec)
			continue
		}
		byID[rec.ID] = rec
		out = append(out, rec)
	}
	for _, c := range o.Lists {
		prefix := cslPrefix(strings.ToUpper(strings.TrimSpace(c)))
		if !slices.ContainsFunc(out, func(r *record.Record) bool { return strings.HasPrefix(r.ID, prefix) }) {
			return fmt.Errorf("CSL: no record of list %q in the file (lists are SDN, EL, DPL, …; see --help)", c)
		}
	}
	for _, rec := range out {
		if err := emit(rec); err != nil {
			return err
		}
	}
	return nil
}

// cslPrefix is the id prefix of a list's records: "CSL-EL-".
func cslPrefix(code string) string {
	return "CSL-" + strings.Map(func(r rune) rune {
		if r < 128 && conv.IDByte(byte(r)) {
			return r
		}
		return '_'
	}, code) + "-"
}

// cslListOf resolves the source column to a list.
func cslListOf(source string) CSLList {
	code := ""
	if m := cslCode.FindAllStringSubmatch(source, -1); m != nil {
		code = strings.ToUpper(strings.TrimSpace(m[len(m)-1][1]))
		code = strings.TrimSpace(strings.TrimSuffix(code, " LIST"))
	}
	for _, l := range CSLLists {
		if l.Code == code {
			return l
		}
	}
	if code == "" {
		return CSLList{Code: "OTHER", SourceID: "us_csl_other", Name: source}
	}
	id := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, code)
	return CSLList{Code: code, SourceID: "us_csl_" + id, Name: source}
}

// cslRecord turns one row of the Consolidated Screening List into a
// record.
// It is long on purpose: it maps the format's fields in the format's own
// order, a short block each, so that it can be checked against the
// format's documentation from top to bottom.
func cslRecord(get func(string) string, l CSLList, exportType string) (*record.Record, error) {
	r := &record.Record{SourceID: l.SourceID, SourceType: record.SourceSanction, Name: get("name")}
	if l.ExportControl {
		r.SourceType = exportType
	}
	raw := get("_id")
	if raw == "" {
		raw = get("entity_number")
	}
	prefix := cslPrefix(l.Code)
	if raw == "" {
		if r.Name == "" {
			return nil, errors.New("no _id and no name")
		}
		r.ID = conv.HashID(prefix, r.Name, get("addresses"), get("start_date"))
	} else {
		r.ID = conv.MakeID(prefix, raw)
	}
	if r.Name == "" {
		return nil, fmt.Errorf("entry %s has no name", raw)
	}
	r.EntityType = conv.EntityType(strings.ToLower(get("type")), record.EntityUnknown)
	if r.EntityType == record.EntityIndividual && get("entity_number") != "" {
		// OFAC writes individuals "LAST, First".
		if last, given, ok := strings.Cut(r.Name, ","); ok {
			if last, given = strings.TrimSpace(last), strings.TrimSpace(given); last != "" && given != "" {
				r.LastNames, r.GivenNames = []string{last}, []string{given}
			}
		}
	}
	addCSLDetails(r, get)
	if t, err := time.Parse("2006-01-02", get("start_date")); err == nil {
		r.ListDate = t.UnixMilli()
	}
	if v := get("title"); v != "" {
		r.Titles = []string{v}
	}
	for i, c := range []string{"call_sign", "vessel_type", "gross_tonnage", "gross_registered_tonnage", "vessel_flag", "vessel_owner"} {
		if v := get(c); v != "" {
			r.OtherInformation = append(r.OtherInformation,
				[]string{"Call Sign", "Vessel Type", "Tonnage", "Gross Registered Tonnage", "Vessel Flag", "Vessel Owner"}[i]+" "+v)
		}
	}
	for _, a := range conv.SplitList(get("alt_names"), ";") {
		addCSLAlias(r, a)
	}
	for _, a := range conv.SplitList(get("addresses"), ";") {
		addCSLAddress(r, a)
	}
	for _, c := range append(conv.SplitList(get("citizenships"), ";"), conv.SplitList(get("nationalities"), ";")...) {
		conv.AddCountry(&r.Citizenship, c)
	}
	for _, d := range conv.SplitList(get("dates_of_birth"), ";") {
		conv.AddDOB(r, d)
	}
	for _, p := range conv.SplitList(get("places_of_birth"), ";") {
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, p)
	}
	for _, s := range conv.SplitList(get("ids"), ";") {
		conv.ParseRemark(r, idStatement(s))
	}
	conv.ParseRemarks(r, get("remarks"))
	if r.EntityType == record.EntityIndividual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

// addCSLDetails files the sanction details of an entry: its programs,
// Federal Register notice, licence requirement and policy, end date and
// standard order.
func addCSLDetails(r *record.Record, get func(string) string) {
	for _, p := range conv.SplitList(get("programs"), ";") {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, p)
	}
	if v := get("federal_register_notice"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Federal Register notice "+v)
	}
	if v := get("license_requirement"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "License requirement: "+v)
	}
	if v := get("license_policy"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "License policy: "+v)
	}
	if v := get("end_date"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "End date "+v)
	}
	if v := get("standard_order"); v != "" {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Standard order "+v)
	}
}

// addCSLAddress files one address of r. The address of an entity also
// says where it is based; that of a person, or of a record that may be
// one, says nothing of citizenship.
func addCSLAddress(r *record.Record, a string) {
	r.Address = conv.AppendUnique(r.Address, a)
	if r.EntityType != record.EntityIndividual && r.EntityType != record.EntityUnknown {
		if _, last, ok := cutLast(a, ","); ok || len(a) == 2 {
			if !ok {
				last = a
			}
			if c, ok := isoCode(last); ok {
				r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, c)
			}
		}
	}
}

// addCSLAlias files one alt_names entry. The Entity List writes its
// aliases as prose ("A; B; and C", "-A", "f.k.a. B"); the list marks go,
// the names stay.
func addCSLAlias(r *record.Record, a string) {
	a = strings.TrimSpace(a)
	for {
		before := a
		for _, p := range []string{"and ", "a.k.a. ", "a.k.a., ", "f.k.a. ", "f.k.a., ", "n.k.a. ", "-", "–"} {
			if len(a) > len(p) && strings.EqualFold(a[:len(p)], p) {
				a = strings.TrimSpace(a[len(p):])
			}
		}
		if a == before {
			break
		}
	}
	switch {
	case a == "" || a == r.Name:
	case strings.HasPrefix(a, "(") && strings.HasSuffix(a, ")"):
		// "(all of preceding located in or near Mianyang)": a note.
		r.NameRemarks = conv.AppendUnique(r.NameRemarks, strings.TrimSpace(a[1:len(a)-1]))
	default:
		r.AliasNames = conv.AppendUnique(r.AliasNames, a)
	}
}

// idStatement turns one entry of the CSL's ids column, "[country, ]number,
// type", into the statement OFAC writes in remarks: "type number
// (country)". The type is what follows the last comma; a value may hold
// commas of its own ("Ukraine-/Russia-Related Sanctions Regulations, 31
// CFR 589.201, Secondary sanctions risk:").
func idStatement(s string) string {
	value, typ, ok := cutLast(s, ",")
	if !ok {
		return s
	}
	country := ""
	if c, rest, ok := strings.Cut(value, ","); ok && strings.TrimSpace(rest) != "" {
		if code, ok := isoCode(c); ok {
			country, value = code, strings.TrimSpace(rest)
		}
	}
	out := typ + " " + value
	if country != "" {
		out += " (" + country + ")"
	}
	return out
}

// isoCode reports whether s is an upper-case ISO 3166-1 alpha-2 code.
func isoCode(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) != 2 || strings.ToUpper(s) != s {
		return "", false
	}
	return conv.CountryCode(s)
}

// cutLast cuts s around the last sep, trimming both sides.
func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(sep):]), true
}
