package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// A profile may hold a gender in any form the engine reads; the link that
// screens it through /v1 must carry the contract's word, which is all /v1
// accepts.
func TestScreenProfileURLWritesTheContractGender(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stored, want string }{
		{"m", "male"}, {"F", "female"}, {"MALE", "male"}, {"female", "female"}, {"", ""},
	} {
		link := screenProfileURL("individual", "Olga Ivanova", "", tc.stored, 0, "c-1", query.Strict, 0)
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Query().Get("gender"); got != tc.want {
			t.Errorf("stored %q: link gender %q, want %q (%s)", tc.stored, got, tc.want, link)
		}
		if !strings.HasPrefix(link, Prefix+"screen?") {
			t.Errorf("link %q does not open the screening page", link)
		}
	}
}
