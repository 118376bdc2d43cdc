package server

import (
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
)

// TestCheckParamsOneRule: the API reads citizenship and fuzzy_search
// with the engine's parsers: UK finds what GB finds, and a value no record
// can carry is a 400 naming it, never a silent empty answer. gender is
// the contract's male or female in any case; the short forms the command
// line takes are 400 here (TestGenderContract).
func TestCheckParamsOneRule(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ path, want string }{
		{"/v1/checkIndividual?names=merkel&citizenship=DE", "AML004"},
		{"/v1/checkIndividual?names=merkel&citizenship=de", "AML004"},
		{"/v1/checkIndividual?names=merkel&gender=female", "AML004"},
		{"/v1/checkIndividual?names=merkel&gender=FEMALE", "AML004"},
		{"/v1/checkIndividual?names=merkle&fuzzy_search=1", "AML004"}, // a swap is one edit
	} {
		if got := f.check(keyBasic, c.path).ids(); strings.Join(got, ",") != c.want {
			t.Errorf("%s: %v, want %s", c.path, got, c.want)
		}
	}
	if got := f.check(keyBasic, "/v1/checkIndividual?names=merkel&gender=Male").ids(); len(got) != 0 {
		t.Errorf("gender=Male: %v, want no hit", got)
	}
	for _, c := range []struct{ path, want string }{
		{"/v1/checkIndividual?names=merkel&citizenship=XX", `citizenship: "XX" is not an ISO 3166-1 alpha-2 country code`},
		{"/v1/checkIndividual?names=merkel&gender=unknown", `gender: "unknown" is not male or female; leave it out for no gender filter`},
		{"/v1/checkIndividual?names=merkel&fuzzy_search=3", `fuzzy_search: "3" is not 0, 1 or 2`},
		{"/v1/checkName?names=" + strings.Repeat("ivan+", 33), "names: 33 words, more than the 32 allowed"},
		{"/v1/checkName?search_all=" + strings.Repeat("a", 600), "search_all: 600 characters, more than the 512 allowed"},
		{"/v1/checkName?names=x&dob=" + strings.Repeat("1", 500), `"` + strings.Repeat("1", 40) + `"…`},
		{"/v1/checkName?names=x&dob=" + strings.Repeat("1", 5000), "dob: 5000 characters, more than the 1024 allowed"},
	} {
		msg := f.get(keyBasic, c.path).errorMessage(t, 400)
		if !strings.Contains(msg, c.want) || len(msg) > 200 {
			t.Errorf("%.60s: %q, want it to say %q", c.path, msg, c.want)
		}
	}
}

// TestCheckBusyIs503: a heavy check that finds no admission slot in time
// is refused with 503 and Retry-After, not answered in part.
func TestCheckBusyIs503(t *testing.T) {
	g := engine.NewAdmitter(engine.Admission{Slots: 1, MaxWords: 2, MaxWait: 20 * time.Millisecond})
	f := newFixture(t, underAdmission(g))
	// A query of two words is heavy now; take the only slot first.
	release, err := g.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	a := f.get(keyBasic, "/v1/checkName?names=vladimir+putin")
	msg := a.errorMessage(t, 503)
	if a.Header.Get("Retry-After") != "1" || !strings.Contains(msg, "try again") {
		t.Errorf("503 %q, Retry-After %q", msg, a.Header.Get("Retry-After"))
	}
	release()
	if got := f.check(keyBasic, "/v1/checkName?names=vladimir+putin").ids(); len(got) == 0 {
		t.Error("with the slot free the check finds nothing")
	}
}

// TestGenderContract: every /v1 endpoint that takes gender accepts male
// and female in any case (and none), and answers 400 naming the value for
// anything else, m and f included: a client that relies on them fails
// against the hosted service.
func TestGenderContract(t *testing.T) {
	f := openAPIFixture(t)
	paths := []string{
		"/v1/checkIndividual?names=merkel", "/v1/checkName?names=merkel",
		"/v1/generateIndividualReport?names=merkel", "/v1/registerIndividual?profile_id=g1&names=merkel",
	}
	for _, p := range paths {
		for _, g := range []string{"", "&gender=", "&gender=male", "&gender=female", "&gender=FEMALE", "&gender=Male"} {
			if a := f.get(keyBasic, p+g); a.StatusCode != 200 {
				t.Errorf("%s%s: %d %s", p, g, a.StatusCode, a.body)
			}
		}
		for _, g := range []string{"m", "f", "M", "F", "x", "unknown", "males", "femme"} {
			msg := f.get(keyBasic, p+"&gender="+g).errorMessage(t, 400)
			if want := `gender: "` + g + `" is not male or female`; !strings.Contains(msg, want) {
				t.Errorf("%s&gender=%s: %q, want it to say %q", p, g, msg, want)
			}
		}
	}
}
