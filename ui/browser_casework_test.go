package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
)

// TestBrowserCasework walks casework in a real, headless Chromium over the
// embedded sample, with two people: the analyst signs in, screens a name
// (the hit raises an alert), finds it in the queue and proposes a false
// positive; the reviewer signs in, opens the proposal and approves it; the
// analyst's next screening suppresses the hit; a delta changes the record
// and the alert is open again; the audit page shows every step and the
// chain verifies. With AMLSCREEN_UI_SCREENSHOTS set (docs/ui for the
// docs) it takes screenshots of the queue, the review and the audit log.
func TestBrowserCasework(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	exe := chromiumPath()
	if exe == "" {
		t.Skip("browser test: no Chromium found; install Debian's chromium-headless-shell or chromium (apt-get install chromium-headless-shell) or set AMLSCREEN_CHROMIUM")
	}
	t.Parallel() // a tab each in one browser: they wait on it more than they compute
	shots := ""  // no screenshots: each costs the browser a full-page render
	if d := os.Getenv(screenshotsEnv); d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join("..", d)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		shots = d
	}
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := sampledata.Sources()
	if err != nil {
		t.Fatal(err)
	}
	b := openBench(t, recs, srcs, peopleKeyA)
	b.st.OnApply(b.cw.Hook) // as serve registers it: changed records reopen their alerts
	b.addUser(t, "maria", casework.Analyst)
	b.addUser(t, "omar", casework.Reviewer)
	seedQueue(t, b, recs)

	ctx, cancel := context.WithTimeout(browserTab(t, exe), 2*time.Minute)
	defer cancel()

	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	flash := func(part string) chromedp.Action[chromedp.Void] {
		expr := `(() => { const n = document.querySelector(".notice-ok"); return n !== null && n.textContent.includes(` + strconv.Quote(part) + `); })()`
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			for {
				if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
					return nil
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("waiting for %q: %w", part, ctx.Err())
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	shot := func(name string) {
		t.Helper()
		if shots == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	signIn := func(name string) {
		t.Helper()
		do("sign in as "+name, chromedp.Navigate(b.url+"/ui/signin"), chromedp.WaitVisible(chromedp.ID("name")),
			typeText("name", name),
			typeText("password", testPassword),
			chromedp.Submit(chromedp.ID("password")),
			chromedp.WaitVisible(chromedp.CSS(".signout")))
	}
	signOut := func() {
		t.Helper()
		do("sign out", chromedp.Click(chromedp.CSS(`.signout button`)), chromedp.WaitVisible(chromedp.ID("name")))
	}
	// screenHere screens on the screening page the browser shows, where
	// a sign-in lands; screen opens that page first.
	screenHere := func() {
		t.Helper()
		do("screen", chromedp.WaitVisible(chromedp.ID("names")),
			typeText("names", "vladimir putin"),
			chromedp.SetValue(chromedp.ID("fuzzy"), "1"),
			chromedp.Click(chromedp.CSS(`.screen-form button[type=submit]`)),
			chromedp.WaitVisible(chromedp.ID("results-title")))
	}
	screen := func() {
		t.Helper()
		do("open the screening page", chromedp.Navigate(b.url+"/ui/screen"))
		screenHere()
	}

	// The analyst screens: the hit raises an alert.
	signIn("maria")
	screenHere()
	if got := text("#results-title"); !strings.HasPrefix(got, "1 hit to review") {
		t.Fatalf("results: %q", got)
	}
	do("the queue", chromedp.Navigate(b.url+"/ui/queue?sort=score&desc=1"), chromedp.WaitVisible(chromedp.ID("queue-title")))
	if got := text("table.queue tbody"); !strings.Contains(got, "SEED0001") || !strings.Contains(got, "07/10/1952") || !strings.Contains(got, "RU") {
		t.Fatalf("the queue lacks the screening's alert with its date of birth and citizenship: %q", got)
	}
	shot("queue")
	id := strconv.FormatUint(screeningAlert(t, b, "SEED0001").ID, 10)
	do("open the alert", chromedp.Navigate(b.url+"/ui/alert?id="+id), chromedp.WaitVisible(chromedp.ID("propose-form")))
	do("propose a false positive",
		chromedp.Click(chromedp.CSS(`input[name=outcome][value=false_positive]`)),
		typeText("reason", "Customer born 1971 in Riga; passport checked."),
		chromedp.Submit(chromedp.ID("reason")),
		flash("Proposed false positive on alert "+id))
	if got := text("#alert-status"); got != "proposed" {
		t.Fatalf("after the proposal the alert is %q", got)
	}
	signOut()

	// The reviewer approves.
	signIn("omar")
	do("to review", chromedp.Navigate(b.url+"/ui/queue?status=proposed"), chromedp.WaitVisible(chromedp.ID("queue-title")))
	if got := text("#queue-title"); !strings.HasPrefix(got, "1 alert") {
		t.Fatalf("to review: %q", got)
	}
	do("open the proposal", chromedp.Click(chromedp.CSS(`table.queue a.record-link`)), chromedp.WaitVisible(chromedp.ID("approve-form")))
	do("note", typeText("approve-note", "Date of birth and passport match the file."))
	shot("review")
	do("approve", chromedp.Submit(chromedp.ID("approve-note")), flash("Approved alert "+id))
	if got := text(".decide"); !strings.Contains(got, "Approved by omar") || !strings.Contains(got, "Proposed by maria") {
		t.Fatalf("after the approval: %q", got)
	}
	signOut()

	// The analyst's next screening suppresses the hit.
	signIn("maria")
	screenHere()
	if got := text("#results-title"); !strings.Contains(got, "0 hits to review") || !strings.Contains(got, "1 suppressed") {
		t.Fatalf("after the approval: %q", got)
	}
	// A delta changes the record, as serve's sync applies one: the alert
	// is open again.
	b.change(t, "SEED0001", func(r *record.Record) { r.Address = append(r.Address, "Moscow, Kremlin") })
	do("the alert again", chromedp.Navigate(b.url+"/ui/alert?id="+id), chromedp.WaitVisible(chromedp.ID("alert-status")))
	if got := text("#alert-status"); got != "open" {
		t.Fatalf("after the change the alert is %q", got)
	}
	if got := text("#history"); !strings.Contains(got, "alert.reopen") {
		t.Fatalf("history lacks the reopening: %q", got)
	}
	screen()
	if got := text("#results-title"); !strings.HasPrefix(got, "1 hit to review") {
		t.Fatalf("after the change: %q", got)
	}

	// The audit log shows all of it, and the chain is whole.
	do("audit", chromedp.Navigate(b.url+"/ui/audit?record=SEED0001&verify=1"), chromedp.WaitVisible(chromedp.ID("audit")))
	got := text("#audit")
	for _, want := range []string{"screening", "alert.raise", "alert.propose", "alert.approve", "decision", "alert.reopen", "maria", "omar"} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit page lacks %q", want)
		}
	}
	if v := text("#verify"); !strings.Contains(v, "is whole") {
		t.Errorf("verify: %q", v)
	}
	shot("audit")
	if _, err := b.cw.Verify(); err != nil {
		t.Fatal(err)
	}
}

