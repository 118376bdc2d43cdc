package deploy

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// unit is a systemd unit file: every value of every key, by section.
type unit map[string]map[string][]string

// get returns the last value of key in section ("" when absent), which is
// the one systemd uses for single-valued settings.
func (u unit) get(section, key string) string {
	v := u[section][key]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// parseUnit reads a unit file as systemd does: [Section] headers,
// Key=Value lines, # and ; comments, backslash continuations. Lines that
// are none of these are errors (systemd would ignore them with a warning).
func parseUnit(text string) (unit, error) {
	u := unit{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	var pending string
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if pending == "" && (line == "" || line[0] == '#' || line[0] == ';') {
			continue
		}
		if body, ok := strings.CutSuffix(line, `\`); ok {
			pending += body + " "
			continue
		}
		line, pending = strings.TrimSpace(pending+line), ""
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || section == "" || strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("line %d: %q is not Key=Value in a section", n, line)
		}
		key = strings.TrimSpace(key)
		u[section][key] = append(u[section][key], strings.TrimSpace(value))
	}
	return u, nil
}

// execArgs splits an ExecStart line. The units use plain words only:
// quotes, $VARIABLES and %specifiers, which systemd would rewrite, are
// refused so the words checked are the words run.
func execArgs(line string) ([]string, error) {
	if strings.ContainsAny(line, `"'$%\`) {
		return nil, fmt.Errorf("%q: use plain words (no quotes, variables or specifiers)", line)
	}
	return strings.Fields(line), nil
}

// parseSystemdSize reads MemoryMax= and the like: bytes with an optional
// K, M, G or T (powers of 1024).
func parseSystemdSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}

func TestParseUnit(t *testing.T) {
	u, err := parseUnit("# c\n[Service]\n; c\nExecStart=/bin/x \\\n  --a b\nX=1\nX=2\n")
	if err != nil || u.get("Service", "ExecStart") != "/bin/x  --a b" || u.get("Service", "X") != "2" || len(u["Service"]["X"]) != 2 {
		t.Fatalf("got %v, %v", u, err)
	}
	for _, bad := range []string{"Key=Value\n", "[Service]\nnot a setting\n"} {
		if _, err := parseUnit(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := execArgs(`/bin/x --a "b c"`); err == nil {
		t.Error("quotes accepted")
	}
}

// hardening is what every unit must set, with the value it must have.
var hardening = map[string]string{
	"NoNewPrivileges":         "yes",
	"CapabilityBoundingSet":   "",
	"AmbientCapabilities":     "",
	"ProtectSystem":           "strict",
	"ProtectHome":             "yes",
	"PrivateTmp":              "yes",
	"PrivateDevices":          "yes",
	"ProtectKernelTunables":   "yes",
	"ProtectKernelModules":    "yes",
	"ProtectControlGroups":    "yes",
	"RestrictSUIDSGID":        "yes",
	"RestrictNamespaces":      "yes",
	"LockPersonality":         "yes",
	"MemoryDenyWriteExecute":  "yes",
	"SystemCallArchitectures": "native",
	"SystemCallErrorNumber":   "EPERM",
	"UMask":                   "0077",
}

// TestSystemdUnits: each unit runs an amlscreen serve command line the
// CLI accepts, as an unprivileged user, with its store in the unit's state
// directory (the one place ProtectSystem=strict lets it write), its key in
// an environment file, room for the drain on stop, and the hardening set.
func TestSystemdUnits(t *testing.T) {
	files, err := filepath.Glob("systemd/*.service")
	if err != nil || len(files) < 2 {
		t.Fatalf("want the single-host and the replica unit, found %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			u, err := parseUnit(string(data))
			if err != nil {
				t.Fatal(err)
			}
			svc := u["Service"]
			if svc == nil || u["Install"] == nil || u["Unit"] == nil {
				t.Fatal("want [Unit], [Service] and [Install]")
			}
			args, err := execArgs(u.get("Service", "ExecStart"))
			if err != nil {
				t.Fatal(err)
			}
			if len(args) == 0 || args[0] != "/usr/local/bin/amlscreen" {
				t.Fatalf("ExecStart %v does not run /usr/local/bin/amlscreen", args)
			}
			cl := parseCommandLine(t, f+" ExecStart", args[1:])
			if cl.sub != "serve" {
				t.Fatalf("ExecStart runs %s, not serve", cl.sub)
			}
			if user := u.get("Service", "User"); user == "" || user == "root" || user == "0" {
				t.Errorf("User=%q: run as an unprivileged user", user)
			}
			state := u.get("Service", "StateDirectory")
			if state == "" || path.Dir(cl.flags["store"]) != "/var/lib/"+state {
				t.Errorf("--store %s is not in the StateDirectory /var/lib/%s, the only place the unit may write", cl.flags["store"], state)
			}
			for _, f := range []string{"keys", "signing-keys"} {
				if p, ok := cl.flags[f]; ok && !strings.HasPrefix(p, "/etc/amlscreen/") {
					t.Errorf("--%s %s: keep configuration under /etc/amlscreen", f, p)
				}
			}
			if cl.has("api-key") || !cl.has("upstream") || u.get("Service", "EnvironmentFile") == "" {
				t.Error("the upstream key comes from EnvironmentFile (AMLSCREEN_API_KEY), never from the command line")
			}
			if u.get("Service", "ExecReload") != "/bin/kill -HUP $MAINPID" {
				t.Error("ExecReload must send SIGHUP, which reloads the keys file")
			}
			stop, err := time.ParseDuration(u.get("Service", "TimeoutStopSec") + "s")
			if err != nil || stop < 30*time.Second {
				t.Errorf("TimeoutStopSec=%s: serve drains for 25 s after SIGTERM", u.get("Service", "TimeoutStopSec"))
			}
			soft, err1 := parseGoMemLimit(strings.TrimPrefix(u.get("Service", "Environment"), "GOMEMLIMIT="))
			hard, err2 := parseSystemdSize(u.get("Service", "MemoryMax"))
			if err1 != nil || err2 != nil || soft >= hard {
				t.Errorf("want Environment=GOMEMLIMIT below MemoryMax: %v %v", err1, err2)
			}
			for k, want := range hardening {
				if v, ok := svc[k]; !ok || v[len(v)-1] != want {
					t.Errorf("%s=%q, want %q", k, u.get("Service", k), want)
				}
			}
			if every, err := parseDuration(cl.flags["every"]); err != nil || 1+(24*3600+every-1)/every > 50 {
				t.Errorf("--every %s: more downloads a day than the upstream's 50", cl.flags["every"])
			}
			if strings.Contains(f, "replica") != cl.has("signing-keys") {
				t.Error("a replica signs with the primary's keyring (--signing-keys); the primary keeps its own in the state directory")
			}
		})
	}
}
