package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/amlscreen/amlscreen/batch"
)

// The manifests are decoded into the typed objects of k8s.io/api with
// unknown fields, duplicate keys and keys in the wrong case refused, the
// way the API server's strict field validation refuses them (the same
// sigs.k8s.io/json decoder): a misspelt or misplaced field (livenesProbe,
// clusterIp, a probe under the pod instead of the container) would
// otherwise be dropped without a word, and the cluster would run something
// other than what the file says.

// newObject makes the typed object for an apiVersion/kind the manifests may
// hold; any other kind is refused.
var newObject = map[string]func() metav1.Object{
	"v1/Service":                             func() metav1.Object { return new(corev1.Service) },
	"v1/PersistentVolumeClaim":               func() metav1.Object { return new(corev1.PersistentVolumeClaim) },
	"apps/v1/StatefulSet":                    func() metav1.Object { return new(appsv1.StatefulSet) },
	"apps/v1/Deployment":                     func() metav1.Object { return new(appsv1.Deployment) },
	"batch/v1/Job":                           func() metav1.Object { return new(batchv1.Job) },
	"policy/v1/PodDisruptionBudget":          func() metav1.Object { return new(policyv1.PodDisruptionBudget) },
	"autoscaling/v2/HorizontalPodAutoscaler": func() metav1.Object { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"networking.k8s.io/v1/Ingress":           func() metav1.Object { return new(networkingv1.Ingress) },
}

// splitDocuments splits a YAML stream at its "---" lines and drops
// documents holding nothing but comments.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	meaningful := false
	flush := func() {
		if meaningful {
			docs = append(docs, bytes.Clone(cur.Bytes()))
		}
		cur.Reset()
		meaningful = false
	}
	for line := range bytes.Lines(data) {
		trimmed := bytes.TrimSpace(line)
		if bytes.Equal(trimmed, []byte("---")) || bytes.HasPrefix(trimmed, []byte("--- ")) {
			flush()
			continue
		}
		if len(trimmed) > 0 && trimmed[0] != '#' {
			meaningful = true
		}
		cur.Write(line)
	}
	flush()
	return docs
}

// decodeManifest decodes every document of a manifest file strictly into
// its typed object.
func decodeManifest(data []byte) ([]metav1.Object, error) {
	var objs []metav1.Object
	for i, doc := range splitDocuments(data) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		mk := newObject[tm.APIVersion+"/"+tm.Kind]
		if mk == nil {
			return nil, fmt.Errorf("document %d: apiVersion %q kind %q is not a kind these manifests use", i+1, tm.APIVersion, tm.Kind)
		}
		obj := mk()
		j, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, tm.Kind, err)
		}
		strictErrs, err := kjson.UnmarshalStrict(j, obj)
		if err == nil {
			err = errors.Join(strictErrs...)
		}
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, tm.Kind, err)
		}
		if obj.GetName() == "" && obj.GetGenerateName() == "" {
			return nil, fmt.Errorf("document %d (%s): no metadata.name", i+1, tm.Kind)
		}
		objs = append(objs, obj)
	}
	if len(objs) == 0 {
		return nil, errors.New("no Kubernetes object in the file")
	}
	return objs, nil
}

// TestDecodeIsStrict: the decoder the other tests rely on refuses what the
// API server's strict validation refuses.
func TestDecodeIsStrict(t *testing.T) {
	const head = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"
	tests := []struct {
		name, doc, err string
	}{
		{"unknown field", head + "spec:\n  clusterIp: None\n", `unknown field "spec.clusterIp"`},
		{"field in the wrong place", head + "spec:\n  ports:\n  - port: 80\n    path: /x\n", `unknown field "spec.ports[0].path"`},
		{"duplicate key", head + "spec:\n  type: ClusterIP\n  type: NodePort\n", "already set"},
		{"misspelt field", head + "spec:\n  selector: {app: x}\n  sessionAfinity: None\n", `unknown field "spec.sessionAfinity"`},
		{"wrong type", head + "spec:\n  ports: 80\n", "cannot unmarshal"},
		{"unknown kind", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n", "not a kind"},
		{"no name", "apiVersion: v1\nkind: Service\nspec: {}\n", "no metadata.name"},
		{"only comments", "# nothing\n---\n# here\n", "no Kubernetes object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeManifest([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want an error with %q", err, tc.err)
			}
		})
	}
	objs, err := decodeManifest([]byte("# a comment\n---\n" + head + "spec:\n  clusterIP: None\n---\n" + head))
	if err != nil || len(objs) != 2 || objs[0].(*corev1.Service).Spec.ClusterIP != "None" {
		t.Fatalf("two documents: %v %v", objs, err)
	}
}

