package ui

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
)

// screenshotsEnv names the directory the browser test writes its
// screenshots into, relative to the repository root (docs/ui for the
// README); without it the browser tests take none.
const screenshotsEnv = "AMLSCREEN_UI_SCREENSHOTS"

// chromiumPath finds the browser: $AMLSCREEN_CHROMIUM, else Debian's
// chromium-headless-shell, chromium or another Chrome on the PATH. The
// headless shell is Chromium's own engine (Blink, V8, the network stack)
// without the browser's windows and tab strip, which in the full
// browser's headless mode cost more than half of the browser tests' CPU.
func chromiumPath() string {
	if p := os.Getenv("AMLSCREEN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowserWorkflow drives the workbench in a real, headless Chromium
// over the embedded sample: sign in, screen a name, open a record, mark it
// a false positive, screen again and see it suppressed, change the record
// with a delta (as serve's sync does) and see the hit return marked,
// download the PDF; then the monitoring and data pages. With
// AMLSCREEN_UI_SCREENSHOTS set it takes a screenshot of every page.
func TestBrowserWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	exe := chromiumPath()
	if exe == "" {
		t.Skip("browser test: no Chromium found; install Debian's chromium (apt-get install chromium) or set AMLSCREEN_CHROMIUM")
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
	b := openBench(t, recs, srcs, func(c *Config) { c.PeopleKey = func() string { return keyA } })
	received := make(chan struct{}, 16)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { received <- struct{}{} }))
	defer receiver.Close()

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
	// flash waits for the confirmation of an action: a page with the
	// message, not the one the action was sent from. The page navigates
	// meanwhile, so the check is asked again until it holds.
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

	// Sign in: the workbench sends a browser without a session there.
	do("open the workbench", chromedp.Navigate(b.url+"/ui/"), chromedp.WaitVisible(chromedp.ID("key")))
	shot("signin")
	do("sign in",
		typeText("key", keyA),
		chromedp.Submit(chromedp.ID("key")),
		chromedp.WaitVisible(chromedp.ID("names")))

	// Screen a name.
	do("screen",
		typeText("names", "vladimir putin"),
		chromedp.SetValue(chromedp.ID("fuzzy"), "1"),
		chromedp.Click(chromedp.CSS(`.screen-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("results-title")))
	if got := text("#results-title"); !strings.HasPrefix(got, "1 hit to review") {
		t.Fatalf("results: %q", got)
	}
	if got := text("table.hits tbody"); !strings.Contains(got, "SEED0001") || !strings.Contains(got, "exact: vladimir, putin") {
		t.Fatalf("hits table: %q", got)
	}
	shot("screen")

	// Open the record, and decide.
	do("open the record", chromedp.Click(chromedp.CSS(`table.hits a.record-link`)), chromedp.WaitVisible(chromedp.ID("decide-title")))
	if got := text(".record-head h1"); got != "Vladimir Vladimirovich PUTIN" {
		t.Errorf("record page title %q", got)
	}
	shot("record")
	do("fill the decision",
		chromedp.Click(chromedp.CSS(`input[name=status][value=false_positive]`)),
		typeText("note", "Customer born 1971 in Riga; passport checked."))
	shot("decide")
	do("record the decision",
		chromedp.Click(chromedp.CSS(`.decide button[type=submit]`)),
		flash("Recorded false positive on record SEED0001"))

	// Back on the results: suppressed.
	if got := text("#results-title"); !strings.Contains(got, "0 hits to review") || !strings.Contains(got, "1 suppressed") {
		t.Fatalf("after the decision: %q", got)
	}
	do("open the suppressed hits", chromedp.Click(chromedp.CSS(`details.suppressed summary`)), chromedp.WaitVisible(chromedp.CSS(`details.suppressed table`)))
	if got := text("details.suppressed table"); !strings.Contains(got, "SEED0001") || !strings.Contains(got, "passport checked") {
		t.Fatalf("suppressed hits: %q", got)
	}
	shot("screen-suppressed")

	// A delta changes the record, as serve's sync applies one: the hit
	// comes back, marked.
	b.change(t, "SEED0001", func(r *record.Record) { r.Address = append(r.Address, "Moscow, Kremlin") })
	do("screen again", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("results-title")))
	if got := text("#results-title"); !strings.HasPrefix(got, "1 hit to review") {
		t.Fatalf("after the change: %q", got)
	}
	if got := text("table.hits tbody"); !strings.Contains(got, "Changed since decision") || !strings.Contains(got, "false positive") {
		t.Fatalf("the returned hit is not marked: %q", got)
	}
	shot("screen-changed")

	// Download the PDF.
	downloads := t.TempDir()
	progress := chromedp.Events(ctx, browser.DownloadProgress)
	do("download the report",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			events := true
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: downloads, EventsEnabled: &events,
				BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}) // the tab's own context (browserTab)
			return err
		}),
		chromedp.Click(chromedp.CSS(`a[download][href^="/ui/report"]`)))
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download: %v", err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatal("download canceled")
		}
		if ev.State != browser.DownloadProgressStateCompleted {
			continue
		}
		pdf, err := os.ReadFile(filepath.Join(downloads, ev.GUID))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf, []byte("%%EOF")) {
			t.Fatalf("the download is not a PDF: %q", pdf[:min(len(pdf), 20)])
		}
		break
	}

	// Monitoring: register a profile with the form, send a test
	// notification and have it delivered.
	do("monitoring", chromedp.Navigate(b.url+"/ui/monitoring"), chromedp.WaitVisible(chromedp.ID("profile_id")))
	do("register a profile",
		typeText("profile_id", "C-1001"),
		typeText("pnames", "Vladimir Putin"),
		typeText("pdob", "07/10/1952"),
		chromedp.Click(chromedp.CSS(`#profile-form button[type=submit]`)),
		flash("Registered profile C-1001"))
	do("test webhook", chromedp.Click(chromedp.CSS(`form[action="/ui/profile/test"] button`)), flash("Queued a sample notification"))
	b.send(t, receiver.URL, time.Hour)
	select {
	case <-received:
	case <-time.After(10 * time.Second):
		t.Fatal("the test notification was not delivered")
	}
	do("see it delivered", chromedp.Navigate(b.url+"/ui/monitoring"), chromedp.WaitVisible(chromedp.ID("delivered")))
	if got := text("#profiles-title"); !strings.Contains(got, "1") {
		t.Errorf("profiles heading %q", got)
	}
	if got := text(".tally"); !strings.Contains(got, "1 delivered") {
		t.Errorf("outbox tally %q", got)
	}
	shot("monitoring")

	do("data", chromedp.Navigate(b.url+"/ui/data"), chromedp.WaitVisible(chromedp.ID("sources")))
	if got := text("#db-title + dl"); !strings.Contains(got, b.version) {
		t.Errorf("data page: %q", got)
	}
	shot("data")

	// A person joins the site (a key decides alone only where nobody
	// signs in as herself). Sign out: the pages ask for a key again.
	b.addUser(t, "ana", "analyst")
	do("sign out", chromedp.Click(chromedp.CSS(`.signout button`)), chromedp.WaitVisible(chromedp.ID("key")))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if u, _ := url.Parse(loc); u == nil || u.Path != "/ui/signin" {
		t.Errorf("after sign-out at %s", loc)
	}

	// A person signs in with her name and password, and screens.
	do("sign in as a person",
		typeText("name", "ana"),
		typeText("password", testPassword),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("names")))
	if got := text(".who"); !strings.Contains(got, "ana (analyst)") {
		t.Errorf("signed in as %q, want ana (analyst)", got)
	}
	do("sign out the person", chromedp.Click(chromedp.CSS(`.signout button`)), chromedp.WaitVisible(chromedp.ID("name")))
}
