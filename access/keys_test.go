package access

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	good := `[{"key":"k-basic","name":"basic"},
	  {"key":"k-full","name":"full","monthly_quota":10,"profile_quota":2,"include_other":true,
	   "extra_sources":["x"],"excluded_sources":["y"],"features":{"pep_level":true,"source_country":true},
	   "webhook_url":"https://hooks.example/aml","articles_per_category":20,"daily_download_limit":0}]`
	keys, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 {
		t.Fatalf("%d keys", len(keys))
	}
	full := keys[1]
	if *full.MonthlyQuota != 10 || full.ProfileLimit() != 2 || keys[0].ProfileLimit() != DefaultProfileQuota ||
		!full.Features.PEPLevel || *full.DailyDownloadLimit != 0 || full.ArticlesPerCategory != 20 {
		t.Errorf("full key read as %+v", full)
	}
	if p := full.Policy(); !p.IncludeOther || p.Extra[0] != "x" || p.Excluded[0] != "y" || !p.SourceCountry {
		t.Errorf("policy %+v", p)
	}
	if full.ID() != KeyID("k-full") || len(full.ID()) != 32 {
		t.Errorf("id %q", full.ID())
	}

	for _, tt := range []struct{ file, want string }{
		{`{}`, "want a JSON array"},
		{`[] []`, "data after the array"},
		{`[null]`, "entry 1: null"},
		{`[{"key":""}]`, "entry 1: key is empty"},
		{`[{"key":"a","montly_quota":5}]`, `unknown field "montly_quota"`},
		{`[{"key":"a","name":"n","monthly_quota":-1}]`, "entry 1 (n): monthly_quota -1 is negative"},
		{`[{"key":"a","profile_quota":-2}]`, "profile_quota -2 is negative"},
		{`[{"key":"a","articles_per_category":-3}]`, "articles_per_category -3 is negative"},
		{`[{"key":"a","daily_download_limit":-1}]`, "daily_download_limit -1 is negative (0 means no limit)"},
		{`[{"key":"sp ace"}]`, "a character an HTTP header cannot carry"},
		{`[{"key":"a","webhook_url":"ftp://x"}]`, `webhook_url "ftp://x" is not an http(s) URL`},
		{`[{"key":"a"},{"key":"b"},{"key":"a"}]`, "entry 3: same key as entry 1"},
		{`[{"key":"` + strings.Repeat("k", MaxKeyBytes+1) + `"}]`, "longer than 1024 bytes"},
	} {
		_, err := Parse([]byte(tt.file))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%.60s: %v, want %q", tt.file, err, tt.want)
		}
	}
}

func TestLoadFileNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte(`[{"key":""}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("LoadFile: %v, want the path named", err)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "absent.json")); err == nil {
		t.Error("absent file loaded")
	}
}

func TestRequireEnabled(t *testing.T) {
	for _, tt := range []struct {
		keys []*Key
		ok   bool
	}{
		{nil, false},
		{[]*Key{{Key: "a", Disabled: true}}, false},
		{[]*Key{{Key: "a", Disabled: true}, {Key: "b"}}, true},
	} {
		if err := RequireEnabled(tt.keys); (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrNoEnabledKey)) {
			t.Errorf("%d keys: %v", len(tt.keys), err)
		}
	}
}

func TestSet(t *testing.T) {
	keys := []*Key{{Key: "alpha-key"}, {Key: "beta-key", Name: "beta"}}
	if err := Validate(keys); err != nil {
		t.Fatal(err)
	}
	s := NewSet(keys)
	for presented, want := range map[string]*Key{"alpha-key": keys[0], "beta-key": keys[1], "alpha-ke": nil, "alpha-keyy": nil, "": nil} {
		if got := s.Find(presented); got != want {
			t.Errorf("Find(%q) = %v, want %v", presented, got, want)
		}
	}
	if s.ByID(KeyID("beta-key")) != keys[1] || s.ByID(KeyID("gamma")) != nil || s.ByID("") != nil {
		t.Error("ByID finds the wrong key")
	}
}