// screeningAlert returns the alert a workbench screening raised on
// recordID.
func screeningAlert(t *testing.T, b *bench, recordID string) *casework.Alert {
	t.Helper()
	as, err := b.cw.Alerts(casework.Filter{Origin: casework.OriginScreening})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if a.Hit.RecordID == recordID {
			return a
		}
	}
	t.Fatalf("no screening alert on %s", recordID)
	return nil
}

// seedQueue raises alerts of a batch run on a dozen sample records, with
// scores, so that the queue's screenshot shows a working day.
func seedQueue(t *testing.T, b *bench, recs []*record.Record) {
	t.Helper()
	var hits []casework.NewAlert
	for i, r := range recs {
		if len(hits) == 12 {
			break
		}
		if r.EntityType != "INDIVIDUAL" || len(r.DateOfBirth) == 0 || r.ID == "SEED0001" {
			continue
		}
		score := 0.97 - float64(i%9)*0.03
		hits = append(hits, casework.NewAlert{Subject: fmt.Sprintf("C-%04d", 1000+i), Origin: casework.OriginBatch, Version: b.version,
			Query: casework.Query{Kind: "individual", Names: strings.ToLower(r.Name)},
			Hit: casework.Hit{RecordID: r.ID, RecordName: r.Name, SourceID: r.SourceID, SourceType: r.SourceType, EntityType: r.EntityType,
				MatchedName: r.Name, Reason: "scored name match", Score: &score},
			Record: r})
	}
	if _, err := b.cw.Raise("batch", hits); err != nil {
		t.Fatal(err)
	}
}
