package conv

import (
	"slices"
	"strings"

	"github.com/amlscreen/amlscreen/record"
)

// companyLabels are the OFAC remark labels that carry a registration number
// of an entity; for records that are not individuals the number also goes
// to company_number. Longer labels come first so that "UK Company Number"
// is not read as "Company Number".
var companyLabels = []string{
	"United Social Credit Code Certificate (USCCC)",
	"Unified Social Credit Code (USCC)",
	"Business Registration Document #",
	"Certificate of Incorporation Number",
	"Business Registration Number",
	"Commercial Registry Number",
	"Chamber of Commerce Number",
	"Public Registration Number",
	"Government Gazette Number",
	"Registered Charity No.",
	"Matricula Mercantil No",
	"Legal Entity Number",
	"Folio Mercantil No.",
	"Registration Number",
	"UK Company Number",
	"Registration ID",
	"Trade License No.",
	"Company Number",
	"C.R. No.",
}

// sanctionLabels start remarks that say how the record is sanctioned rather
// than who it is; they go to sanction_details with the programs.
var sanctionLabels = []string{
	"Additional Sanctions Information",
	"Secondary sanctions risk",
	"Transactions Prohibited For Persons Owned or Controlled By",
	"Executive Order",
	"CAATSA Section",
	"IFCA Determination",
	"Effective Date",
	"Listing Date",
	"Target Type",
	"For more information on directives",
}

// ParseRemarks adds what an OFAC remarks field says to r. The field is a
// list of "; "-separated statements. Those with a known meaning are filed:
//
//   - "DOB 12 Mar 1960", "DOB Mar 1960", "DOB 1960", "DOB circa 1960",
//     "DOB 1960 to 1962" (and their "alt." forms) → date_of_birth as
//     dd/mm/yyyy with 00 for unknown parts; ranges give one date per year;
//     approximate dates and ranges also keep their wording in
//     date_of_birth_remarks, and dates that cannot be read go there alone;
//   - "POB Baghdad, Iraq" → place_of_birth;
//   - "nationality Iran", "citizen Iran" → citizenship as an ISO alpha-2 code,
//     or the name as given when the table does not know it; hedged values
//     ("possibly Palestinian") go to citizenship_remarks, so that they do not
//     exclude the record from a citizenship filter;
//   - "Gender Male|Female" → gender;
//   - "a.k.a. 'NAME'" (OFAC's weak aliases) → name_remarks, without quotes:
//     searchable, but not a name string, because OFAC itself says weak
//     aliases are too broad to screen on;
//   - "Website X" → links and other_information; "Email Address X" → links;
//   - registration numbers of entities, vessels and aircraft → company_number
//     and other_information;
//   - sanction programme statements ("Additional Sanctions Information - …",
//     "Secondary sanctions risk: …", "Executive Order … Directive …") →
//     sanction_details.
//
// Everything else (passports, national ids, IMO numbers, aircraft details,
// "Linked To: …", positions) goes to other_information as written. r's
// entity type must be set before the call.
func ParseRemarks(r *record.Record, remarks string) {
	for _, part := range splitRemarks(remarks) {
		ParseRemark(r, part)
	}
}

// splitRemarks cuts a remarks field into statements, dropping the full stop
// OFAC ends the field with (but not the dot of an abbreviation such as
// "S.A.").
func splitRemarks(s string) []string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ".") && !(len(s) >= 3 && s[len(s)-3] == '.') {
		s = s[:len(s)-1]
	}
	var out []string
	for p := range strings.SplitSeq(s, ";") {
		if p = strings.TrimSpace(p); p != "" && p != "-0-" {
			out = append(out, p)
		}
	}
	return out
}

// cutLabel reports whether s starts with label followed by a space, a colon
// or nothing, case-insensitively, and returns the rest.
func cutLabel(s, label string) (string, bool) {
	if len(s) < len(label) || !strings.EqualFold(s[:len(label)], label) {
		return "", false
	}
	rest := s[len(label):]
	if rest == "" {
		return "", true
	}
	if rest[0] != ' ' && rest[0] != ':' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(rest, ":")), true
}

