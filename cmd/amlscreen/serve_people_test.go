package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServePeopleUsageErrors: every bad value of the flags people sign in
// with stops serve with exit 2 naming the flag, before the store opens.
func TestServePeopleUsageErrors(t *testing.T) {
	dir := t.TempDir()
	keys := writeKeys(t, dir, `[{"key":"k","name":"machines"},{"key":"d","name":"old","disabled":true}]`)
	base := []string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys}
	t.Setenv(oidcSecretEnv, "")
	idp := []string{"--oidc-issuer", "https://idp.example/realms/staff", "--oidc-client-id", "amlscreen"}
	for _, c := range []struct {
		args []string
		errs string
	}{
		{[]string{"--oidc-client-id", "amlscreen"}, "--oidc-client-id: only with --oidc-issuer"},
		{[]string{"--oidc-roles", "g=analyst"}, "--oidc-roles: only with --oidc-issuer"},
		{[]string{"--oidc-issuer", "http://idp.example", "--oidc-client-id", "a"}, "--oidc-issuer: must be https"},
		{[]string{"--oidc-issuer", "https://user:pw@idp.example", "--oidc-client-id", "a"}, "--oidc-issuer: not an absolute URL"},
		{[]string{"--oidc-issuer", "https://idp.example"}, "--oidc-client-id: required"},
		{append(idp, "--oidc-role-claim", "groups"), "--oidc-roles: required"},
		{append(idp, "--oidc-roles", "g=analyst"), "--oidc-roles: only with --oidc-role-claim"},
		{append(idp, "--oidc-role-claim", "groups", "--oidc-roles", "g=boss"), "--oidc-roles:"},
		{append(idp, "--oidc-role-claim", "groups", "--oidc-roles", "analyst"), "--oidc-roles:"},
		{append(idp, "--oidc-redirect-url", "https://aml.bank.example/callback"), "--oidc-redirect-url: the path"},
		{append(idp, "--oidc-client-secret-file", filepath.Join(dir, "absent")), "--oidc-client-secret-file"},
		{[]string{"--workbench-key", "nobody"}, "--workbench-key"},
		{[]string{"--workbench-key", "old"}, "--workbench-key"},
	} {
		args := append(append([]string{}, base...), c.args...)
		code, _, errs := runStoreCLI(t, args...)
		if code != exitUsage || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %s", c.args, code, errs, exitUsage, c.errs)
		}
	}
}

// TestServeOIDCSecret: the client secret comes from the file, else from
// the environment, never from a flag's value.
func TestServeOIDCSecret(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "secret")
	if err := os.WriteFile(file, []byte("from-the-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(oidcSecretEnv, "from-the-env")
	f := servePeopleFlags{oidcIssuer: "http://127.0.0.1:9/", oidcClientID: "a", oidcUserClaim: "email",
		oidcRoleClaim: "groups", oidcRoles: "aml-analysts=analyst, aml-leads=reviewer"}
	o, err := f.oidcConfig()
	if err != nil || o.ClientSecret != "from-the-env" || o.Roles["aml-leads"] != "reviewer" || o.UserClaim != "email" {
		t.Fatalf("%+v, %v", o, err)
	}
	f.oidcSecretFile = file
	if o, err = f.oidcConfig(); err != nil || o.ClientSecret != "from-the-file" {
		t.Fatalf("%+v, %v", o, err)
	}
}
