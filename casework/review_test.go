package casework

import (
	"errors"
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/decision"
)

// TestTransitions tries every action on an alert in every status, as every
// kind of actor, and checks which are allowed, which are refused and why,
// and the status an allowed one leaves.
// state is where TestTransitions starts an alert.
type state string

const (
	sOpen       state = "open"
	sProposedBy state = "proposed by ana"
	sProposedRv state = "proposed by rev"
	sClosed     state = "closed"
)

func TestTransitions(t *testing.T) {
	actions := map[string]func(c *Casework, a Actor, id uint64) error{
		"propose": func(c *Casework, a Actor, id uint64) error {
			return c.Propose(a, []uint64{id}, FalsePositive, "born 1971")
		},
		"approve":       func(c *Casework, a Actor, id uint64) error { return c.Approve(a, []uint64{id}, "") },
		"send back":     func(c *Casework, a Actor, id uint64) error { return c.SendBack(a, []uint64{id}, "check the passport") },
		"comment":       func(c *Casework, a Actor, id uint64) error { return c.Comment(a, id, "looked at it") },
		"assign self":   func(c *Casework, a Actor, id uint64) error { return c.Assign(a, []uint64{id}, a.name) },
		"assign alf":    func(c *Casework, a Actor, id uint64) error { return c.Assign(a, []uint64{id}, "alf") },
		"assign to dis": func(c *Casework, a Actor, id uint64) error { return c.Assign(a, []uint64{id}, "dis") },
	}
	ok := func(status string) error { return errors.New("ok:" + status) }
	cases := []struct {
		action string
		from   state
		actor  Actor
		want   error // ErrForbidden, ErrState or ok(status after)
	}{
		{"propose", sOpen, User("ana"), ok(Proposed)},
		{"propose", sOpen, User("rev"), ok(Proposed)},
		{"propose", sOpen, User("adm"), ok(Proposed)},
		{"propose", sOpen, User("dis"), ErrForbidden},
		{"propose", sOpen, User("nobody"), ErrForbidden},
		{"propose", sOpen, Operator("cli"), ErrForbidden},
		{"propose", sProposedBy, User("alf"), ErrState},
		{"propose", sClosed, User("ana"), ErrState},

		{"approve", sProposedBy, User("rev"), ok(Closed)},
		{"approve", sProposedBy, User("adm"), ok(Closed)},
		{"approve", sProposedBy, User("ana"), ErrForbidden},
		{"approve", sProposedBy, User("alf"), ErrForbidden},
		{"approve", sProposedBy, User("dis"), ErrForbidden},
		{"approve", sProposedBy, Operator("cli"), ErrForbidden},
		{"approve", sProposedRv, User("rev"), ErrForbidden}, // own proposal
		{"approve", sProposedRv, User("rita"), ok(Closed)},
		{"approve", sOpen, User("rev"), ErrState},
		{"approve", sClosed, User("rev"), ErrState},

		{"send back", sProposedBy, User("rev"), ok(Open)},
		{"send back", sProposedBy, User("adm"), ok(Open)},
		{"send back", sProposedBy, User("alf"), ErrForbidden},
		{"send back", sProposedBy, Operator("cli"), ErrForbidden},
		{"send back", sProposedRv, User("rev"), ErrForbidden}, // own proposal
		{"send back", sOpen, User("rev"), ErrState},
		{"send back", sClosed, User("adm"), ErrState},

		{"comment", sOpen, User("ana"), ok(Open)},
		{"comment", sProposedBy, User("rev"), ok(Proposed)},
		{"comment", sClosed, User("adm"), ok(Closed)},
		{"comment", sOpen, User("dis"), ErrForbidden},
		{"comment", sOpen, Operator("cli"), ErrForbidden},

		{"assign self", sOpen, User("ana"), ok(Open)},
		{"assign self", sProposedBy, User("rev"), ok(Proposed)},
		{"assign self", sClosed, User("ana"), ErrState},
		{"assign self", sOpen, User("dis"), ErrForbidden},
		{"assign alf", sOpen, User("ana"), ErrForbidden},
		{"assign alf", sOpen, User("rev"), ok(Open)},
		{"assign alf", sOpen, User("adm"), ok(Open)},
		{"assign alf", sOpen, Operator("cli"), ErrForbidden},
		{"assign to dis", sOpen, User("rev"), ErrForbidden},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%s/%s", tc.action, tc.from, tc.actor), func(t *testing.T) {
			checkTransition(t, actions[tc.action], tc.from, tc.actor, tc.want)
		})
	}
}

