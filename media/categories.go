package media

import (
	"fmt"
	"strings"
)

// The categories of docs/API.md "Media". More may be added: an article may carry
// any category name, and checks report every category the corpus knows.
const (
	Political      = "political"
	Regulatory     = "regulatory"
	Terrorism      = "terrorism"
	FinancialCrime = "financial_crime"
	OrganizedCrime = "organized_crime"
	ViolentCrime   = "violent_crime"
)

// StandardCategories are the categories every check reports, in the order
// responses list them.
var StandardCategories = []string{Political, Regulatory, Terrorism, FinancialCrime, OrganizedCrime, ViolentCrime}

// maxCategories bounds the distinct categories of a corpus: an article's
// categories are a 64-bit set.
const maxCategories = 64

// NormalizeCategory returns the canonical spelling of a category name:
// lower case, spaces and hyphens as underscores ("Financial Crime" and
// "financial-crime" are financial_crime). A name must then be ASCII letters,
// digits and underscores, starting with a letter.
func NormalizeCategory(s string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, n)
	if n == "" || len(n) > 64 || !(n[0] >= 'a' && n[0] <= 'z') {
		return "", fmt.Errorf("%q is not a category name", s)
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return "", fmt.Errorf("%q is not a category name", s)
		}
	}
	return n, nil
}
