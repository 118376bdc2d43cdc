package book

import (
	"testing"
	"time"
)

// TestOnboardScreensNewAndChangedCustomers: a book's first import screens
// every customer against the whole database; a re-import screens only the
// customers it adds or changes; each hit is an alert of origin batch with
// the customer as subject, as batch finds it.
func TestOnboardScreensNewAndChangedCustomers(t *testing.T) {
	w := newWorld(t)
	cfg := Config{Match: "strict", Fuzzy: 1}
	customers := readBook(t, w.book, cfg)
	on, err := Onboard(w.db, customers, cfg, w.full, w.version)
	if err != nil {
		t.Fatal(err)
	}
	if on.Screened != len(customers) {
		t.Fatalf("first import screened %d customers of %d", on.Screened, len(customers))
	}
	sc, err := cfg.Screener(w.full)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range customers {
		res, err := sc.Screen(customers[i].Row())
		if err != nil {
			t.Fatal(err)
		}
		want += len(res.Hits)
	}
	if want < 100 || len(on.Alerts) != want {
		t.Fatalf("%d alerts, batch finds %d hits", len(on.Alerts), want)
	}
	for _, a := range on.Alerts[:5] {
		if a.Origin != "batch" || a.Subject == "" || a.Record == nil || a.Record.ID != a.Hit.RecordID || a.Version != w.version {
			t.Fatalf("alert %+v", a)
		}
	}
	if _, err := Import(w.db, customers, cfg, w.book, time.Now()); err != nil {
		t.Fatal(err)
	}
	if on, err = Onboard(w.db, customers, cfg, w.full, w.version); err != nil || on.Screened != 0 || len(on.Alerts) != 0 {
		t.Fatalf("unchanged book: %d screened, %d alerts, %v", on.Screened, len(on.Alerts), err)
	}
	changed := append([]Customer(nil), customers...)
	changed[3].Name = w.changed[0].Name
	changed[3].Type, changed[3].DOB, changed[3].Gender, changed[3].Citizenship = "", "", "", ""
	on, err = Onboard(w.db, changed, cfg, w.full, w.version)
	if err != nil || on.Screened != 1 {
		t.Fatalf("one changed customer: %d screened, %v", on.Screened, err)
	}
	found := false
	for _, a := range on.Alerts {
		found = found || a.Subject == changed[3].ID && a.Hit.RecordID == w.changed[0].ID
	}
	if !found {
		t.Errorf("the changed customer, now named %q, raised no alert on %s: %+v", changed[3].Name, w.changed[0].ID, on.Alerts)
	}
}