// cluster is every object of deploy/kubernetes, by kind and name (a Job by
// its generateName).
type cluster struct {
	services     map[string]*corev1.Service
	claims       map[string]*corev1.PersistentVolumeClaim
	statefulSets map[string]*appsv1.StatefulSet
	deployments  map[string]*appsv1.Deployment
	jobs         map[string]*batchv1.Job
	budgets      map[string]*policyv1.PodDisruptionBudget
	autoscalers  map[string]*autoscalingv2.HorizontalPodAutoscaler
	ingresses    map[string]*networkingv1.Ingress
}

func loadCluster(t *testing.T) *cluster {
	t.Helper()
	c := &cluster{
		services: map[string]*corev1.Service{}, claims: map[string]*corev1.PersistentVolumeClaim{},
		statefulSets: map[string]*appsv1.StatefulSet{}, deployments: map[string]*appsv1.Deployment{},
		jobs: map[string]*batchv1.Job{}, budgets: map[string]*policyv1.PodDisruptionBudget{},
		autoscalers: map[string]*autoscalingv2.HorizontalPodAutoscaler{}, ingresses: map[string]*networkingv1.Ingress{},
	}
	files := 0
	err := filepath.WalkDir("kubernetes", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return fmt.Errorf("%s: only YAML manifests belong in deploy/kubernetes", p)
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		objs, err := decodeManifest(data)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, o := range objs {
			name := o.GetName()
			if name == "" {
				name = o.GetGenerateName()
			}
			var dup bool
			switch o := o.(type) {
			case *corev1.Service:
				_, dup = c.services[name]
				c.services[name] = o
			case *corev1.PersistentVolumeClaim:
				_, dup = c.claims[name]
				c.claims[name] = o
			case *appsv1.StatefulSet:
				_, dup = c.statefulSets[name]
				c.statefulSets[name] = o
			case *appsv1.Deployment:
				_, dup = c.deployments[name]
				c.deployments[name] = o
			case *batchv1.Job:
				_, dup = c.jobs[name]
				c.jobs[name] = o
			case *policyv1.PodDisruptionBudget:
				_, dup = c.budgets[name]
				c.budgets[name] = o
			case *autoscalingv2.HorizontalPodAutoscaler:
				_, dup = c.autoscalers[name]
				c.autoscalers[name] = o
			case *networkingv1.Ingress:
				_, dup = c.ingresses[name]
				c.ingresses[name] = o
			}
			if dup {
				return fmt.Errorf("%s: a second %T named %s", p, o, name)
			}
			if o.GetNamespace() != "" {
				return fmt.Errorf("%s: %s names namespace %s; the manifests go into the namespace kubectl is given", p, name, o.GetNamespace())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no manifests in deploy/kubernetes")
	}
	return c
}

// workload is a pod template with where it came from.
type workload struct {
	name     string // kind/name
	template *corev1.PodTemplateSpec
	claims   []corev1.PersistentVolumeClaim // a StatefulSet's volumeClaimTemplates
}

func (c *cluster) workloads() []workload {
	var ws []workload
	for n, s := range c.statefulSets {
		ws = append(ws, workload{"StatefulSet/" + n, &s.Spec.Template, s.Spec.VolumeClaimTemplates})
	}
	for n, d := range c.deployments {
		ws = append(ws, workload{"Deployment/" + n, &d.Spec.Template, nil})
	}
	for n, j := range c.jobs {
		ws = append(ws, workload{"Job/" + n, &j.Spec.Template, nil})
	}
	slices.SortFunc(ws, func(a, b workload) int { return strings.Compare(a.name, b.name) })
	return ws
}

// volume returns the pod volume or claim template called name, as a
// description of its source ("secret:NAME", "emptyDir", "claim:NAME",
// "claimTemplate").
func (w workload) volume(name string) string {
	for _, v := range w.template.Spec.Volumes {
		if v.Name != name {
			continue
		}
		switch {
		case v.Secret != nil:
			return "secret:" + v.Secret.SecretName
		case v.EmptyDir != nil:
			return "emptyDir"
		case v.PersistentVolumeClaim != nil:
			return "claim:" + v.PersistentVolumeClaim.ClaimName
		}
		return "other"
	}
	for _, c := range w.claims {
		if c.Name == name {
			return "claimTemplate"
		}
	}
	return ""
}

// mountOf returns the volume mount under which p lies (the deepest one).
func mountOf(c *corev1.Container, p string) *corev1.VolumeMount {
	var best *corev1.VolumeMount
	for i, m := range c.VolumeMounts {
		if (p == m.MountPath || strings.HasPrefix(p, strings.TrimSuffix(m.MountPath, "/")+"/")) &&
			(best == nil || len(m.MountPath) > len(best.MountPath)) {
			best = &c.VolumeMounts[i]
		}
	}
	return best
}

func envVar(c *corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// allContainers returns the init containers, then the others.
func allContainers(spec *corev1.PodSpec) []*corev1.Container {
	var cs []*corev1.Container
	for i := range spec.InitContainers {
		cs = append(cs, &spec.InitContainers[i])
	}
	for i := range spec.Containers {
		cs = append(cs, &spec.Containers[i])
	}
	return cs
}

// varRef matches a $(VAR) reference, which Kubernetes expands in args from
// the container's environment.
var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// commandLines parses the args of every container of w with the real
// amlscreen and checks what holds for every container: the image's
// ENTRYPOINT runs (no command), the image is pinned, $(VAR)s are defined,
// the API key comes from a Secret and never from the command line, paths
// lie on the right volumes, and resources and GOMEMLIMIT are set.
func commandLines(t *testing.T, w workload) map[string]commandLine {
	t.Helper()
	lines := map[string]commandLine{}
	for _, c := range allContainers(&w.template.Spec) {
		where := w.name + " container " + c.Name
		if len(c.Command) > 0 {
			t.Errorf("%s: sets command; the image's ENTRYPOINT (amlscreen) should run", where)
		}
		if !pinnedImage(c.Image) {
			t.Errorf("%s: image %q is not pinned to a version or digest", where, c.Image)
		}
		for _, a := range c.Args {
			for _, m := range varRef.FindAllStringSubmatch(a, -1) {
				if envVar(c, m[1]) == nil {
					t.Errorf("%s: %s refers to $(%s), which the container's env does not define", where, a, m[1])
				}
			}
		}
		for _, m := range c.VolumeMounts {
			if v := w.volume(m.Name); v == "" {
				t.Errorf("%s: mounts volume %s, which the pod does not define", where, m.Name)
			} else if strings.HasPrefix(v, "secret:") && !m.ReadOnly {
				t.Errorf("%s: Secret volume %s is mounted writable", where, m.Name)
			}
		}
		cl := parseCommandLine(t, where, c.Args)
		lines[c.Name] = cl
		if cl.has("api-key") {
			t.Errorf("%s: --api-key puts the key in the process list; use AMLSCREEN_API_KEY from a Secret", where)
		}
		if cl.has("upstream") {
			if _, err := url.Parse(cl.flags["upstream"]); err != nil {
				t.Errorf("%s: --upstream: %v", where, err)
			}
			if e := envVar(c, "AMLSCREEN_API_KEY"); e == nil || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s: --upstream without AMLSCREEN_API_KEY from a Secret", where)
			}
		}
		if s, ok := cl.flags["store"]; ok {
			m := mountOf(c, path.Dir(s))
			switch {
			case m == nil:
				t.Errorf("%s: --store %s is on no volume: the store would be lost with the container", where, s)
			case m.ReadOnly && cl.sub != "batch" && cl.sub != "check":
				t.Errorf("%s: --store %s is on a read-only mount, and %s writes it", where, s, cl.sub)
			default:
				if v := w.volume(m.Name); v != "emptyDir" && v != "claimTemplate" && !strings.HasPrefix(v, "claim:") {
					t.Errorf("%s: --store %s is on volume %s (%s), not on a disk", where, s, m.Name, v)
				}
			}
		}
		if k, ok := cl.flags["keys"]; ok {
			m := mountOf(c, k)
			if m == nil || !m.ReadOnly || !strings.HasPrefix(w.volume(m.Name), "secret:") || path.Base(k) != "keys.json" {
				t.Errorf("%s: --keys %s is not keys.json on a read-only Secret volume", where, k)
			}
		}
		checkResources(t, where, c)
	}
	return lines
}

// pinnedImage: a tag other than latest, or a digest.
func pinnedImage(image string) bool {
	if strings.Contains(image, "@sha256:") {
		return true
	}
	slash := strings.LastIndex(image, "/")
	tag := ""
	if i := strings.LastIndex(image, ":"); i > slash {
		tag = image[i+1:]
	}
	return tag != "" && tag != "latest"
}

// checkResources: requests for CPU and memory (the scheduler and the
// autoscaler need them), a memory limit at or above the request, and
// GOMEMLIMIT below that limit, so the collector works harder before the
// kernel kills the process.
func checkResources(t *testing.T, where string, c *corev1.Container) {
	t.Helper()
	req, lim := c.Resources.Requests, c.Resources.Limits
	cpu, mem, memLimit := req[corev1.ResourceCPU], req[corev1.ResourceMemory], lim[corev1.ResourceMemory]
	if cpu.IsZero() || mem.IsZero() || memLimit.IsZero() {
		t.Errorf("%s: resources need CPU and memory requests and a memory limit: %v", where, c.Resources)
		return
	}
	if memLimit.Cmp(mem) < 0 {
		t.Errorf("%s: memory limit %s below the request %s", where, memLimit.String(), mem.String())
	}
	e := envVar(c, "GOMEMLIMIT")
	if e == nil {
		t.Errorf("%s: no GOMEMLIMIT", where)
		return
	}
	soft, err := parseGoMemLimit(e.Value)
	if err != nil {
		t.Errorf("%s: GOMEMLIMIT: %v", where, err)
		return
	}
	if soft >= memLimit.Value() {
		t.Errorf("%s: GOMEMLIMIT %s is not below the memory limit %s", where, e.Value, memLimit.String())
	}
	if soft < mem.Value()*3/10 {
		t.Errorf("%s: GOMEMLIMIT %s is far below the memory request %s: the collector would run all the time", where, e.Value, mem.String())
	}
}

// parseGoMemLimit reads a GOMEMLIMIT value: bytes with an optional B,
// KiB, MiB, GiB or TiB suffix, as the runtime reads it.
func parseGoMemLimit(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	num, mult := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	var n int64
	if _, err := fmt.Sscanf(num, "%d", &n); err != nil || fmt.Sprint(n) != num || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive size such as 6GiB", s)
	}
	return n * mult, nil
}

func TestParseGoMemLimit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"6GiB", 6 << 30}, {"1536MiB", 1536 << 20}, {"1000", 1000}, {"2TiB", 2 << 40}, {"6G", 0}, {"GiB", 0}, {"-1GiB", 0}, {"1.5GiB", 0}} {
		got, err := parseGoMemLimit(tc.in)
		if got != tc.want || (err == nil) != (tc.want != 0) {
			t.Errorf("parseGoMemLimit(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// checkSecurity: the pod and every container run as a non-root user with
// nothing they do not need.
func checkSecurity(t *testing.T, w workload) {
	t.Helper()
	spec := &w.template.Spec
	psc := spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Errorf("%s: the pod must set runAsNonRoot and a non-zero runAsUser", w.name)
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: no RuntimeDefault seccomp profile", w.name)
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Errorf("%s: amlscreen never calls the Kubernetes API; automountServiceAccountToken should be false", w.name)
	}
	for _, c := range allContainers(spec) {
		sc := c.SecurityContext
		where := w.name + " container " + c.Name
		switch {
		case sc == nil:
			t.Errorf("%s: no securityContext", where)
		case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
			t.Errorf("%s: allowPrivilegeEscalation must be false", where)
		case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
			t.Errorf("%s: readOnlyRootFilesystem must be true", where)
		case sc.Privileged != nil && *sc.Privileged:
			t.Errorf("%s: privileged", where)
		case sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0:
			t.Errorf("%s: capabilities must drop ALL and add none", where)
		case sc.RunAsUser != nil && *sc.RunAsUser == 0:
			t.Errorf("%s: runs as root", where)
		}
	}
}

// selects reports whether a matchLabels-only selector selects labels.
func selects(sel map[string]string, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// portNumber resolves a probe or service target port against a container.
func portNumber(c *corev1.Container, p intstr.IntOrString) int32 {
	if p.Type == intstr.Int {
		return p.IntVal
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort
		}
	}
	return -1
}

// TestWorkloads holds for every pod the manifests run: strict decoding,
// security, resources, and command lines the real CLI accepts.
func TestWorkloads(t *testing.T) {
	c := loadCluster(t)
	ws := c.workloads()
	if len(ws) < 3 {
		t.Fatalf("want the primary, the replicas and the batch Job; found %d workloads", len(ws))
	}
	for _, w := range ws {
		checkSecurity(t, w)
		commandLines(t, w)
	}
}

// serveContainer returns the container of w that runs amlscreen serve.
func serveContainer(t *testing.T, w workload) (*corev1.Container, commandLine) {
	t.Helper()
	lines := commandLines(t, w)
	for i := range w.template.Spec.Containers {
		c := &w.template.Spec.Containers[i]
		if lines[c.Name].sub == "serve" {
			return c, lines[c.Name]
		}
	}
	t.Fatalf("%s: no container runs amlscreen serve", w.name)
	return nil, commandLine{}
}

// checkServe: the probes ask /readyz and /healthz on the port serve
// listens on, the signing keyring is a Secret mounted where
// --signing-keys points, and the grace period outlasts serve's drain.
func checkServe(t *testing.T, w workload) (*corev1.Container, commandLine) {
	t.Helper()
	c, cl := serveContainer(t, w)
	port := listenPort(t, cl)
	if portNumber(c, intstr.FromString("http")) != port {
		t.Errorf("%s: container port http is not --listen's %d", w.name, port)
	}
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"startupProbe", c.StartupProbe, "/readyz"}, {"readinessProbe", c.ReadinessProbe, "/readyz"}, {"livenessProbe", c.LivenessProbe, "/healthz"}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("%s: no HTTP %s", w.name, p.name)
			continue
		}
		if p.probe.HTTPGet.Path != p.path || portNumber(c, p.probe.HTTPGet.Port) != port {
			t.Errorf("%s: %s asks %s on port %v; serve answers %s on %d", w.name, p.name, p.probe.HTTPGet.Path, p.probe.HTTPGet.Port.String(), p.path, port)
		}
	}
	sk, ok := cl.flags["signing-keys"]
	if m := mountOf(c, sk); !ok || m == nil || m.MountPath != sk || !m.ReadOnly || w.volume(m.Name) != "secret:amlscreen-signing-keys" {
		t.Errorf("%s: --signing-keys must be the amlscreen-signing-keys Secret, mounted read-only at its path: every server behind one address signs with one keyring", w.name)
	}
	// serve drains for 25 s after SIGTERM, after the preStop pause.
	grace := w.template.Spec.TerminationGracePeriodSeconds
	pause := int64(0)
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pause = c.Lifecycle.PreStop.Sleep.Seconds
	}
	if grace == nil || *grace < pause+25+5 {
		t.Errorf("%s: terminationGracePeriodSeconds must cover the preStop pause (%d s) and serve's 25 s drain", w.name, pause)
	}
	return c, cl
}

