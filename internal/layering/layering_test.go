package layering

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/amlscreen/amlscreen/"

// deps returns the packages of this module pkg imports, directly or not,
// and pkg itself, as go list -deps does, from the module's graph g (one go
// list for every package instead of one per package).
func deps(g map[string][]string, pkg string) []string {
	seen := map[string]bool{pkg: true}
	mine := []string{pkg}
	for i := 0; i < len(mine); i++ {
		for _, imp := range g[mine[i]] {
			if _, ok := g[imp]; ok && !seen[imp] {
				seen[imp] = true
				mine = append(mine, imp)
			}
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
	g := graph(t)
	if _, ok := g["service"]; !ok {
		t.Fatalf("the module's graph lacks service: %v", g)
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
		{"monitor", []string{"bench", "server", "screen"}},
		{"batch", []string{"bench", "server", "screen", "store"}},
		// The rules of access are below every surface.
		{"access", []string{"server", "monitor", "screen", "engine", "batch", "service"}},
		// The engine knows no storage, the store no engine.
		{"engine", []string{"store", "screen", "access", "server"}},
		{"store", []string{"engine", "screen", "dict"}},
		// The request vocabulary is below the matcher and the storage.
		{"query", []string{"engine", "store", "screen"}},
		{"internal/mediagen", []string{"bench"}},
		// The table reader is below both batch and convert.
		{"table", []string{"batch", "convert", "store", "screen"}},
		{"convert", []string{"batch", "store", "screen"}},
	} {
		got := deps(g, tt.pkg)
		for _, f := range tt.forbidden {
			if slices.Contains(got, f) {
				t.Errorf("%s imports %s", tt.pkg, f)
			}
		}
	}
}

// graph returns every package of the module with the packages it imports
// directly (tests excluded): the module's by their path inside it, the
// others by their full path.
func graph(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list %s...: %v", module, err)
	}
	g := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			g[pkg] = append(g[pkg], strings.TrimPrefix(imp, module))
		}
		if _, ok := g[pkg]; !ok {
			g[pkg] = nil
		}
	}
	return g
}

// importRule says which packages may import target (a package, or every
// package under target/ when it ends in "/..."): only those in allowed.
type importRule struct {
	target  string
	allowed []string
	why     string
}

// matches reports whether the import path imp is the rule's target.
func (r importRule) matches(imp string) bool {
	if base, ok := strings.CutSuffix(r.target, "/..."); ok {
		return imp == base || strings.HasPrefix(imp, base+"/")
	}
	return imp == r.target
}

// importRules are the owners of the store's file and of the HTTP surface.
var importRules = []importRule{
	// One package owns the bbolt file: the others keep their state in
	// store's sub-stores through store.Tx.
	{"go.etcd.io/bbolt/...", []string{"store"}, "only store owns the bbolt file"},
	// The HTTP server and the workbench are assembled by service; the
	// workbench calls the API through the server in process, and the CLI
	// reads the workbench's sign-in settings (OIDC) for serve.
	{"server", []string{"service", "ui"}, "the HTTP server is reached through service"},
	{"ui", []string{"service", "cmd/amlscreen"}, "the workbench is mounted by service"},
	// Books and watchlists are read by one table reader; batch and convert
	// both use it and neither reaches into the other.
	{"batch", []string{"book", "casework", "cmd/amlscreen"}, "convert reads tables through table, not batch"},
	// One package per public list, as watchman's pkg/sources: the lists
	// share convert/internal/conv, never each other, and convert's
	// catalogue dispatches to them.
	{"convert", []string{"cmd/amlscreen", "lists"}, "convert is the catalogue above the lists"},
	{"convert/internal/convtest", nil, "convtest is for tests only"},
	// The /v1 answer JSON is written by the HTTP server, and by the CLI's
	// check, which prints that same answer; the matcher returns hits and
	// knows no response format.
	{"response", []string{"server", "cmd/amlscreen"}, "only the HTTP server and the CLI's check write the /v1 answer JSON"},
}

// listPackages are the packages of convert that each convert one list.
var listPackages = []string{"csl", "dpl", "eu", "ofac", "opensanctions", "uk", "un", "watchlist"}

func init() {
	for _, l := range listPackages {
		importRules = append(importRules, importRule{"convert/" + l, []string{"convert", "cmd/amlscreen", "lists"}, "a list's converter is used through convert, the CLI and lists, not by another list"})
	}
}

// depBan says that pkg must not depend on any of forbidden, directly or
// through other packages of the module.
type depBan struct {
	pkg       string
	forbidden []string
	why       string
}

