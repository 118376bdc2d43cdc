package deploy

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/amlscreen/amlscreen/book"
)

// TestBookWatch holds the book watch StatefulSet to what sharding needs:
// as many pods as shards, each pod's ordinal its shard index (so every
// customer is screened by exactly one pod), its own store on its own
// volume, the book imported into that store before serve starts, and the
// changes synced from the primary within the daily download limit.
func TestBookWatch(t *testing.T) {
	cl := loadCluster(t)
	sts := cl.statefulSets["amlscreen-book"]
	if sts == nil {
		t.Fatal("no StatefulSet amlscreen-book")
	}
	w := workload{"StatefulSet/amlscreen-book", &sts.Spec.Template, sts.Spec.VolumeClaimTemplates}
	c, line := checkServe(t, w)
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas < 2 {
		t.Fatal("the book watch needs replicas, one per shard, at least 2")
	}
	n := int(*sts.Spec.Replicas)
	if want := fmt.Sprintf("$(POD_INDEX)/%d", n); line.flags["book-shard"] != want {
		t.Errorf("--book-shard %q, want %q: the shard count is the replica count", line.flags["book-shard"], want)
	}
	e := envVar(c, "POD_INDEX")
	if e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.labels['apps.kubernetes.io/pod-index']" {
		t.Error("POD_INDEX must come from the pod-index label the StatefulSet sets: the ordinal picks the shard")
	}
	// Every ordinal is a valid, distinct shard, and together they cover
	// every customer exactly once.
	var shards []book.Shard
	for i := range n {
		s, err := book.ParseShard(strings.ReplaceAll(line.flags["book-shard"], "$(POD_INDEX)", fmt.Sprint(i)))
		if err != nil || s != (book.Shard{Index: i, Count: n}) {
			t.Errorf("ordinal %d: --book-shard gives %v, %v", i, s, err)
		}
		shards = append(shards, s)
	}
	for k := range 1000 {
		id := fmt.Sprintf("C%d", k)
		owners := 0
		for _, s := range shards {
			if s.Owns(id) {
				owners++
			}
		}
		if owners != 1 {
			t.Fatalf("customer %s is screened by %d pods", id, owners)
		}
	}
	// Each pod's store, book and alerts are its own and survive restarts.
	m := mountOf(c, line.flags["store"])
	if m == nil || w.volume(m.Name) != "claimTemplate" {
		t.Errorf("the book watch's store must be on its volumeClaimTemplate, not %v", m)
	}
	// The book is imported into that store before serve opens it.
	lines := commandLines(t, w)
	imported := false
	for i := range sts.Spec.Template.Spec.InitContainers {
		ic := &sts.Spec.Template.Spec.InitContainers[i]
		l := lines[ic.Name]
		im := mountOf(ic, l.flags["store"])
		if l.sub != "book import" || len(l.args) != 1 || l.flags["store"] != line.flags["store"] || im == nil || m == nil || im.Name != m.Name {
			continue
		}
		imported = true
		file := l.args[0]
		bm := mountOf(ic, file)
		if bm == nil || !strings.HasPrefix(w.volume(bm.Name), "claim:") || cl.claims[strings.TrimPrefix(w.volume(bm.Name), "claim:")] == nil {
			t.Errorf("the book %s must be read from a claim of these manifests", file)
		}
	}
	if !imported {
		t.Error("no init container imports the book into the store serve watches")
	}
	// Synced from the primary's Service, within its daily downloads.
	primary := cl.statefulSets["amlscreen-primary"]
	if primary == nil {
		t.Fatal("no primary")
	}
	psvc := serviceFor(t, cl, workload{"StatefulSet/amlscreen-primary", &primary.Spec.Template, primary.Spec.VolumeClaimTemplates}, &primary.Spec.Template.Spec.Containers[0])
	u, err := url.Parse(line.flags["upstream"])
	if err != nil || u.Hostname() != psvc.Name || u.Port() != fmt.Sprint(psvc.Spec.Ports[0].Port) {
		t.Errorf("the book watch syncs from %q, not from Service %s", line.flags["upstream"], psvc.Name)
	}
	if d := n * downloadsPerDay(t, line); d > 50 {
		t.Errorf("%d shards syncing every %s use %d downloads a day of their key's 50", n, line.flags["every"], d)
	}
	svc := serviceFor(t, cl, w, c)
	if svc.Name != sts.Spec.ServiceName || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("the StatefulSet's serviceName %q must be the headless Service that selects it", sts.Spec.ServiceName)
	}
}
