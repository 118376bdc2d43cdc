package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
)

// limitsFixture is the fixture with monitoring and media endpoints and a
// key whose webhook URL counts the deliveries it receives.
func limitsFixture(t *testing.T) (*fixture, *atomic.Int64) {
	t.Helper()
	var posts atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { posts.Add(1) }))
	t.Cleanup(hook.Close)
	corpus := mediaCorpus(t)
	f := newFixture(t, func(c *Config) {
		m := monitor.New(c.Store, monitor.Options{})
		c.Endpoints = append(MediaEndpoints(corpus), MonitorEndpoints(m)...)
		c.KeysFile = ""
		c.Keys = []*access.Key{{Key: keyBasic, Name: "basic", WebhookURL: hook.URL}}
	})
	return f, &posts
}

// TestRequestLimits: every limit is checked before any work, answered
// with a 400 that names the parameter and the limit, and quotes no more
// than a short prefix of the value.
func TestRequestLimits(t *testing.T) {
	f, posts := limitsFixture(t)
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name, path string
		has        []string // the message names the parameter and the limit
	}{
		{"URL", "/v1/checkName?names=x&dob=" + long(MaxURLBytes), []string{"URL", fmt.Sprint(MaxURLBytes)}},
		{"names", "/v1/checkName?names=" + url.QueryEscape(strings.Repeat("ab ", 200)), []string{"names", "512"}},
		{"names in Cyrillic", "/v1/checkName?names=" + url.QueryEscape(strings.Repeat("жё ", 180)), []string{"names", "512"}},
		{"search_all", "/v1/checkIndividual?search_all=" + long(513), []string{"search_all", "512"}},
		{"default limit", "/v1/checkIndividual?names=ivan&dob=" + long(MaxParamChars+1), []string{"dob", fmt.Sprint(MaxParamChars)}},
		{"month", "/v1/usage?month=" + long(5000), []string{"month", "16"}},
		{"previous", "/v1/getConsolidatedDelta?previous=" + long(5000), []string{"previous", "256"}},
		{"cursor", "/v1/media/search?search_all=ivan&cursor=" + long(5000), []string{"cursor", fmt.Sprint(maxCursorChars)}},
		{"kid", "/v1/keys/" + long(5000), []string{"key id", "128"}},
		{"includes", "/v1/checkName?names=ivan&includes=" + long(MaxIncludesChars+1), []string{"includes", fmt.Sprint(MaxIncludesChars)}},
		{"profile_id on register", "/v1/registerIndividual?names=ivan&profile_id=" + long(257), []string{"profile_id", "256"}},
		{"profile_id on remove", "/v1/removeSearchProfile?profile_id=" + long(257), []string{"profile_id", "256"}},
		{"profile_id on test webhook", "/v1/testWebhookDelivery?profile_id=" + long(257), []string{"profile_id", "256"}},
		{"profile_id with NUL", "/v1/testWebhookDelivery?profile_id=a%00b", []string{"profile_id", "control"}},
		{"profile_id with a newline", "/v1/removeSearchProfile?profile_id=a%0Ab", []string{"profile_id", "control"}},
		{"profile_id with C1 control", "/v1/registerEntity?names=acme&profile_id=a%C2%85b", []string{"profile_id", "control"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := f.get(keyBasic, c.path).errorMessage(t, 400)
			for _, h := range c.has {
				if !strings.Contains(msg, h) {
					t.Errorf("message %q does not name %q", msg, h)
				}
			}
			if len(msg) > 300 || strings.Contains(msg, long(50)) {
				t.Errorf("message quotes too much of the value (%d bytes): %.400s", len(msg), msg)
			}
		})
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("%d webhook deliveries for refused profile ids", n)
	}
	// Within the limits, the same endpoints work.
	for _, p := range []string{
		// 30 words, 480 characters, 930 bytes: the limit counts characters.
		"/v1/checkName?names=" + url.QueryEscape(strings.Repeat("жжжжжжжжжжжжжжж ", 30)),
		"/v1/registerIndividual?names=ivan&profile_id=" + long(256),
		"/v1/removeSearchProfile?profile_id=" + url.QueryEscape("Kunde 42 / Müller"),
	} {
		if a := f.get(keyBasic, p); a.StatusCode != 200 {
			t.Errorf("%.80s: %d %s", p, a.StatusCode, a.body)
		}
	}
}

// TestErrorMessagesQuoteShortPrefixes: values echoed in error messages are
// cut to a short prefix, and no message is longer than maxErrorMessage,
// whatever the endpoint puts in it.
func TestErrorMessagesQuoteShortPrefixes(t *testing.T) {
	f, _ := limitsFixture(t)
	ids := make([]string, 1500)
	for i := range ids {
		ids[i] = fmt.Sprintf("x%d", i)
	}
	for _, c := range []struct {
		path string
		// short: the server's own message, which quotes a prefix; else
		// another package's, which only the cap on messages bounds.
		short bool
	}{
		{"/v1/usage?month=" + strings.Repeat("9", 16), true},
		{"/v1/keys/" + strings.Repeat("k", 127) + "$", true},
		{"/v1/checkName?names=ivan&fuzzy_search=" + strings.Repeat("7", 900), false},
		{"/v1/checkName?names=ivan&includes=" + strings.Join(ids, ","), false},
		{"/v1/media/search?search_all=ivan&cursor=" + strings.Repeat("Q", maxCursorChars), false},
	} {
		msg := f.get(keyBasic, c.path).errorMessage(t, 400)
		if len(msg) > maxErrorMessage {
			t.Errorf("%.60s: message of %d bytes: %.300s", c.path, len(msg), msg)
		}
		if c.short && (strings.Contains(msg, strings.Repeat("9", 60)) || strings.Contains(msg, strings.Repeat("k", 60))) {
			t.Errorf("%.60s: message quotes the whole value: %s", c.path, msg)
		}
	}
}

// TestUnknownParametersOneWarning: 200 unknown parameters give one Warning
// header naming the first five and how many more.
func TestUnknownParametersOneWarning(t *testing.T) {
	f := newFixture(t)
	q := url.Values{"names": {"putin"}}
	for i := range 200 {
		q.Set(fmt.Sprintf("extra%03d", i), "1")
	}
	a := f.get(keyBasic, "/v1/checkName?"+q.Encode())
	if a.StatusCode != 200 {
		t.Fatalf("%d %s", a.StatusCode, a.body)
	}
	w := a.Header.Values("Warning")
	want := `299 - "unknown parameters ignored: extra000, extra001, extra002, extra003, extra004 and 195 more"`
	if len(w) != 1 || w[0] != want {
		t.Errorf("Warning headers %q, want one: %s", w, want)
	}
}
