package casework

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestMonthSummary(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	var ids []uint64
	for i := 1; i <= 4; i++ {
		ids = append(ids, raiseOne(t, c, "C-1", testRecord(i, "SANCTION")))
	}
	if err := c.Propose(User("ana"), ids[:3], FalsePositive, "born 1971, passport checked"); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rev"), ids[:2], ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rita"), ids[2:3], ""); err != nil {
		t.Fatal(err)
	}
	m, err := c.Month(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if m.Month != "2026-11" || m.Opened != 4 || m.Closed != 3 || m.OpenAtEnd != 1 {
		t.Fatalf("summary %+v", m)
	}
	if m.ByOutcome[FalsePositive] != 3 || m.ByReviewer["rev"] != 2 || m.ByReviewer["rita"] != 1 {
		t.Fatalf("by outcome %v, by reviewer %v", m.ByOutcome, m.ByReviewer)
	}
	if m.MedianHoursToClose <= 0 || m.MedianHoursToClose > 1 {
		t.Fatalf("median %v hours: the test clock moves a second a reading", m.MedianHoursToClose)
	}
	prev, err := c.Month(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if prev.Opened != 0 || prev.Closed != 0 || prev.OpenAtEnd != 0 {
		t.Fatalf("October: %+v", prev)
	}
	if _, err := ParseMonth("2026-13"); err == nil {
		t.Fatal("month 13 accepted")
	}
}

func TestFilterScoreRangeAndUnassigned(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	for i, sc := range []float64{0.5, 0.8, 0.95} {
		h := hitOn("C-1", testRecord(i+1, "SANCTION"))
		h.Hit.Score = &sc
		if _, err := c.Raise("batch", []NewAlert{h}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Assign(User("ana"), []uint64{3}, "ana"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    Filter
		want int
	}{
		{Filter{MinScore: 0.6, MaxScore: 0.9}, 1},
		{Filter{MaxScore: 0.9}, 2},
		{Filter{Unassigned: true}, 2},
		{Filter{Unassigned: true, MinScore: 0.9}, 0},
	} {
		s, err := c.Summaries(tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != tc.want {
			t.Errorf("%+v: %d alerts, want %d", tc.f, len(s), tc.want)
		}
	}
	if err := (Filter{Unassigned: true, Assignee: "ana"}).Validate(); err == nil {
		t.Error("unassigned with an assignee accepted")
	}
}

func TestScreeningLogBatches(t *testing.T) {
	c, _ := openTest(t)
	var mu sync.Mutex
	var errs []error
	l := c.NewScreeningLog(8, func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() })
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				l.Add(Screening{Actor: "key:acme", Query: "individual names=ivan petrov", Version: "v1", IDs: []string{"R1", "R2"}})
			}
		}()
	}
	wg.Wait()
	l.Flush()
	if n := mustVerify(t, c); n != 100 {
		t.Fatalf("%d entries after Flush, want 100", n)
	}
	l.Add(Screening{Actor: "", Query: "refused"})
	l.Close()
	l.Add(Screening{Actor: "late", Query: "after close"}) // ignored, no panic
	if n := mustVerify(t, c); n != 100 {
		t.Fatalf("%d entries, want 100: a bad screening was written", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) != 1 {
		t.Fatalf("errors %v, want the one bad screening's", errs)
	}
}

func TestHistory(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	id := raiseOne(t, c, "C-1", testRecord(1, "SANCTION"))
	other := raiseOne(t, c, "C-1", testRecord(11, "SANCTION"))
	if err := c.Comment(User("ana"), id, `a comment that names "alert":2, in its text`); err != nil {
		t.Fatal(err)
	}
	if err := c.Propose(User("ana"), []uint64{id, other}, FalsePositive, "born 1971"); err != nil {
		t.Fatal(err)
	}
	h, err := c.History(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range h {
		if e.Alert != id {
			t.Fatalf("entry of alert %d in the history of %d", e.Alert, id)
		}
		actions = append(actions, e.Action)
	}
	if want := []string{ActionPropose, ActionComment, ActionRaise}; !slices.Equal(actions, want) {
		t.Fatalf("history %v, want %v", actions, want)
	}
	if h, _ := c.History(other, 1); len(h) != 1 || h[0].Action != ActionPropose {
		t.Fatalf("history of %d bounded to 1: %+v", other, h)
	}
}

func TestScreened(t *testing.T) {
	c, _ := openTest(t)
	r := testRecord(1, "SANCTION")
	h := hitOn("q:individual:names=person number", r)
	h.Origin = OriginScreening
	s := Screening{Actor: "maria", Query: "workbench individual names=\"person number\"", Version: "v1", IDs: []string{r.ID}}
	res, err := c.Screened(s, []NewAlert{h})
	if err != nil || res.Raised != 1 {
		t.Fatalf("screened: %+v, %v", res, err)
	}
	if res, err = c.Screened(s, []NewAlert{h}); err != nil || res.Unchanged != 1 {
		t.Fatalf("screened again: %+v, %v", res, err)
	}
	var actions []string
	c.Each(time.Time{}, time.Time{}, func(e Entry) error { actions = append(actions, e.Action); return nil })
	if want := []string{ActionScreening, ActionRaise, ActionScreening}; !slices.Equal(actions, want) {
		t.Fatalf("log %v, want %v", actions, want)
	}
	if _, err := c.Screened(Screening{Query: "no actor"}, nil); err == nil {
		t.Fatal("a screening without an actor was logged")
	}
	mustVerify(t, c)
}