// serviceFor returns the Service that selects w's pods, and checks that it
// selects no other workload's and that its target ports exist.
func serviceFor(t *testing.T, cl *cluster, w workload, c *corev1.Container) *corev1.Service {
	t.Helper()
	var found *corev1.Service
	for name, s := range cl.services {
		if !selects(s.Spec.Selector, w.template.Labels) {
			continue
		}
		for _, other := range cl.workloads() {
			if other.name != w.name && selects(s.Spec.Selector, other.template.Labels) {
				t.Errorf("Service %s selects the pods of both %s and %s", name, w.name, other.name)
			}
		}
		for _, p := range s.Spec.Ports {
			if portNumber(c, p.TargetPort) <= 0 {
				t.Errorf("Service %s: targetPort %s is no port of %s", name, p.TargetPort.String(), w.name)
			}
		}
		found = s
	}
	if found == nil {
		t.Fatalf("no Service selects the pods of %s", w.name)
	}
	return found
}

// downloadsPerDay is what one server syncing every interval uses of the
// upstream's 50 downloads a day: one full download when it starts, then
// one delta per interval.
func downloadsPerDay(t *testing.T, cl commandLine) int {
	t.Helper()
	every, err := parseDuration(cl.flags["every"])
	if err != nil || every <= 0 {
		t.Fatalf("%s: --every %q: %v", cl.where, cl.flags["every"], err)
	}
	day := 24 * 60 * 60
	return 1 + (day+every-1)/every
}

