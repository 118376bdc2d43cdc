package engine

import (
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/normalize"
)

// Reason says in words why a match holds: the word pairs and their edits,
// as an analyst reviewing a hit wants to read them, e.g.
// "exact: vladimir, putin" or "1 edit: putinn→putin (1 edit), vladimir".
// The check table and the batch hits file share it, so that one hit reads
// the same wherever it is shown.
func Reason(m Match) string {
	parts := make([]string, 0, len(m.Pairs))
	for _, p := range m.Pairs {
		qt, tok := ShowToken(p.Query), ShowToken(p.Token)
		switch {
		case p.Edits == 0 && p.Query == p.Token:
			parts = append(parts, qt)
		case p.Edits == 0:
			parts = append(parts, qt+"="+tok)
		default:
			parts = append(parts, qt+"→"+tok+" ("+pluralEdits(p.Edits)+")")
		}
	}
	why := strings.Join(parts, ", ")
	switch {
	case m.Exact():
		why = "exact: " + why
	case m.Edits() > 0:
		why = pluralEdits(m.Edits()) + ": " + why
	}
	return why
}

// ShowToken writes a token for people: a canonical legal-form token, which
// is an internal spelling ("~llc"), as its class name ("LLC").
func ShowToken(t string) string {
	if normalize.IsLegalForm(t) {
		return strings.ToUpper(strings.TrimPrefix(t, normalize.LegalMark))
	}
	return t
}

func pluralEdits(n int) string {
	if n == 1 {
		return "1 edit"
	}
	return strconv.Itoa(n) + " edits"
}
