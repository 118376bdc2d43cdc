package casework

import (
	"errors"
	"testing"
)

// TestSignInExternal: a person of the identity provider is added with
// the role of her claims, her role follows them at later sign-ins, a
// disabled user is refused, each change is in the audit log and a
// sign-in that changes nothing writes nothing.
func TestSignInExternal(t *testing.T) {
	c, _ := openTest(t)
	steps := []struct {
		role    string
		entries int // audit entries after the step
	}{
		{Analyst, 1}, {Analyst, 1}, {Reviewer, 2},
	}
	for i, s := range steps {
		u, err := c.SignInExternal("olga@bank.example", s.role, "https://idp.example")
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if u.Role != s.role {
			t.Errorf("step %d: role %s, want %s", i, u.Role, s.role)
		}
		if n := mustVerify(t, c); n != s.entries {
			t.Errorf("step %d: %d audit entries, want %d", i, n, s.entries)
		}
	}
	if _, err := c.Authenticate("olga@bank.example", ""); !errors.Is(err, ErrForbidden) {
		t.Errorf("a provider's user signs in with an empty password: %v", err)
	}
	if err := c.DisableUser(Operator("t"), "olga@bank.example"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SignInExternal("olga@bank.example", Reviewer, "https://idp.example"); !errors.Is(err, ErrForbidden) {
		t.Errorf("a disabled user signed in: %v", err)
	}
	if _, err := c.SignInExternal("olga bank", Reviewer, "https://idp.example"); err == nil {
		t.Error("a name with a space was taken")
	}
}