// TestApprovalDecides follows a false positive and a true match through
// four eyes to the decisions they make.
func TestApprovalDecides(t *testing.T) {
	c, db := openTest(t)
	addUsers(t, c)
	fp, tm := testRecord(1, "SANCTION"), testRecord(2, "SANCTION")
	idFP, idTM := raiseOne(t, c, "C-1", fp), raiseOne(t, c, "C-1", tm)
	book := decision.New(db, decision.Options{})

	if err := c.Propose(User("ana"), []uint64{idFP}, FalsePositive, "born 1971, record born 1952"); err != nil {
		t.Fatal(err)
	}
	if err := c.Propose(User("ana"), []uint64{idTM}, TrueMatch, "same passport number"); err != nil {
		t.Fatal(err)
	}
	// A proposal decides nothing.
	set, _ := book.LoadSet(SiteOwner)
	if set.Len() != 0 {
		t.Fatalf("%d decisions before any approval", set.Len())
	}
	if err := c.Approve(User("rev"), []uint64{idFP, idTM}, "checked"); err != nil {
		t.Fatal(err)
	}
	set, _ = book.LoadSet(SiteOwner)
	if o := set.Judge("C-1", fp); !o.Suppressed || o.Decision.Status != decision.FalsePositive || o.Decision.Who != "ana" {
		t.Fatalf("approved false positive: %+v", o)
	}
	if o := set.Judge("C-1", tm); o.Suppressed || o.Decision == nil || o.Decision.Status != decision.TrueMatch {
		t.Fatalf("approved true match: %+v", o)
	}
	esc, _ := c.Alerts(Filter{Escalated: true})
	if len(esc) != 1 || esc[0].ID != idTM || esc[0].Closure.ApprovedBy != "rev" || esc[0].Closure.By != "ana" || !esc[0].Closure.FourEyes {
		t.Fatalf("escalated: %+v", esc)
	}
	// The audit log has the proposals, approvals and decisions.
	var actions []string
	c.Each(zeroTime, zeroTime, func(e Entry) error {
		if e.Alert != 0 {
			actions = append(actions, e.Action)
		}
		return nil
	})
	want := []string{ActionRaise, ActionRaise, ActionPropose, ActionPropose, ActionApprove, ActionDecision, ActionApprove, ActionDecision}
	if fmt.Sprint(actions) != fmt.Sprint(want) {
		t.Fatalf("audit actions %v, want %v", actions, want)
	}
}

// TestFourEyesOff checks that a source type exempted by an admin closes
// on the proposal, and only that one.
func TestFourEyesOff(t *testing.T) {
	c, db := openTest(t)
	addUsers(t, c)
	if err := c.SetFourEyesOff(User("rev"), []string{"PEP"}); !errors.Is(err, ErrForbidden) {
		t.Fatalf("a reviewer changed the setting: %v", err)
	}
	if err := c.SetFourEyesOff(User("adm"), []string{"pep", " PEP "}); err != nil {
		t.Fatal(err)
	}
	if off, _ := c.FourEyesOff(); fmt.Sprint(off) != "[PEP]" {
		t.Fatalf("four eyes off for %v", off)
	}
	pep, san := testRecord(1, "PEP"), testRecord(2, "SANCTION")
	idPEP, idSAN := raiseOne(t, c, "C-1", pep), raiseOne(t, c, "C-1", san)
	if err := c.Propose(User("ana"), []uint64{idPEP, idSAN}, FalsePositive, "other person"); err != nil {
		t.Fatal(err)
	}
	a, _ := c.Alert(idPEP)
	if a.Status != Closed || a.Closure.FourEyes || a.Closure.ApprovedBy != "ana" {
		t.Fatalf("PEP alert with four eyes off: %+v", a)
	}
	if a, _ := c.Alert(idSAN); a.Status != Proposed {
		t.Fatalf("SANCTION alert: %s, want proposed", a.Status)
	}
	set, _ := decision.New(db, decision.Options{}).LoadSet(SiteOwner)
	if !set.Judge("C-1", pep).Suppressed || set.Judge("C-1", san).Decision != nil {
		t.Fatal("four eyes off decided the wrong alerts")
	}
	if err := c.SetFourEyesOff(Operator("cli"), nil); err != nil {
		t.Fatal(err)
	}
	if off, _ := c.FourEyesOff(); len(off) != 0 {
		t.Fatalf("four eyes off for %v after clearing", off)
	}
}

