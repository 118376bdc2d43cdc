package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/digest"
	"github.com/amlscreen/amlscreen/server"
)

// The changes page: what the change sets of a period added, updated and
// deleted, by source, each change with the alerts it raised. It registers
// itself here, so that the route table and the page list stay as they
// are.
// changesPageSize is how many changes one view of the changes page
// lists; the next page is a link.
const changesPageSize = 500

// ChangesBackend is what the changes page needs of a Backend. It is an
// interface of its own, so that a Backend without it (a test's) is still a
// Backend: the page then answers 404.
type ChangesBackend interface {
	// Changes returns one page of the change digest since a version, a
	// day (YYYY-MM-DD) or last, as getChangeDigest answers it for the key,
	// with the alerts each change raised; next continues a previous page.
	Changes(ctx context.Context, id *Identity, since, next string) (*ChangesView, error)
}

// ChangesView is the changes page.
type ChangesView struct {
	// Since is the period as asked; Yesterday is the day the page opens
	// on, for the quick links.
	Since     string
	Yesterday string
	// Digest is the page of the digest: its period, whole-period counts
	// and this page's changes.
	Digest *digest.Document
	// Sources are the page's changes by source id, sorted.
	Sources []SourceChanges
	// Alerts counts the alerts the page's changes raised.
	Alerts int
	// Error is the API's refusal of the period (a bad day, a version the
	// change log cannot answer from): shown on the page with the form.
	Error string
}

// SourceChanges are the changes of one source on a page.
type SourceChanges struct {
	Source  string
	Summary digest.Summary // over the whole period
	Changes []ChangeView
}

// ChangeView is one change with the alerts it raised.
type ChangeView struct {
	digest.Change
	Alerts []*casework.Alert
}

func (h *handler) changes(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	cb, ok := h.b.(ChangesBackend)
	if !ok {
		return errorf(http.StatusNotFound, "This server keeps no change digest.")
	}
	q := r.URL.Query()
	yesterday := h.now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
	since, next := q.Get("since"), q.Get("next")
	if since == "" && next == "" {
		since = yesterday
	}
	v, err := cb.Changes(r.Context(), id, since, next)
	var e *Error
	switch {
	case errors.As(err, &e) && e.Status == http.StatusBadRequest:
		v = &ChangesView{Error: e.Message}
	case err != nil:
		return err
	}
	if v.Since == "" {
		v.Since = since
	}
	v.Yesterday = yesterday
	p := h.base(s, id, "Changes", "changes")
	p.Data = v
	h.render(w, "changes", http.StatusOK, p)
	return nil
}

// Changes asks getChangeDigest as the key, so that the page lists what
// the key's sources changed and nothing its features hide, then finds
// the alerts of origin monitor each change raised: on the changed record,
// at a version of the period.
func (b *backend) Changes(ctx context.Context, id *Identity, since, next string) (*ChangesView, error) {
	params := url.Values{"limit": {strconv.Itoa(changesPageSize)}}
	if since != "" {
		params.Set("since", since)
	}
	if next != "" {
		params.Set("next", next)
	}
	body, err := b.call(ctx, id, server.PathGetChangeDigest, params)
	if err != nil {
		return nil, err
	}
	var d digest.Document
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, fmt.Errorf("change digest: %w", err)
	}
	// The answer is indented; values are shown on one line.
	for i := range d.Changes {
		for j := range d.Changes[i].Fields {
			f := &d.Changes[i].Fields[j]
			f.Old, f.New = compactJSON(f.Old), compactJSON(f.New)
		}
	}
	v := &ChangesView{Since: d.Since, Digest: &d}
	alerts, err := b.raised(id, &d)
	if err != nil {
		return nil, err
	}
	by := map[string]*SourceChanges{}
	for _, c := range d.Changes {
		sc := by[c.Source]
		if sc == nil {
			sc = &SourceChanges{Source: c.Source, Summary: d.BySource[c.Source]}
			by[c.Source] = sc
		}
		cv := ChangeView{Change: c, Alerts: alerts[c.ID]}
		v.Alerts += len(cv.Alerts)
		sc.Changes = append(sc.Changes, cv)
	}
	for _, src := range slices.Sorted(maps.Keys(by)) {
		v.Sources = append(v.Sources, *by[src])
	}
	return v, nil
}

// raised returns, by record id, the monitor alerts the key may see (its
// own and those of the site, as the book's) on the records of d's page
// whose version is one of the period's change sets.
func (b *backend) raised(id *Identity, d *digest.Document) (map[string][]*casework.Alert, error) {
	if b.Store == nil || len(d.Changes) == 0 {
		return nil, nil
	}
	versions, err := b.Store.Versions()
	if err != nil {
		return nil, fmt.Errorf("versions: %w", err)
	}
	// The period's change sets: after From, up to and including Version.
	first := 0
	for i, v := range versions {
		if v.ID == d.From {
			first = i + 1
		}
	}
	inPeriod := map[string]bool{}
	for _, v := range versions[min(first, len(versions)):] {
		inPeriod[v.ID] = true
		if v.ID == d.Version {
			break
		}
	}
	onPage := map[string]bool{}
	for _, c := range d.Changes {
		onPage[c.ID] = true
	}
	out := map[string][]*casework.Alert{}
	err = casework.New(b.Store, casework.Options{}).EachAlert(casework.Filter{Origin: casework.OriginMonitor}, func(a *casework.Alert) error {
		if onPage[a.Hit.RecordID] && inPeriod[a.Version] && (a.Owner == casework.SiteOwner || a.Owner == id.ID) {
			out[a.Hit.RecordID] = append(out[a.Hit.RecordID], a)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	return out, nil
}

// compactJSON returns raw without insignificant space.
func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