// ParseRemark adds what one part of a remarks field says (a date of
// birth, a citizenship, an alias, ...) to r, or keeps it as a remark.
func ParseRemark(r *record.Record, part string) {
	body := part
	if rest, ok := cutLabel(body, "alt."); ok {
		body = rest
	}
	if rest, ok := cutLabel(body, "DOB"); ok {
		AddDOB(r, rest)
		return
	}
	if rest, ok := cutLabel(body, "POB"); ok && rest != "" {
		r.PlaceOfBirth = AppendUnique(r.PlaceOfBirth, rest)
		return
	}
	for _, l := range []string{"nationality", "citizen"} {
		// "Nationality of Registration" is a vessel's or aircraft's flag.
		if rest, ok := cutLabel(body, l); ok && rest != "" && !strings.HasPrefix(rest, "of ") {
			AddCitizenship(r, rest)
			return
		}
	}
	if rest, ok := cutLabel(body, "Gender"); ok {
		switch strings.ToLower(rest) {
		case "male":
			r.Gender = record.GenderMale
			return
		case "female":
			r.Gender = record.GenderFemale
			return
		}
	}
	for _, l := range []string{"a.k.a.", "f.k.a.", "n.k.a."} {
		if rest, ok := cutLabel(body, l); ok && rest != "" {
			r.NameRemarks = AppendUnique(r.NameRemarks, strings.Trim(rest, "'\" "))
			return
		}
	}
	if rest, ok := cutLabel(body, "Website"); ok && rest != "" {
		r.Links = AppendUnique(r.Links, rest)
		r.OtherInformation = append(r.OtherInformation, part)
		return
	}
	for _, l := range []string{"Email Address", "Email"} {
		if rest, ok := cutLabel(body, l); ok && rest != "" {
			r.Links = AppendUnique(r.Links, rest)
			return
		}
	}
	for _, l := range sanctionLabels {
		if _, ok := cutLabel(body, l); ok {
			r.SanctionDetails = AppendUnique(r.SanctionDetails, body)
			return
		}
	}
	if r.EntityType != record.EntityIndividual {
		for _, l := range companyLabels {
			if rest, ok := cutLabel(body, l); ok && rest != "" {
				r.CompanyNumber = AppendUnique(r.CompanyNumber, registrationNumber(rest))
				r.OtherInformation = append(r.OtherInformation, part)
				return
			}
		}
	}
	r.OtherInformation = append(r.OtherInformation, part)
}

// AddDOB adds the dates of birth s gives to r, and s as a remark when it
// says more than the dates.
func AddDOB(r *record.Record, s string) {
	if s == "" {
		return
	}
	dates, remark := ParseDOB(s)
	for _, d := range dates {
		r.DateOfBirth = AppendUnique(r.DateOfBirth, d)
	}
	if remark != "" {
		r.DateOfBirthRemarks = AppendUnique(r.DateOfBirthRemarks, remark)
	}
}

// hedges are words with which a list qualifies a nationality it is not sure
// of.
var hedges = []string{"possibly", "probably", "reportedly", "allegedly", "believed"}

// AddCitizenship adds the citizenship s names to r; a hedged one (such
// as "possibly") becomes a citizenship remark instead.
func AddCitizenship(r *record.Record, s string) {
	for _, h := range hedges {
		if _, ok := cutLabel(s, h); ok {
			r.CitizenshipRemarks = AppendUnique(r.CitizenshipRemarks, s)
			return
		}
	}
	AddCountry(&r.Citizenship, s)
}

// AddCountry appends the code of country to *dst, or the name as given when
// it has no code; "no country" values are skipped.
func AddCountry(dst *[]string, country string) {
	country = strings.TrimSpace(country)
	if IsNullCountry(country) {
		return
	}
	if c, ok := CountryCode(country); ok {
		*dst = AppendUnique(*dst, c)
		return
	}
	*dst = AppendUnique(*dst, country)
}

// registrationNumber keeps the number of "12345 (Mexico) issued 14 Dec
// 2005": what precedes the country in brackets or the issue and expiry
// dates.
func registrationNumber(s string) string {
	for _, sep := range []string{" (", " issued ", " expires "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// AppendUnique appends s to list unless it is empty or already there; lists
// repeat themselves (the same POB in "POB" and "alt. POB").
func AppendUnique(list []string, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