func TestPrimary(t *testing.T) {
	cl := loadCluster(t)
	sts := cl.statefulSets["amlscreen-primary"]
	if sts == nil {
		t.Fatal("no StatefulSet amlscreen-primary")
	}
	w := workload{"StatefulSet/amlscreen-primary", &sts.Spec.Template, sts.Spec.VolumeClaimTemplates}
	c, line := checkServe(t, w)
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas != 1 {
		t.Error("the primary must run exactly one pod: serve holds the store's exclusive lock")
	}
	if m := mountOf(c, line.flags["store"]); m == nil || w.volume(m.Name) != "claimTemplate" {
		t.Errorf("the primary's store must be on its volumeClaimTemplate, not %v", m)
	}
	for _, pvc := range sts.Spec.VolumeClaimTemplates {
		if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteOnce) || pvc.Spec.Resources.Requests.Storage().IsZero() {
			t.Errorf("claim template %s: want ReadWriteOnce and a size", pvc.Name)
		}
	}
	u, _ := url.Parse(line.flags["upstream"])
	if u == nil || u.Scheme != "https" {
		t.Errorf("the primary syncs from the hosted service over HTTPS, not %q", line.flags["upstream"])
	}
	if n := downloadsPerDay(t, line); n > 50 {
		t.Errorf("the primary would use %d downloads a day of the hosted service's 50", n)
	}
	svc := serviceFor(t, cl, w, c)
	if svc.Name != sts.Spec.ServiceName || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("the StatefulSet's serviceName %q must be the headless Service that selects it (found %s, clusterIP %q)", sts.Spec.ServiceName, svc.Name, svc.Spec.ClusterIP)
	}
}

