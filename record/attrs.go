package record

import "strings"

type attrKind uint8

const (
	kindString attrKind = iota
	kindList
	kindInt32    // pep_level
	kindListDate // list_date: a long, a string in responses
)

// attribute describes one record attribute: its keys in both casings and how
// to reach its value. The table drives reading, writing and iteration so that
// a new attribute is added in one place.
type attribute struct {
	snake string
	camel string
	kind  attrKind
	str   func(*Record) *string
	list  func(*Record) *[]string
	// name marks attributes that hold names of the record itself (name
	// strings are built from them); text marks every attribute whose words
	// search_all looks at.
	name bool
	text bool
	// index is the attribute's position in attributes.
	index int
}

// attributes is in the order of docs/API.md "Records", which is also the order in
// which they are written.
var attributes = []attribute{
	{snake: "id", kind: kindString, str: func(r *Record) *string { return &r.ID }, text: true},
	{snake: "source_id", kind: kindString, str: func(r *Record) *string { return &r.SourceID }},
	{snake: "source_type", kind: kindString, str: func(r *Record) *string { return &r.SourceType }},
	{snake: "pep_type", kind: kindString, str: func(r *Record) *string { return &r.PEPType }},
	{snake: "pep_level", kind: kindInt32},
	{snake: "entity_type", kind: kindString, str: func(r *Record) *string { return &r.EntityType }},
	{snake: "list_date", kind: kindListDate},
	{snake: "gender", kind: kindString, str: func(r *Record) *string { return &r.Gender }},
	{snake: "name", kind: kindString, str: func(r *Record) *string { return &r.Name }, name: true, text: true},
	{snake: "tl_name", kind: kindString, str: func(r *Record) *string { return &r.TLName }, name: true, text: true},
	{snake: "last_names", kind: kindList, list: func(r *Record) *[]string { return &r.LastNames }, name: true, text: true},
	{snake: "given_names", kind: kindList, list: func(r *Record) *[]string { return &r.GivenNames }, name: true, text: true},
	{snake: "alias_given_names", kind: kindList, list: func(r *Record) *[]string { return &r.AliasGivenNames }, name: true, text: true},
	{snake: "alias_names", kind: kindList, list: func(r *Record) *[]string { return &r.AliasNames }, name: true, text: true},
	{snake: "name_remarks", kind: kindList, list: func(r *Record) *[]string { return &r.NameRemarks }, text: true},
	{snake: "spouse", kind: kindList, list: func(r *Record) *[]string { return &r.Spouse }, text: true},
	{snake: "parents", kind: kindList, list: func(r *Record) *[]string { return &r.Parents }, text: true},
	{snake: "children", kind: kindList, list: func(r *Record) *[]string { return &r.Children }, text: true},
	{snake: "siblings", kind: kindList, list: func(r *Record) *[]string { return &r.Siblings }, text: true},
	{snake: "date_of_birth", kind: kindList, list: func(r *Record) *[]string { return &r.DateOfBirth }, text: true},
	{snake: "date_of_birth_remarks", kind: kindList, list: func(r *Record) *[]string { return &r.DateOfBirthRemarks }, text: true},
	{snake: "place_of_birth", kind: kindList, list: func(r *Record) *[]string { return &r.PlaceOfBirth }, text: true},
	{snake: "place_of_birth_remarks", kind: kindList, list: func(r *Record) *[]string { return &r.PlaceOfBirthRemarks }, text: true},
	{snake: "address", kind: kindList, list: func(r *Record) *[]string { return &r.Address }, text: true},
	{snake: "address_remarks", kind: kindList, list: func(r *Record) *[]string { return &r.AddressRemarks }, text: true},
	{snake: "citizenship", kind: kindList, list: func(r *Record) *[]string { return &r.Citizenship }, text: true},
	{snake: "citizenship_remarks", kind: kindList, list: func(r *Record) *[]string { return &r.CitizenshipRemarks }, text: true},
	{snake: "jurisdiction", kind: kindList, list: func(r *Record) *[]string { return &r.Jurisdiction }, text: true},
	{snake: "company_number", kind: kindList, list: func(r *Record) *[]string { return &r.CompanyNumber }, text: true},
	{snake: "sanction_details", kind: kindList, list: func(r *Record) *[]string { return &r.SanctionDetails }, text: true},
	{snake: "description", kind: kindList, list: func(r *Record) *[]string { return &r.Description }, text: true},
	{snake: "occupations", kind: kindList, list: func(r *Record) *[]string { return &r.Occupations }, text: true},
	{snake: "positions", kind: kindList, list: func(r *Record) *[]string { return &r.Positions }, text: true},
	{snake: "functions", kind: kindList, list: func(r *Record) *[]string { return &r.Functions }, text: true},
	{snake: "titles", kind: kindList, list: func(r *Record) *[]string { return &r.Titles }, text: true},
	{snake: "political_parties", kind: kindList, list: func(r *Record) *[]string { return &r.PoliticalParties }, text: true},
	{snake: "links", kind: kindList, list: func(r *Record) *[]string { return &r.Links }, text: true},
	{snake: "other_information", kind: kindList, list: func(r *Record) *[]string { return &r.OtherInformation }, text: true},
	{snake: "source_country", kind: kindString, str: func(r *Record) *string { return &r.SourceCountry }},
}

// attrByKey maps a folded key (lower case, underscores removed) to its
// attribute, so that "source_id", "sourceId" and "SourceID" all resolve.
var attrByKey = map[string]*attribute{}

func init() {
	if len(attributes) > 64 {
		panic("record: more attributes than Record.UnmarshalJSON's bit set holds")
	}
	for i := range attributes {
		a := &attributes[i]
		a.camel = snakeToCamel(a.snake)
		a.index = i
		attrByKey[foldKey(a.snake)] = a
	}
}

func snakeToCamel(s string) string {
	var b strings.Builder
	up := false
	for _, c := range s {
		if c == '_' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b.WriteRune(c)
	}
	return b.String()
}

func foldKey(k string) string {
	return strings.ToLower(strings.ReplaceAll(k, "_", ""))
}

// Field is one non-empty text attribute of a record, as yielded by
// TextFields.
type Field struct {
	Key    string   // snake_case attribute name, e.g. "place_of_birth"
	Name   bool     // the attribute holds the record's own names
	Values []string // never empty
}

// TextFields calls fn for every non-empty text attribute of r, in the
// order of docs/API.md "Records": the words search_all looks at. Extra attributes
// are not included.
func (r *Record) TextFields(fn func(Field)) {
	for i := range attributes {
		a := &attributes[i]
		if !a.text {
			continue
		}
		switch a.kind {
		case kindString:
			if s := *a.str(r); s != "" {
				fn(Field{Key: a.snake, Name: a.name, Values: []string{s}})
			}
		case kindList:
			if l := *a.list(r); len(l) > 0 {
				fn(Field{Key: a.snake, Name: a.name, Values: l})
			}
		}
	}
}

// Attributes lists the snake_case names of every known attribute in the
// order of docs/API.md "Records".
func Attributes() []string {
	out := make([]string, len(attributes))
	for i, a := range attributes {
		out[i] = a.snake
	}
	return out
}
