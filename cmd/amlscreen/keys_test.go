package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keysRun runs the CLI and returns exit code, stdout and stderr.
func keysRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

type keysListed []struct {
	Kid, Status, Alias string
	NotBefore          string `json:"not_before"`
	NotAfter           string `json:"not_after"`
}

func keysList(t *testing.T, dir string) keysListed {
	t.Helper()
	code, out, errs := keysRun(t, "keys", "list", "--dir", dir, "--format", "json")
	if code != exitOK {
		t.Fatalf("keys list: exit %d: %s", code, errs)
	}
	var l keysListed
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("keys list json: %v\n%s", err, out)
	}
	return l
}

func TestKeysLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "signing")

	if code, _, errs := keysRun(t, "keys", "list", "--dir", dir); code != exitUsage || !strings.Contains(errs, "--dir") {
		t.Fatalf("list without keyring: exit %d, %q; want exit 2 naming --dir", code, errs)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("keys list created the directory")
	}

	code, out, errs := keysRun(t, "keys", "rotate", "--dir", dir)
	if code != exitOK || !strings.Contains(out, "created keyring") {
		t.Fatalf("first rotate: exit %d, %q, %q", code, out, errs)
	}
	first := keysList(t, dir)
	if len(first) != 1 || first[0].Status != "ACTIVE" || first[0].Alias != "current" {
		t.Fatalf("after creation: %+v", first)
	}

	code, out, errs = keysRun(t, "keys", "rotate", "--dir", dir, "--format", "json")
	var rot struct {
		Created           bool
		Current, Previous string
	}
	if code != exitOK || json.Unmarshal([]byte(out), &rot) != nil || rot.Created || rot.Previous != first[0].Kid || rot.Current == first[0].Kid {
		t.Fatalf("rotate: exit %d, %q, %q", code, out, errs)
	}
	l := keysList(t, dir)
	if len(l) != 2 || l[0].Status != "RETIRED" || l[0].Alias != "previous" || l[1].Kid != rot.Current || l[1].Status != "ACTIVE" {
		t.Fatalf("after rotate: %+v", l)
	}

	code, out, _ = keysRun(t, "keys", "list", "--dir", dir)
	for _, want := range []string{"KID", "STATUS", rot.Current, "ACTIVE", "RETIRED", "previous"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	// The current key cannot be revoked; unknown and malformed ids are usage errors.
	code, _, errs = keysRun(t, "keys", "revoke", rot.Current, "--dir", dir)
	if code != exitError || !strings.Contains(errs, "rotate first") {
		t.Errorf("revoke current: exit %d, %q; want exit 1 saying rotate first", code, errs)
	}
	for _, kid := range []string{"k-unknown", "a/b"} {
		if code, _, errs := keysRun(t, "keys", "revoke", kid, "--dir", dir); code != exitUsage || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("revoke %s: exit %d, %q; want exit 2, one line", kid, code, errs)
		}
	}
	code, out, errs = keysRun(t, "keys", "revoke", "previous", "--dir", dir)
	if code != exitOK || !strings.Contains(out, first[0].Kid+" is REVOKED") {
		t.Errorf("revoke previous: exit %d, %q, %q", code, out, errs)
	}

	code, out, errs = keysRun(t, "keys", "show", first[0].Kid, "--dir", dir, "--format", "json")
	var doc struct {
		Status string
		Keys   []struct{ Kty, Crv, Alg, Kid, X, Y string }
	}
	if code != exitOK || json.Unmarshal([]byte(out), &doc) != nil || doc.Status != "REVOKED" || len(doc.Keys) != 1 || doc.Keys[0].Kid != first[0].Kid {
		t.Errorf("show: exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = keysRun(t, "keys", "show", "current", "--dir", dir)
	if code != exitOK || !strings.Contains(out, rot.Current) || !strings.Contains(out, "EC P-256 ES256") {
		t.Errorf("show current table: exit %d\n%s", code, out)
	}
}

func TestKeysUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"keys", "list"}, "--dir"},
		{[]string{"keys", "list", "--dir", dir, "--format", "xml"}, "--format"},
		{[]string{"keys", "show", "--dir", dir}, "accepts 1 arg"},
		{[]string{"keys", "revoke", "a", "b", "--dir", dir}, "accepts 1 arg"},
		{[]string{"keys", "show", "current", "--dir", dir}, "--dir"},
	}
	for _, tt := range tests {
		code, _, errs := keysRun(t, tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", tt.args, code, errs, tt.flag)
		}
	}
}