func TestReplicas(t *testing.T) {
	cl := loadCluster(t)
	d := cl.deployments["amlscreen-replica"]
	sts := cl.statefulSets["amlscreen-primary"]
	if d == nil || sts == nil {
		t.Fatal("no Deployment amlscreen-replica or StatefulSet amlscreen-primary")
	}
	w := workload{"Deployment/amlscreen-replica", &d.Spec.Template, nil}
	c, line := checkServe(t, w)
	if d.Spec.Replicas != nil {
		t.Error("the Deployment sets replicas; the HorizontalPodAutoscaler owns the count, and kubectl apply would reset it")
	}
	// The replicas sync from the primary's Service, on its port.
	primary := serviceFor(t, cl, workload{"StatefulSet/amlscreen-primary", &sts.Spec.Template, sts.Spec.VolumeClaimTemplates}, &sts.Spec.Template.Spec.Containers[0])
	u, err := url.Parse(line.flags["upstream"])
	if err != nil || u.Hostname() != primary.Name || u.Port() != fmt.Sprint(primary.Spec.Ports[0].Port) {
		t.Errorf("replicas sync from %q, not from Service %s port %d", line.flags["upstream"], primary.Name, primary.Spec.Ports[0].Port)
	}
	if m := mountOf(c, line.flags["store"]); m == nil || w.volume(m.Name) != "emptyDir" {
		t.Error("a replica's store belongs on an emptyDir: it is rebuilt from the primary")
	}
	serviceFor(t, cl, w, c)

	var pdb *policyv1.PodDisruptionBudget
	for _, b := range cl.budgets {
		if b.Spec.Selector != nil && selects(b.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
			pdb = b
		}
	}
	if pdb == nil || (pdb.Spec.MaxUnavailable == nil && pdb.Spec.MinAvailable == nil) {
		t.Error("no PodDisruptionBudget with a limit covers the replicas")
	}

	var hpa *autoscalingv2.HorizontalPodAutoscaler
	for _, h := range cl.autoscalers {
		if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == d.Name && h.Spec.ScaleTargetRef.APIVersion == "apps/v1" {
			hpa = h
		}
	}
	if hpa == nil {
		t.Fatal("no HorizontalPodAutoscaler scales the replicas")
	}
	cpu := false
	for _, m := range hpa.Spec.Metrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU &&
			m.Resource.Target.Type == autoscalingv2.UtilizationMetricType && m.Resource.Target.AverageUtilization != nil {
			cpu = true
		}
	}
	if !cpu || hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas {
		t.Errorf("the autoscaler should scale on CPU utilisation between at least 2 and a higher maximum: %+v", hpa.Spec)
	}
	// Every replica syncs with the same key, and the primary allows a key
	// 50 downloads a UTC day: the most replicas the autoscaler may run
	// must fit in that.
	if n := int(hpa.Spec.MaxReplicas) * downloadsPerDay(t, line); n > 50 {
		t.Errorf("%d replicas syncing every %s use %d downloads a day of their key's 50", hpa.Spec.MaxReplicas, line.flags["every"], n)
	}
}

