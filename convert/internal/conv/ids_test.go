package conv

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

func TestValidID(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"OFAC-123", true},
		{"EU.27.28", true},
		{"my_bank:CIF-9", true},
		{"", false},
		{"A B", false},
		{"A/B", false},
		{"Ä1", false},
		{strings.Repeat("x", MaxIDLen), true},
		{strings.Repeat("x", MaxIDLen+1), false},
	} {
		if got := ValidID(c.id); got != c.want {
			t.Errorf("ValidID(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}

func TestMakeID(t *testing.T) {
	if got := MakeID("OS-", "Q42"); got != "OS-Q42" {
		t.Errorf("valid id changed: %q", got)
	}
	a, b := MakeID("X-", "a/b"), MakeID("X-", "a b")
	if !ValidID(a) || !ValidID(b) || a == b || !strings.HasPrefix(a, "X-a_b-") {
		t.Errorf("ids of a/b and a b: %q, %q: want valid, distinct, readable", a, b)
	}
	if a != MakeID("X-", "a/b") {
		t.Error("makeID is not stable")
	}
	long := MakeID("X-", strings.Repeat("é", 200))
	if !ValidID(long) {
		t.Errorf("long id %q is not valid", long)
	}
}

func TestLimitReader(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int64
		fail  bool
	}{
		{"abcd", 4, false},
		{"abcde", 4, true},
		{"", 0, false},
		{"a", 0, true},
	} {
		_, err := io.ReadAll(LimitReader(strings.NewReader(c.in), c.limit, "list"))
		if fail := errors.Is(err, ErrInputTooLarge); fail != c.fail || (!c.fail && err != nil) {
			t.Errorf("%q with limit %d: error %v, want too large = %v", c.in, c.limit, err, c.fail)
		}
	}
}

// TestEntityType: the list types the converters read become the record's
// types, an unknown one is kept upper-cased, an empty one takes the list's
// default.
func TestEntityType(t *testing.T) {
	for _, tc := range []struct{ in, empty, want string }{
		{"individual", record.EntityUnknown, record.EntityIndividual},
		{"entity", record.EntityUnknown, record.EntityEntity},
		{"vessel", record.EntityEntity, record.EntityVessel},
		{"aircraft", record.EntityEntity, record.EntityAircraft},
		{"", record.EntityUnknown, record.EntityUnknown},
		{"", record.EntityEntity, record.EntityEntity},
		{"organization", record.EntityEntity, "ORGANIZATION"},
	} {
		if got := EntityType(tc.in, tc.empty); got != tc.want {
			t.Errorf("EntityType(%q, %q) = %q, want %q", tc.in, tc.empty, got, tc.want)
		}
	}
}
