package deploy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestProbesAnsweredByServe asks a real amlscreen serve every path the
// manifests' probes ask, so a renamed health endpoint fails here and not
// in a cluster that restarts its pods for ever.
func TestProbesAnsweredByServe(t *testing.T) {
	t.Parallel()
	cl := loadCluster(t)
	paths := map[string]bool{}
	for _, w := range cl.workloads() {
		for _, c := range w.template.Spec.Containers {
			for _, p := range []*corev1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
				if p != nil && p.HTTPGet != nil {
					paths[p.HTTPGet.Path] = true
				}
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no HTTP probes in the manifests")
	}

	bin := amlscreenBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bin, "import", "--store", db, "../sampledata/default.jsonl.gz").CombinedOutput(); err != nil {
		t.Fatalf("import the sample: %v\n%s", err, out)
	}
	keys := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key": "k_probe_test_0123456789", "name": "probe-test"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	base := serveAt(t, "--store", db, "--keys", keys, "--signing-keys", filepath.Join(dir, "signing-keys"))
	for p := range paths {
		if code := httpStatus(t, base+p); code != 200 {
			t.Errorf("a probe asks %s; serve answers %d", p, code)
		}
	}
}