// TestBulkIsAllOrNothing: one alert a bulk action cannot take refuses
// the whole selection.
func TestBulkIsAllOrNothing(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	a, b := raiseOne(t, c, "C-1", testRecord(1, "SANCTION")), raiseOne(t, c, "C-2", testRecord(2, "SANCTION"))
	if err := c.Propose(User("ana"), []uint64{b}, FalsePositive, "x"); err != nil {
		t.Fatal(err)
	}
	if err := c.Propose(User("alf"), []uint64{a, b}, TrueMatch, "y"); !errors.Is(err, ErrState) {
		t.Fatalf("bulk proposal over a proposed alert: %v", err)
	}
	if al, _ := c.Alert(a); al.Status != Open {
		t.Fatalf("alert %d is %s after a refused bulk action", a, al.Status)
	}
	if err := c.Assign(User("rev"), []uint64{a, b, 99}, "ana"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bulk assign with an unknown id: %v", err)
	}
	if al, _ := c.Alert(a); al.Assignee != "" {
		t.Fatal("assigned after a refused bulk action")
	}
	if err := c.Assign(User("rev"), nil, "ana"); !errors.Is(err, ErrNoAlerts) {
		t.Fatalf("empty selection: %v", err)
	}
}

// checkTransition raises an alert, brings it to from, lets actor try
// action on it and checks the outcome: ErrForbidden or ErrState with
// nothing changed and nothing logged, or an error "ok:"+status with the
// alert in status and the change logged.
func checkTransition(t *testing.T, action func(c *Casework, a Actor, id uint64) error, from state, actor Actor, want error) {
	t.Helper()
	c, _ := openTest(t)
	addUsers(t, c)
	id := raiseOne(t, c, "C-1", testRecord(1, "SANCTION"))
	switch from {
	case sProposedBy, sClosed:
		if err := c.Propose(User("ana"), []uint64{id}, FalsePositive, "born 1971"); err != nil {
			t.Fatal(err)
		}
	case sProposedRv:
		if err := c.Propose(User("rev"), []uint64{id}, TrueMatch, "same passport"); err != nil {
			t.Fatal(err)
		}
	}
	if from == sClosed {
		if err := c.Approve(User("rev"), []uint64{id}, ""); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := c.Alert(id)
	entries := mustVerify(t, c)
	err := action(c, actor, id)
	after, _ := c.Alert(id)
	if status, isOK := want.Error(), len(want.Error()) > 3 && want.Error()[:3] == "ok:"; isOK {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		if after.Status != status[3:] {
			t.Fatalf("status %s, want %s", after.Status, status[3:])
		}
		if n := mustVerify(t, c); n <= entries {
			t.Fatalf("audit log has %d entries, had %d: the change was not logged", n, entries)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
	if after.Status != before.Status || after.Assignee != before.Assignee || len(after.Comments) != len(before.Comments) || !after.Updated.Equal(before.Updated) {
		t.Fatalf("a refused action changed the alert: %+v → %+v", before, after)
	}
	if n := mustVerify(t, c); n != entries {
		t.Fatalf("a refused action logged: %d entries, had %d", n, entries)
	}
}