func TestBatchJob(t *testing.T) {
	cl := loadCluster(t)
	if len(cl.jobs) != 1 {
		t.Fatalf("want one batch Job, found %d", len(cl.jobs))
	}
	for name, job := range cl.jobs {
		w := workload{"Job/" + name, &job.Spec.Template, nil}
		lines := commandLines(t, w)
		spec := job.Spec
		if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion || spec.Completions == nil {
			t.Fatalf("%s: want completionMode Indexed with completions", name)
		}
		n := int(*spec.Completions)
		if spec.Parallelism == nil || int(*spec.Parallelism) > n {
			t.Errorf("%s: parallelism must be set and at most completions", name)
		}
		if job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy must be Never (podFailurePolicy needs it)", name)
		}
		var batchC *corev1.Container
		var batchLine commandLine
		for i := range job.Spec.Template.Spec.Containers {
			c := &job.Spec.Template.Spec.Containers[i]
			if lines[c.Name].sub == "batch" {
				batchC, batchLine = c, lines[c.Name]
			}
		}
		if batchC == nil {
			t.Fatalf("%s: no container runs amlscreen batch", name)
		}
		// Each index screens its own shard: the shard argument takes the
		// completion index, and n is the number of completions.
		if want := "$(JOB_COMPLETION_INDEX)/" + fmt.Sprint(n); batchLine.flags["shard"] != want {
			t.Errorf("%s: --shard %q, want %q", name, batchLine.flags["shard"], want)
		}
		e := envVar(batchC, "JOB_COMPLETION_INDEX")
		if e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
			e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			t.Errorf("%s: JOB_COMPLETION_INDEX must come from the completion index annotation", name)
		}
		outs := map[string]bool{}
		for i := range n {
			index := fmt.Sprint(i)
			shard, err := batch.ParseShard(strings.ReplaceAll(batchLine.flags["shard"], "$(JOB_COMPLETION_INDEX)", index))
			if err != nil || shard != (batch.Shard{I: i, N: n}) {
				t.Errorf("%s: index %d: --shard gives %v, %v", name, i, shard, err)
			}
			outs[strings.ReplaceAll(batchLine.flags["out"], "$(JOB_COMPLETION_INDEX)", index)] = true
		}
		if len(outs) != n {
			t.Errorf("%s: --out %q is the same file for several indexes: shards would overwrite each other", name, batchLine.flags["out"])
		}
		for _, f := range []string{"in", "out"} {
			m := mountOf(batchC, batchLine.flags[f])
			claim := ""
			if m != nil {
				claim = strings.TrimPrefix(w.volume(m.Name), "claim:")
			}
			pvc := cl.claims[claim]
			if pvc == nil || !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
				t.Errorf("%s: --%s %s must be on a ReadWriteMany claim defined in the manifests, shared by every index", name, f, batchLine.flags[f])
			}
		}
		// The store batch reads is the one the init container synced.
		synced := false
		batchMount := mountOf(batchC, batchLine.flags["store"])
		for _, ic := range job.Spec.Template.Spec.InitContainers {
			l := lines[ic.Name]
			syncMount := mountOf(&ic, l.flags["store"])
			if l.sub == "sync" && l.flags["store"] == batchLine.flags["store"] && syncMount != nil && batchMount != nil && syncMount.Name == batchMount.Name {
				synced = true
				u, err := url.Parse(l.flags["upstream"])
				if err != nil || cl.services[u.Hostname()] == nil {
					t.Errorf("%s: the init container syncs from %q, no Service of these manifests", name, l.flags["upstream"])
				}
			}
		}
		if !synced {
			t.Errorf("%s: no init container syncs the store batch reads", name)
		}
		// What each exit code of batch means for the Job.
		if spec.BackoffLimitPerIndex == nil || spec.PodFailurePolicy == nil {
			t.Fatalf("%s: want backoffLimitPerIndex and a podFailurePolicy", name)
		}
		action := func(container string, code int32) batchv1.PodFailurePolicyAction {
			for _, r := range spec.PodFailurePolicy.Rules {
				e := r.OnExitCodes
				if e == nil || e.Operator != batchv1.PodFailurePolicyOnExitCodesOpIn || !slices.Contains(e.Values, code) {
					continue
				}
				if e.ContainerName == nil || *e.ContainerName == container {
					return r.Action
				}
			}
			return batchv1.PodFailurePolicyActionCount
		}
		for _, r := range spec.PodFailurePolicy.Rules {
			// status is optional (default True) only since Kubernetes
			// 1.29; older API servers refuse a pattern without it.
			for _, pc := range r.OnPodConditions {
				if pc.Status == "" {
					t.Errorf("%s: podFailurePolicy onPodConditions %s has no status: older clusters refuse it", name, pc.Type)
				}
			}
			if e := r.OnExitCodes; e != nil && e.ContainerName != nil && lines[*e.ContainerName].sub == "" {
				t.Errorf("%s: podFailurePolicy names container %q, which the pod does not have", name, *e.ContainerName)
			}
		}
		for _, want := range []struct {
			code   int32
			action batchv1.PodFailurePolicyAction
			why    string
		}{
			{1, batchv1.PodFailurePolicyActionCount, "a failure or interruption is retried"},
			{2, batchv1.PodFailurePolicyActionFailJob, "bad flags fail every index alike"},
			{3, batchv1.PodFailurePolicyActionFailIndex, "rejected rows: the shard finished, a retry would reject them again"},
		} {
			if got := action(batchC.Name, want.code); got != want.action {
				t.Errorf("%s: exit %d gives %s, want %s: %s", name, want.code, got, want.action, want.why)
			}
		}
		if n*(1+int(*spec.BackoffLimitPerIndex)) > 50 {
			t.Errorf("%s: %d indexes with their retries may use more than the 50 downloads a day of their key", name, n)
		}
	}
}

// TestSecretsDocumented: every Secret the manifests use is named in
// docs/OPERATIONS.md ("Deploying"), which says how to create it.
func TestSecretsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../docs/OPERATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	cl := loadCluster(t)
	secrets := map[string]bool{}
	for _, w := range cl.workloads() {
		for _, v := range w.template.Spec.Volumes {
			if v.Secret != nil {
				secrets[v.Secret.SecretName] = true
				if v.Secret.DefaultMode == nil || *v.Secret.DefaultMode&0o077 != 0 {
					t.Errorf("%s: Secret volume %s is readable by others; defaultMode 0400", w.name, v.Name)
				}
			}
		}
		for _, c := range allContainers(&w.template.Spec) {
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
					secrets[e.ValueFrom.SecretKeyRef.Name] = true
				}
			}
		}
	}
	if len(secrets) == 0 {
		t.Fatal("no Secrets found")
	}
	for s := range secrets {
		if !bytes.Contains(readme, []byte(s)) {
			t.Errorf("Secret %s is not explained in docs/OPERATIONS.md", s)
		}
	}
}

// parseDuration reads a duration flag's value in whole seconds.
func parseDuration(s string) (int, error) {
	d, err := time.ParseDuration(s)
	return int(d / time.Second), err
}
