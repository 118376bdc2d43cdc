package server

import (
	"encoding/json"
	"testing"

	"github.com/amlscreen/amlscreen/store"
)

// TestStatusEndpoint: /v1/status answers the store's status and its
// screening index's for any enabled key, free of charge, and needs a key.
func TestStatusEndpoint(t *testing.T) {
	f := newFixture(t)
	a := f.get(keyQuota, "/v1/status")
	if a.StatusCode != 200 {
		t.Fatalf("%d %s", a.StatusCode, a.body)
	}
	var st store.Status
	if err := json.Unmarshal(a.body, &st); err != nil {
		t.Fatal(err)
	}
	want, err := f.st.Status(f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st.Version != testVersion || st.Records != want.Records || st.Store != "" || st.DownloadLimit != 50 || st.Sources != want.Sources {
		t.Errorf("status %+v, want %+v", st, want)
	}
	// The server's index is persisted beside the store and current.
	if ix := st.Index; ix == nil || ix.State != "current" || ix.Records != want.Records || ix.Segments < 1 || ix.Version != testVersion {
		t.Errorf("index in status: %+v, want current at %s with %d records", ix, testVersion, want.Records)
	}
	f.get("", "/v1/status").errorMessage(t, 401)
	if u := usageOf(t, f, keyQuota, ""); u.Summary.BilledUsed != 0 {
		t.Errorf("status was billed: %+v", u.Summary)
	}
}
