package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServeDemo: serve --demo prints a key and an address on this machine,
// answers the workbench and the API with that key (media checks from the
// embedded media sample: demoAnswersMedia), delivers the demo key's
// notifications to itself, and removes its store when it stops.
func TestServeDemo(t *testing.T) {
	s := startServe(t, &serveFlags{demo: true, listen: "127.0.0.1:0", every: time.Hour, drainDelay: 5 * time.Second})
	out := s.log()
	m := regexp.MustCompile(`API key  (demo-[0-9a-f]{32})`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "open     http://"+s.addr+"/ui/") {
		t.Fatalf("the demo does not say where to go and with which key:\n%s", out)
	}
	key := m[1]
	if body := get(t, s.addr, key, "/v1/checkIndividual?names=vladimir%20putin"); !strings.Contains(body, "SEED0001") {
		t.Errorf("the demo's API does not find the sample: %s", body)
	}
	demoAnswersMedia(t, s.addr, key)
	// The demo answers from the embedded sample and says so: one log line
	// at start, a header on every answer.
	if n := strings.Count(out, "the store holds the embedded sample"); n != 1 {
		t.Errorf("the demo logged the sample %d times:\n%s", n, out)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+s.addr+"/v1/checkName?names=zzyzx", nil)
	req.Header.Set("x-api-key", key)
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.Header.Get("X-Amlscreen-Database") != "embedded sample" {
		t.Errorf("a demo answer without X-Amlscreen-Database: %v", resp.Header)
	}
	// The demo key is a default key: a PEP that has pep_level and
	// source_country in the sample is answered without them.
	if body := get(t, s.addr, key, "/v1/checkIndividual?names=Abdoulaye%20Okafor"); !strings.Contains(body, "AML00000009") ||
		strings.Contains(body, `"pep_level"`) || strings.Contains(body, `"source_country"`) {
		t.Errorf("the demo key's answer: want AML00000009 without pep_level and source_country: %s", body)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]string{"/ui": "/ui/", "/ui/": "/ui/signin"} {
		resp, err := noRedirect.Get("http://" + s.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); loc != want {
			t.Errorf("GET %s: %d to %q, want %q", path, resp.StatusCode, loc, want)
		}
	}
	resp, err := http.Get("http://" + s.addr + "/ui/signin")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `id="key"`) {
		t.Errorf("sign-in page: %d", resp.StatusCode)
	}
	// The demo key's webhook is the demo itself: a test notification is
	// delivered, as the signed-in monitoring page shows.
	get(t, s.addr, key, "/v1/testWebhookDelivery?profile_id=demo-1")
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	resp, err = browser.Get("http://" + s.addr + "/ui/signin")
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	token := regexp.MustCompile(`name="token" value="([^"]+)"`).FindStringSubmatch(string(page))
	if token == nil {
		t.Fatalf("no sign-in token:\n%s", page)
	}
	resp, err = browser.PostForm("http://"+s.addr+"/ui/signin/submit", url.Values{"token": {token[1]}, "key": {key}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	delivered := false
	for deadline := time.Now().Add(10 * time.Second); !delivered && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := browser.Get("http://" + s.addr + "/ui/monitoring")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		delivered = strings.Contains(string(body), "<strong>1</strong> delivered")
	}
	if !delivered {
		t.Errorf("the demo's test notification was not delivered:\n%s", s.log())
	}
	store := regexp.MustCompile(`file=(\S+)/keys\.json`).FindStringSubmatch(s.log())
	if store == nil {
		t.Fatalf("no keys file logged:\n%s", s.log())
	}
	dir := store[1]
	if _, err := os.Stat(filepath.Join(dir, "demo.db")); err != nil {
		t.Fatalf("no demo store: %v", err)
	}
	s.cancel()
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("demo stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the demo did not stop at once")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the demo's directory %s is still there: %v", dir, err)
	}
}

func TestServeDemoRefusals(t *testing.T) {
	dir := t.TempDir()
	keys := writeKeys(t, dir, `[{"key":"k"}]`)
	for _, c := range []struct {
		args []string
		errs string
	}{
		{[]string{"serve", "--demo", "--listen", ":8080"}, "--demo listens on this machine only"},
		{[]string{"serve", "--demo", "--listen", "0.0.0.0:0"}, "--demo listens on this machine only"},
		{[]string{"serve", "--demo", "--listen", "192.0.2.1:0"}, "--demo listens on this machine only"},
		{[]string{"serve", "--demo", "--listen", "localhost"}, "--listen"},
		{[]string{"serve", "--demo", "--keys", keys}, "it takes no --store, --keys"},
		{[]string{"serve", "--demo", "--store", filepath.Join(dir, "a.db")}, "it takes no --store, --keys"},
	} {
		code, _, errs := runStoreCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d with %q", c.args, code, errs, exitUsage, c.errs)
		}
	}
}
