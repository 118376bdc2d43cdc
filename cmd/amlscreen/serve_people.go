package main

import (
	"errors"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/ui"
)

// oidcSecretEnv holds the OIDC client secret when --oidc-client-secret-file
// is not given: a secret never goes in a flag, which every user of the
// machine can read in the process list.
const oidcSecretEnv = "AMLSCREEN_OIDC_CLIENT_SECRET"

// servePeopleFlags are serve's flags for people signing in to the
// workbench.
type servePeopleFlags struct {
	workbenchKey    string
	oidcIssuer      string
	oidcClientID    string
	oidcSecretFile  string
	oidcRedirectURL string
	oidcUserClaim   string
	oidcRoleClaim   string
	oidcRoles       string
}

func addServePeopleFlags(cmd *cobra.Command, f *servePeopleFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.workbenchKey, "workbench-key", "", "name or id of the key of --keys that people signed in to the workbench screen, decide and monitor with (default: people only work alerts)")
	fl.StringVar(&f.oidcIssuer, "oidc-issuer", "", "issuer URL of the OpenID Connect provider people sign in to the workbench with; with --oidc-client-id")
	fl.StringVar(&f.oidcClientID, "oidc-client-id", "", "the workbench's client id at --oidc-issuer")
	fl.StringVar(&f.oidcSecretFile, "oidc-client-secret-file", "", "file holding the client secret (default: $"+oidcSecretEnv+"; none for a public client)")
	fl.StringVar(&f.oidcRedirectURL, "oidc-redirect-url", "", "callback URL registered at the provider, ending in /ui/oidc/callback (default: from each request's scheme and host)")
	fl.StringVar(&f.oidcUserClaim, "oidc-user-claim", "preferred_username", "claim that is the person's user name")
	fl.StringVar(&f.oidcRoleClaim, "oidc-role-claim", "", "claim (a string or list, e.g. groups) mapped to roles by --oidc-roles (default: the role of the store's user of the same name)")
	fl.StringVar(&f.oidcRoles, "oidc-roles", "", "with --oidc-role-claim, VALUE=ROLE pairs separated by commas, e.g. aml-analysts=analyst,aml-leads=reviewer")
	cmd.Example += "\n  amlscreen serve --store aml.db --keys keys.json --workbench-key workbench --oidc-issuer https://login.bank.example/realms/staff --oidc-client-id amlscreen --oidc-client-secret-file /etc/amlscreen/oidc-secret --oidc-role-claim groups --oidc-roles aml-analysts=analyst,aml-reviewers=reviewer"
}

// oidcConfig checks the OIDC flags and returns the provider's settings,
// nil without --oidc-issuer.
func (f *servePeopleFlags) oidcConfig() (*ui.OIDC, error) {
	if f.oidcIssuer == "" {
		for name, v := range map[string]string{"--oidc-client-id": f.oidcClientID, "--oidc-client-secret-file": f.oidcSecretFile,
			"--oidc-redirect-url": f.oidcRedirectURL, "--oidc-role-claim": f.oidcRoleClaim, "--oidc-roles": f.oidcRoles} {
			if v != "" {
				return nil, usagef("%s: only with --oidc-issuer", name)
			}
		}
		return nil, nil
	}
	if err := checkOIDCURL(f.oidcIssuer); err != nil {
		return nil, usagef("--oidc-issuer: %v", err)
	}
	if f.oidcClientID == "" {
		return nil, usagef("--oidc-client-id: required with --oidc-issuer")
	}
	if f.oidcRedirectURL != "" {
		if err := checkOIDCURL(f.oidcRedirectURL); err != nil {
			return nil, usagef("--oidc-redirect-url: %v", err)
		}
		if u, _ := url.Parse(f.oidcRedirectURL); u.Path != ui.Prefix+"oidc/callback" {
			return nil, usagef("--oidc-redirect-url: the path must be %soidc/callback, the workbench's callback", ui.Prefix)
		}
	}
	if f.oidcUserClaim == "" {
		return nil, usagef("--oidc-user-claim: empty")
	}
	o := &ui.OIDC{Issuer: f.oidcIssuer, ClientID: f.oidcClientID, RedirectURL: f.oidcRedirectURL,
		UserClaim: f.oidcUserClaim, RoleClaim: f.oidcRoleClaim}
	switch {
	case f.oidcRoleClaim != "" && f.oidcRoles == "":
		return nil, usagef("--oidc-roles: required with --oidc-role-claim")
	case f.oidcRoleClaim == "" && f.oidcRoles != "":
		return nil, usagef("--oidc-roles: only with --oidc-role-claim")
	case f.oidcRoles != "":
		m, err := ui.ParseRoleMap(f.oidcRoles)
		if err != nil {
			return nil, usagef("--oidc-roles: %v (roles: %s)", err, strings.Join(casework.Roles, ", "))
		}
		o.Roles = m
	}
	o.ClientSecret = os.Getenv(oidcSecretEnv)
	if f.oidcSecretFile != "" {
		b, err := os.ReadFile(f.oidcSecretFile)
		if err != nil {
			return nil, usagef("--oidc-client-secret-file: %v", err)
		}
		if o.ClientSecret = strings.TrimSpace(string(b)); o.ClientSecret == "" {
			return nil, usagef("--oidc-client-secret-file: %s is empty", f.oidcSecretFile)
		}
	}
	return o, nil
}

// checkOIDCURL accepts an absolute https URL, or http on this machine
// (a provider under test): tokens and codes must not cross a network in
// clear.
func checkOIDCURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("not an absolute URL without credentials, query or fragment")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if ip := net.ParseIP(h); h == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return errors.New("must be https (http only on localhost)")
}
