package deploy

import (
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"

	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/ui"
)

// route returns the backend Service an Ingress rule sends path to, by the
// Ingress rules: an Exact path, else the longest Prefix path that matches
// whole path elements.
func route(rule networkingv1.IngressRule, p string) *networkingv1.IngressServiceBackend {
	var best *networkingv1.HTTPIngressPath
	score := -1
	for i, hp := range rule.HTTP.Paths {
		s := -1
		switch *hp.PathType {
		case networkingv1.PathTypeExact:
			if p == hp.Path {
				s = 2*len(hp.Path) + 1
			}
		case networkingv1.PathTypePrefix:
			prefix := strings.TrimSuffix(hp.Path, "/")
			if prefix == "" || p == prefix || strings.HasPrefix(p, prefix+"/") {
				s = 2 * len(prefix)
			}
		}
		if s > score {
			best, score = &rule.HTTP.Paths[i], s
		}
	}
	if best == nil {
		return nil
	}
	return best.Backend.Service
}

// TestIngressRoutesState: calls that keep state in the store of the server
// answering them (monitoring profiles and their outbox, the media corpus,
// the workbench's decisions) go to the primary, whose store is on a persistent volume; everything
// else to the replicas. The paths come from the server package, so a new
// monitoring or media endpoint fails here until it is routed.
func TestIngressRoutesState(t *testing.T) {
	cl := loadCluster(t)
	ing := cl.ingresses["amlscreen"]
	if ing == nil || len(ing.Spec.Rules) != 1 || ing.Spec.Rules[0].HTTP == nil {
		t.Fatal("want Ingress amlscreen with one HTTP rule")
	}
	rule := ing.Spec.Rules[0]
	for _, hp := range rule.HTTP.Paths {
		if hp.PathType == nil || hp.Backend.Service == nil {
			t.Fatalf("path %s: want a pathType and a Service backend", hp.Path)
		}
		svc := cl.services[hp.Backend.Service.Name]
		if svc == nil {
			t.Fatalf("path %s goes to Service %s, which the manifests do not define", hp.Path, hp.Backend.Service.Name)
		}
		found := false
		for _, p := range svc.Spec.Ports {
			found = found || p.Name == hp.Backend.Service.Port.Name || (p.Port == hp.Backend.Service.Port.Number && p.Port != 0)
		}
		if !found {
			t.Errorf("path %s: Service %s has no port %v", hp.Path, svc.Name, hp.Backend.Service.Port)
		}
	}
	primary := map[string]bool{}
	for _, ep := range append(server.MonitorEndpoints(nil), server.MediaEndpoints(nil)...) {
		primary[ep.Path] = true
	}
	for _, p := range []string{"/v1/checkIndividual", "/v1/checkEntity", "/v1/checkName", "/v1/getSourceList",
		"/v1/generateIndividualReport", "/v1/usage", "/v1/keys/current", "/v1/mediaX", "/healthz", "/metrics",
		"/openapi.json", "/uix"} {
		primary[p] = false
	}
	// The workbench keeps decisions in the store of the server that
	// answers it, and manages the primary's profiles.
	for _, p := range []string{"/ui", ui.Prefix, ui.Prefix + "api/session", ui.Prefix + "static/app.js"} {
		primary[p] = true
	}
	for p, toPrimary := range primary {
		want := "amlscreen"
		if toPrimary {
			want = "amlscreen-primary"
		}
		if got := route(rule, p); got == nil || got.Name != want {
			name := "nothing"
			if got != nil {
				name = "Service " + got.Name
			}
			t.Errorf("%s goes to %s, want Service %s", p, name, want)
		}
	}
}
