package layering

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/amlscreen/amlscreen/"

// deps returns the packages of this module pkg imports, directly or not.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var mine []string
	for _, p := range strings.Fields(string(out)) {
		if rest, ok := strings.CutPrefix(p, module); ok {
			mine = append(mine, rest)
		}
	}
	return mine
}

// imports returns the packages of this module pkg imports directly.
func imports(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	var mine []string
	for _, p := range strings.Fields(string(out)) {
		if rest, ok := strings.CutPrefix(p, module); ok {
			mine = append(mine, rest)
		}
	}
	return mine
}

// TestCommandLineUsesTheService: the CLI reaches the HTTP server only
// through the service assembly, and reads keys through access.
func TestCommandLineUsesTheService(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	got := imports(t, "cmd/amlscreen")
	if slices.Contains(got, "server") {
		t.Error("cmd/amlscreen imports server")
	}
	for _, want := range []string{"service", "access"} {
		if !slices.Contains(got, want) {
			t.Errorf("cmd/amlscreen does not import %s: %v", want, got)
		}
	}
}

// TestLayering: what the product ships and serves does not depend on the
// measurement code, on the CLI or on packages above it.
func TestLayering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, tt := range []struct {
		pkg       string
		forbidden []string
	}{
		// The server, what it answers from, and the embedded samples never
		// depend on benchmarks.
		{"service", []string{"bench", "cmd/amlscreen"}},
		{"server", []string{"bench", "service", "batch", "cmd/amlscreen"}},
		{"media", []string{"bench", "server", "internal/gen", "internal/mediagen"}},
		{"sampledata", []string{"bench", "internal/gen"}},
		{"monitor", []string{"bench", "server", "live"}},
		{"batch", []string{"bench", "server", "live", "store"}},
		// The rules of access are below every surface.
		{"access", []string{"server", "monitor", "live", "batch", "service"}},
		// The engine knows no storage, the store no engine.
		{"engine", []string{"store", "live", "access", "server"}},
		{"store", []string{"engine", "live", "dict"}},
		{"internal/mediagen", []string{"bench"}},
	} {
		got := deps(t, tt.pkg)
		for _, f := range tt.forbidden {
			if slices.Contains(got, f) {
				t.Errorf("%s imports %s", tt.pkg, f)
			}
		}
	}
}