// depBans keep the lowest packages low.
var depBans = []depBan{
	// Front ends read and check parameters with query; if it pulled in the
	// matcher or the storage, every front end would again.
	{"query", []string{"engine", "index", "store", "screen", "bench"}, "the request vocabulary is below the matcher and the storage"},
}

// banned returns the dependencies of g that break bans, one line each,
// naming the package through which the forbidden one is reached.
func banned(g map[string][]string, bans []depBan) []string {
	var out []string
	for _, b := range bans {
		seen := map[string]bool{b.pkg: true}
		stack := []string{b.pkg}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, imp := range g[p] {
				if seen[imp] {
					continue
				}
				seen[imp] = true
				if slices.Contains(b.forbidden, imp) {
					out = append(out, b.pkg+" depends on "+imp+" through "+p+": "+b.why)
				}
				stack = append(stack, imp)
			}
		}
	}
	slices.Sort(out)
	return out
}

// violations returns the imports of g that break rules, one line each.
func violations(g map[string][]string, rules []importRule) []string {
	var out []string
	for pkg, imps := range g {
		for _, imp := range imps {
			for _, r := range rules {
				if r.matches(imp) && !slices.Contains(r.allowed, pkg) && !r.matches(pkg) {
					out = append(out, pkg+" imports "+imp+": "+r.why)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestImportOwners: bbolt, the HTTP server, the workbench and batch are
// imported only by the packages importRules allow.
func TestImportOwners(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	g := graph(t)
	want := []string{"store", "casework", "table", "convert", "server", "response", "query"}
	for _, l := range listPackages {
		want = append(want, "convert/"+l)
	}
	for _, want := range want {
		if _, ok := g[want]; !ok {
			t.Fatalf("go list found no package %s: %v", want, g)
		}
	}
	for _, v := range violations(g, importRules) {
		t.Error(v)
	}
	for _, v := range banned(g, depBans) {
		t.Error(v)
	}
}

// TestImportRulesBite: each rule reports an import it forbids, and none
// it allows, so that TestImportOwners cannot pass by matching nothing.
func TestImportRulesBite(t *testing.T) {
	g := map[string][]string{
		"monitor":       {"store", "go.etcd.io/bbolt", "response"},
		"media":         {"go.etcd.io/bbolt/errors"},
		"store":         {"go.etcd.io/bbolt", "record"},
		"casework":      {"go.etcd.io/bbolt", "store"},
		"book":          {"go.etcd.io/bbolt", "store"},
		"cmd/amlscreen": {"server", "service", "batch"},
		"service":       {"server", "ui"},
		"server":        {"ui"},
		"convert":       {"batch", "table"},
		"convert/un":    {"convert/ofac", "convert/internal/conv"},
		"convert/ofac":  {"convert/internal/conv"},
		"engine":        {"record", "response"},
	}
	got := violations(g, importRules)
	want := []string{
		"book imports go.etcd.io/bbolt: only store owns the bbolt file",
		"casework imports go.etcd.io/bbolt: only store owns the bbolt file",
		"cmd/amlscreen imports server: the HTTP server is reached through service",
		"convert imports batch: convert reads tables through table, not batch",
		"convert/un imports convert/ofac: a list's converter is used through convert, the CLI and lists, not by another list",
		"engine imports response: only the HTTP server and the CLI's check write the /v1 answer JSON",
		"media imports go.etcd.io/bbolt/errors: only store owns the bbolt file",
		"monitor imports go.etcd.io/bbolt: only store owns the bbolt file",
		"monitor imports response: only the HTTP server and the CLI's check write the /v1 answer JSON",
		"server imports ui: the workbench is mounted by service",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDepBansBite: a ban reports a forbidden package imported directly or
// reached through another, and nothing else, so that TestImportOwners
// cannot pass by matching nothing.
func TestDepBansBite(t *testing.T) {
	g := map[string][]string{
		"query":     {"record", "normalize", "store"},
		"normalize": {"engine"},
		"engine":    {"query", "record"},
		"record":    {"jsonl"},
		"store":     {"record"},
	}
	got := banned(g, depBans)
	want := []string{
		"query depends on engine through normalize: the request vocabulary is below the matcher and the storage",
		"query depends on store through query: the request vocabulary is below the matcher and the storage",
	}
	if !slices.Equal(got, want) {
		t.Errorf("banned:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	g["query"] = []string{"record", "country"}
	if got := banned(g, depBans); len(got) != 0 {
		t.Errorf("query on record and country: %v, want nothing banned", got)
	}
}
