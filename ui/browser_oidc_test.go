package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/amlscreen/amlscreen/casework"
)

// TestBrowserOIDC signs a person in through the identity provider in a
// real, headless Chromium. The provider is on "localhost" and the
// workbench on "127.0.0.1", two sites, so the browser comes back to the
// callback with a cross-site navigation, as from a bank's provider: the
// state cookie must be sent on it, and the session cookie (SameSite=
// Strict) on the page after it.
func TestBrowserOIDC(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	exe := chromiumPath()
	if exe == "" {
		t.Skip("browser test: no Chromium found; install Debian's chromium-headless-shell or chromium (apt-get install chromium-headless-shell) or set AMLSCREEN_CHROMIUM")
	}
	t.Parallel() // a tab each in one browser: they wait on it more than they compute
	p := startIdPAt(t, "localhost", map[string][]any{"id2": {"aml-reviewers"}})
	b := newBench(t, func(c *Config) {
		c.PeopleKey = func() string { return keyA }
		c.OIDC = &OIDC{Issuer: p.issuer, ClientID: idpClientID, ClientSecret: idpSecret, RoleClaim: "groups",
			Roles: map[string]string{"aml-reviewers": casework.Reviewer}}
	})
	p.register(b)

	ctx, cancel := context.WithTimeout(browserTab(t, exe), time.Minute)
	defer cancel()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("open the sign-in", chromedp.Navigate(b.url+"/ui/signin"), chromedp.WaitVisible(chromedp.ID("oidc-start")))
	do("go to the provider", chromedp.Click(chromedp.ID("oidc-start")), chromedp.WaitVisible(chromedp.ID("username")))
	do("sign in at the provider",
		typeText("username", "test-user2"),
		typeText("password", "verysecure"),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("names")))
	who, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".who")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(who, "test-user2 (reviewer)") {
		t.Errorf("signed in as %q, want test-user2 (reviewer)", who)
	}
}
