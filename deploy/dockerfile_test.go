package deploy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// There is no Docker engine to build the image with in the test
// environment, so the Dockerfile is checked as text: parsed into its
// instructions the way the Dockerfile frontend reads them (comments,
// parser directives, line continuations), then held to what the image
// must be.

// instruction is one Dockerfile instruction.
type instruction struct {
	line int    // where it starts
	cmd  string // upper case: FROM, RUN, ...
	args string // the rest, continuations joined
}

// parseDockerfile reads instructions; it refuses what it does not
// understand (heredocs, a continuation at the end of the file) rather than
// guess.
func parseDockerfile(text string) ([]instruction, error) {
	var out []instruction
	var cur *instruction
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur == nil) {
			continue // comments (also inside a continuation) and blank lines
		}
		if cur == nil {
			cmd, rest, _ := strings.Cut(trimmed, " ")
			cur = &instruction{line: n, cmd: strings.ToUpper(cmd)}
			trimmed = strings.TrimSpace(rest)
		}
		if strings.Contains(trimmed, "<<") && (cur.cmd == "RUN" || cur.cmd == "COPY") {
			return nil, fmt.Errorf("line %d: heredocs are not supported here", n)
		}
		if body, ok := strings.CutSuffix(trimmed, `\`); ok {
			cur.args += strings.TrimSpace(body) + " "
			continue
		}
		cur.args = strings.TrimSpace(cur.args + trimmed)
		out = append(out, *cur)
		cur = nil
	}
	if cur != nil {
		return nil, fmt.Errorf("line %d: %s continues past the end of the file", cur.line, cur.cmd)
	}
	return out, nil
}

// execForm decodes the JSON array form of ENTRYPOINT, CMD, VOLUME; the
// shell form (anything else) needs a shell, which the image has not.
func execForm(args string) ([]string, bool) {
	var words []string
	if err := json.Unmarshal([]byte(args), &words); err != nil || len(words) == 0 {
		return nil, false
	}
	return words, true
}

// pinnedBase: scratch, a digest, or a tag naming an exact release
// (golang:1.26.8), never latest or a moving minor tag.
var exactTag = regexp.MustCompile(`:v?\d+\.\d+\.\d+(?:-[\w.]+)?$`)

func pinnedBase(image string) bool {
	return image == "scratch" || strings.Contains(image, "@sha256:") || exactTag.MatchString(image)
}

// dockerImage is the parsed Dockerfile: its stages and the final one's
// settings.
type dockerImage struct {
	stages     [][]instruction // by FROM
	user       string
	volumes    []string
	expose     []string
	entrypoint []string
	cmd        []string
}

func loadDockerfile(t *testing.T) dockerImage {
	t.Helper()
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := parseDockerfile(string(data))
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	var img dockerImage
	for _, in := range ins {
		if in.cmd == "FROM" {
			img.stages = append(img.stages, nil)
		}
		if len(img.stages) == 0 {
			if in.cmd != "ARG" {
				t.Fatalf("Dockerfile line %d: %s before the first FROM", in.line, in.cmd)
			}
			continue
		}
		img.stages[len(img.stages)-1] = append(img.stages[len(img.stages)-1], in)
	}
	if len(img.stages) < 2 {
		t.Fatal("Dockerfile: want a build stage and a final stage")
	}
	for _, in := range img.stages[len(img.stages)-1] {
		switch in.cmd {
		case "USER":
			img.user = in.args
		case "EXPOSE":
			img.expose = append(img.expose, strings.Fields(in.args)...)
		case "VOLUME":
			v, ok := execForm(in.args)
			if !ok {
				v = strings.Fields(in.args)
			}
			img.volumes = append(img.volumes, v...)
		case "ENTRYPOINT", "CMD":
			words, ok := execForm(in.args)
			if !ok {
				t.Errorf("Dockerfile line %d: %s in shell form needs a shell, which the image has not: use [\"...\"]", in.line, in.cmd)
			}
			if in.cmd == "CMD" {
				img.cmd = words
			} else {
				img.entrypoint = words
			}
		}
	}
	return img
}

func TestParseDockerfile(t *testing.T) {
	ins, err := parseDockerfile("# syntax=docker/dockerfile:1\nFROM a AS b\n# note\nRUN x \\\n  # inside\n  && y\n\nCMD [\"p\"]\n")
	want := []instruction{{2, "FROM", "a AS b"}, {4, "RUN", "x && y"}, {8, "CMD", `["p"]`}}
	if err != nil || !slices.Equal(ins, want) {
		t.Fatalf("got %+v, %v", ins, err)
	}
	if _, err := parseDockerfile("RUN x \\\n"); err == nil {
		t.Fatal("a continuation past the end was accepted")
	}
	if _, ok := execForm(`amlscreen serve`); ok {
		t.Fatal("shell form read as exec form")
	}
	for image, want := range map[string]bool{"scratch": true, "golang:1.26.8": true, "golang:1.26.8-trixie": true,
		"golang@sha256:0123": true, "golang:1.26": false, "golang:latest": false, "golang": false} {
		if pinnedBase(image) != want {
			t.Errorf("pinnedBase(%q) = %v", image, !want)
		}
	}
}

// TestDockerfile: a static binary built in one stage, copied into an image
// with no shell that runs it as a non-root user, the store on a volume.
func TestDockerfile(t *testing.T) {
	img := loadDockerfile(t)
	for i, st := range img.stages {
		base := strings.Fields(st[0].args)[0]
		if !pinnedBase(base) {
			t.Errorf("stage %d: base image %q is not pinned to a release or digest", i+1, base)
		}
	}
	final := img.stages[len(img.stages)-1]
	if base := strings.Fields(final[0].args)[0]; base != "scratch" && !strings.Contains(base, "distroless") {
		t.Errorf("final image from %s; want scratch or distroless: no shell", base)
	}
	for _, in := range final {
		if in.cmd == "RUN" || in.cmd == "SHELL" {
			t.Errorf("line %d: %s in the final stage needs a shell", in.line, in.cmd)
		}
	}
	checkHealthcheck(t, img, final)

	// The build: static (no C library in the image), no build paths, the
	// command itself.
	built := false
	for _, st := range img.stages[:len(img.stages)-1] {
		for _, in := range st {
			if in.cmd == "RUN" && strings.Contains(in.args, "go build") {
				built = true
				for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "./cmd/amlscreen", "-o /out/amlscreen"} {
					if !strings.Contains(in.args, want) {
						t.Errorf("line %d: go build without %s", in.line, want)
					}
				}
			}
		}
	}
	if !built {
		t.Error("no go build in the build stage")
	}

	// What the final stage holds.
	copies := map[string]string{} // destination -> sources
	for _, in := range final {
		if in.cmd != "COPY" {
			continue
		}
		var words []string
		for _, w := range strings.Fields(in.args) {
			if !strings.HasPrefix(w, "--") {
				words = append(words, w)
			}
		}
		dst := words[len(words)-1]
		for _, src := range words[:len(words)-1] {
			d := dst
			if strings.HasSuffix(dst, "/") {
				d = dst + path.Base(src)
			}
			copies[d] = src
		}
	}
	for _, want := range []string{"/etc/passwd", "/etc/group", "/etc/ssl/certs/ca-certificates.crt", "/usr/local/bin/amlscreen", "/var/lib/amlscreen"} {
		if _, ok := copies[want]; !ok {
			t.Errorf("the final image has no %s", want)
		}
	}
	if copies["/usr/local/bin/amlscreen"] != "/out/amlscreen" {
		t.Errorf("/usr/local/bin/amlscreen comes from %q, not the binary built", copies["/usr/local/bin/amlscreen"])
	}

	// A numeric non-root user, which has a passwd entry and owns the
	// store's directory.
	uid, gid, _ := strings.Cut(img.user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("USER %q: want a numeric non-root uid (runAsNonRoot can only check a number)", img.user)
	}
	dockerfile, _ := os.ReadFile("Dockerfile")
	if !strings.Contains(string(dockerfile), fmt.Sprintf(":x:%s:%s:", uid, gid)) {
		t.Errorf("no passwd entry for USER %s", img.user)
	}
	if !strings.Contains(string(dockerfile), fmt.Sprintf("--chown=%s:%s /rootfs/var/lib/amlscreen /var/lib/amlscreen", uid, gid)) {
		t.Errorf("/var/lib/amlscreen is not owned by USER %s", img.user)
	}

	if !slices.Equal(img.volumes, []string{"/var/lib/amlscreen"}) {
		t.Errorf("VOLUME %v; want the store's directory /var/lib/amlscreen", img.volumes)
	}
	if !slices.Equal(img.entrypoint, []string{"/usr/local/bin/amlscreen"}) {
		t.Errorf("ENTRYPOINT %v; want amlscreen alone, so that arguments are its subcommands", img.entrypoint)
	}
	// The default command is one the CLI accepts, keeps the store on the
	// volume, and listens on the exposed port.
	cl := parseCommandLine(t, "Dockerfile CMD", img.cmd)
	if cl.sub != "serve" || path.Dir(cl.flags["store"]) != "/var/lib/amlscreen" {
		t.Errorf("CMD %v: want serve with the store in the volume", img.cmd)
	}
	if p := listenPort(t, cl); !slices.Contains(img.expose, strconv.Itoa(int(p))) {
		t.Errorf("CMD listens on %d; EXPOSE %v", p, img.expose)
	}
}

// TestImageMatchesManifests: the manifests run the image as the Dockerfile
// builds it: its user, its volume.
func TestImageMatchesManifests(t *testing.T) {
	img := loadDockerfile(t)
	uid, _, _ := strings.Cut(img.user, ":")
	cl := loadCluster(t)
	for _, w := range cl.workloads() {
		if sc := w.template.Spec.SecurityContext; sc == nil || sc.RunAsUser == nil || strconv.FormatInt(*sc.RunAsUser, 10) != uid {
			t.Errorf("%s: runAsUser is not the image's user %s", w.name, uid)
		}
		for _, c := range allContainers(&w.template.Spec) {
			if m := mountOf(c, img.volumes[0]+"/aml.db"); m == nil || m.MountPath != img.volumes[0] {
				t.Errorf("%s container %s: nothing mounted on the image's volume %s", w.name, c.Name, img.volumes[0])
			}
		}
	}
}

// checkHealthcheck: the final stage has a HEALTHCHECK in exec form (the
// image has no shell) that runs amlscreen probe on the port the default
// command listens on, with a timeout inside Docker's.
func checkHealthcheck(t *testing.T, img dockerImage, final []instruction) {
	t.Helper()
	var hc *instruction
	for i := range final {
		if final[i].cmd == "HEALTHCHECK" {
			hc = &final[i]
		}
	}
	if hc == nil {
		t.Error("no HEALTHCHECK in the final stage: amlscreen probe serves as one")
		return
	}
	opts, cmd, ok := strings.Cut(hc.args, "CMD ")
	if !ok {
		t.Errorf("line %d: HEALTHCHECK %s: want CMD [...]", hc.line, hc.args)
		return
	}
	words, ok := execForm(strings.TrimSpace(cmd))
	if !ok || len(words) < 2 || words[0] != "/usr/local/bin/amlscreen" {
		t.Errorf("line %d: HEALTHCHECK %s: want the exec form [\"/usr/local/bin/amlscreen\", \"probe\", ...]: there is no shell", hc.line, cmd)
		return
	}
	cl := parseCommandLine(t, "Dockerfile HEALTHCHECK", words[1:])
	if cl.sub != "probe" {
		t.Errorf("HEALTHCHECK runs amlscreen %s, want probe", cl.sub)
	}
	if got, want := listenPort(t, cl), listenPort(t, parseCommandLine(t, "Dockerfile CMD", img.cmd)); got != want {
		t.Errorf("HEALTHCHECK probes port %d, the CMD listens on %d", got, want)
	}
	var timeout time.Duration
	for _, f := range strings.Fields(opts) {
		if v, ok := strings.CutPrefix(f, "--timeout="); ok {
			timeout, _ = time.ParseDuration(v)
		}
	}
	probeTimeout, err := time.ParseDuration(cl.flags["timeout"])
	if timeout == 0 || err != nil || probeTimeout >= timeout {
		t.Errorf("HEALTHCHECK --timeout=%v, probe --timeout %q: the probe must give up first and say why", timeout, cl.flags["timeout"])
	}
}
