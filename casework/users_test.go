package casework

import (
	"errors"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/store"
)

func TestUsers(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	us, err := c.Users()
	if err != nil || len(us) != 6 || us[0].Name != "adm" || us[0].Role != Admin {
		t.Fatalf("users: %+v, %v", us, err)
	}
	bad := []struct {
		name, user, role, password string
		want                       string
	}{
		{"empty name", "", Analyst, testPassword, "name"},
		{"space", "a b", Analyst, testPassword, "name"},
		{"leading dot", ".ana", Analyst, testPassword, "name"},
		{"long", strings.Repeat("a", 65), Analyst, testPassword, "name"},
		{"role", "bob", "auditor", testPassword, "role"},
		{"short password", "bob", Analyst, "short", "password"},
		{"long password", "bob", Analyst, strings.Repeat("p", MaxPasswordBytes+1), "password"},
	}
	for _, b := range bad {
		var fe *FieldError
		if err := c.AddUser(Operator("t"), b.user, b.role, b.password); !errors.As(err, &fe) || fe.Field != b.want {
			t.Errorf("%s: %v, want an error on %s", b.name, err, b.want)
		}
	}
	if err := c.AddUser(Operator("t"), "ana", Analyst, testPassword); !errors.Is(err, ErrExists) {
		t.Fatalf("ana added twice: %v", err)
	}
	for _, a := range []Actor{User("rev"), User("ana"), User("nobody")} {
		if err := c.AddUser(a, "bob", Analyst, testPassword); !errors.Is(err, ErrForbidden) {
			t.Fatalf("%s added a user: %v", a, err)
		}
	}
	if err := c.AddUser(User("adm"), "bob", Reviewer, testPassword); err != nil {
		t.Fatal(err)
	}

	if u, err := c.Authenticate("bob", testPassword); err != nil || u.Role != Reviewer {
		t.Fatalf("sign-in: %+v, %v", u, err)
	}
	for _, tc := range [][2]string{{"bob", testPassword + "x"}, {"bob", ""}, {"nobody", testPassword}, {"dis", testPassword}} {
		if _, err := c.Authenticate(tc[0], tc[1]); !errors.Is(err, ErrForbidden) {
			t.Fatalf("sign-in as %s with %q: %v", tc[0], tc[1], err)
		}
	}
	if err := c.ResetPassword(User("ana"), "dis", "a new password here"); !errors.Is(err, ErrForbidden) {
		t.Fatalf("an analyst reset a password: %v", err)
	}
	if err := c.ResetPassword(Operator("t"), "dis", "a new password here"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Authenticate("dis", "a new password here"); err != nil {
		t.Fatalf("sign-in after reset: %v", err)
	}
	if _, err := c.Authenticate("dis", testPassword); err == nil {
		t.Fatal("the old password still signs in")
	}
	if err := c.DisableUser(Operator("t"), "ghost"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("disable an unknown user: %v", err)
	}
	mustVerify(t, c)
}

// TestPasswordHash checks the stored form and the default parameters
// OWASP recommends, and that a malformed hash matches nothing.
func TestPasswordHash(t *testing.T) {
	h := hashPassword(testPassword, DefaultArgon2)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %s", h)
	}
	if !checkPassword(testPassword, h) || checkPassword(testPassword+" ", h) {
		t.Fatal("checkPassword")
	}
	if h2 := hashPassword(testPassword, DefaultArgon2); h2 == h {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=999999999,t=1,p=1$c2FsdA$a2V5",
		strings.Replace(h, "t=2", "t=0", 1), h[:len(h)-3] + "!!!"} {
		if checkPassword(testPassword, bad) {
			t.Fatalf("malformed hash %q matched", bad)
		}
	}
}

// TestUnknownNameCostsAsMuch: the hash a sign-in with an unknown name is
// checked against is made with the casework's own parameters, those of
// its users' hashes, not the package default, so that the time of the
// answer does not tell which names exist.
func TestUnknownNameCostsAsMuch(t *testing.T) {
	c, _ := openTest(t) // Options{Argon2: testArgon}, not DefaultArgon2
	addUsers(t, c)
	params := func(h string) string { return strings.Split(h, "$")[3] }
	var user string
	err := c.db.Read(func(tx *store.Tx) error {
		su, err := storedUserIn(tx, "ana")
		if err == nil {
			user = su.Hash
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := params(c.dummyHash()), params(user); got != want {
		t.Errorf("unknown names are checked at %s, users at %s", got, want)
	}
	if params(c.dummyHash()) == params(hashPassword("x", DefaultArgon2)) && testArgon != DefaultArgon2 {
		t.Errorf("the unknown-name hash uses the package default")
	}
}
