package report

import "github.com/amlscreen/amlscreen/record"

// Section is a heading and the attributes of a record under it, labelled
// as a report prints them, so that a page showing a record (the
// workbench of amlscreen serve) reads like the report filed for it.
type Section struct {
	Title string
	Rows  []Row
}

// Row is one attribute: its snake_case key ("" for an attribute this
// version does not know, whose key is then the label), its label and its
// non-empty values.
type Row struct {
	Key    string
	Label  string
	Values []string
}

// Sections returns the non-empty attributes of r in the report's groups
// and order (identity, listing, birth and nationality, roles, relatives,
// registration and addresses, other information, with the attributes this
// version does not know at its end), naming sources by their catalogue entries in
// sources. Empty groups are left out.
func Sections(r *record.Record, sources []record.Source) []Section {
	src := make(map[string]record.Source, len(sources))
	for _, s := range sources {
		src[s.Source] = s
	}
	var out []Section
	for _, g := range groups {
		var rows []Row
		for _, a := range g.attrs {
			if v := a.get(r, src); len(v) > 0 {
				rows = append(rows, Row{Key: a.key, Label: a.label, Values: v})
			}
		}
		if g.title == "Other information" {
			for _, e := range extraAttrs(r) {
				if n := len(rows); n > 0 && rows[n-1].Key == "" && rows[n-1].Label == e[0] {
					rows[n-1].Values = append(rows[n-1].Values, e[1])
				} else {
					rows = append(rows, Row{Label: e[0], Values: []string{e[1]}})
				}
			}
		}
		if len(rows) > 0 {
			out = append(out, Section{Title: g.title, Rows: rows})
		}
	}
	return out
}
