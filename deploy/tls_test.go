package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
)

// serveArtefacts are the files that run amlscreen serve.
var serveArtefacts = []string{
	"kubernetes/primary.yaml", "kubernetes/replicas.yaml", "kubernetes/ingress.yaml",
	"systemd/amlscreen.service", "systemd/amlscreen-replica.service",
}

// TestCommentedServeFlags: the flags the comments of the serve artefacts
// suggest (the TLS options among them) are flags of the amlscreen serve
// built from this checkout, and the TLS options are mentioned where an
// operator looks for them.
func TestCommentedServeFlags(t *testing.T) {
	help, err := exec.Command(amlscreenBinary(t), "serve", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("serve --help: %v\n%s", err, help)
	}
	flag := regexp.MustCompile(`--[a-z][a-z-]*`)
	// Lines of install steps name flags of other commands.
	other := regexp.MustCompile(`\b(useradd|systemctl|install|kubectl)\b`)
	for _, file := range serveArtefacts {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var comments strings.Builder
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "#") {
				continue
			}
			comments.WriteString(line)
			if other.MatchString(line) {
				continue
			}
			for _, f := range flag.FindAllString(line, -1) {
				if !strings.Contains(string(help), "  "+f+" ") && !strings.Contains(string(help), ", "+f+" ") {
					t.Errorf("%s: comment names %s, which amlscreen serve does not take: %s", file, f, line)
				}
			}
		}
		if strings.HasSuffix(file, "ingress.yaml") {
			continue
		}
		for _, want := range []string{"--ca-bundle"} {
			if !strings.Contains(comments.String(), want) {
				t.Errorf("%s: the comments do not mention %s", file, want)
			}
		}
	}
	for _, file := range []string{"kubernetes/primary.yaml", "systemd/amlscreen.service"} {
		data, _ := os.ReadFile(file)
		for _, want := range []string{"--tls-cert", "--tls-key"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("%s does not say how to serve HTTPS (%s)", file, want)
			}
		}
	}
}

// TestKeysExample: deploy/keys.example.json is a keys file serve accepts,
// and its replicas' key has no daily download limit, so replicas may poll
// the primary as often as the data needs.
func TestKeysExample(t *testing.T) {
	keys, err := access.LoadFile("keys.example.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := access.Validate(keys); err != nil {
		t.Fatal(err)
	}
	if err := access.RequireEnabled(keys); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range keys {
		if k.Name != "replicas" {
			continue
		}
		found = true
		if k.DailyDownloadLimit == nil || *k.DailyDownloadLimit != 0 {
			t.Errorf("the replicas' key has daily_download_limit %v, want 0", k.DailyDownloadLimit)
		}
		if !k.IncludeOther || !k.Features.PEPLevel || !k.Features.SourceCountry {
			t.Errorf("the replicas' key does not mirror everything: %+v", k)
		}
	}
	if !found {
		t.Error("no key named replicas")
	}
	// The example is not a manifest: kubectl apply -f deploy/kubernetes/
	// must not meet it.
	if _, err := os.Stat(filepath.Join("kubernetes", "keys.example.json")); err == nil {
		t.Error("keys.example.json in deploy/kubernetes")
	}
}
