package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sign"
)

// sourceList answers getSourceList (docs/API.md "Sources"): a JSON array of
// Source objects, every source with scope=all, else those included for the
// key, signed with x-service-signature.
func sourceList(s *Server, c *Call) error {
	body, err := json.Marshal(s.sourceEntries(c))
	if err != nil {
		return fmt.Errorf("encode source list: %w", err)
	}
	return s.signedJSON(c, body)
}

// listSources answers listSources (docs/API.md "Sources"): the list of
// getSourceList as {"sources": [...]}, signed the same way.
func listSources(s *Server, c *Call) error {
	body, err := json.Marshal(struct {
		Sources []record.Source `json:"sources"`
	}{s.sourceEntries(c)})
	if err != nil {
		return fmt.Errorf("encode source list: %w", err)
	}
	return s.signedJSON(c, body)
}

// sourceEntries lists the catalogue for c's key: every source with
// scope=all, else those included for the key, each saying whether it is.
func (s *Server) sourceEntries(c *Call) []record.Source {
	cat := s.catalog()
	inc := cat.Defaults(c.Key)
	all := c.Param("scope") == "all"
	out := make([]record.Source, 0, len(cat.entries))
	for _, e := range cat.entries {
		in := inc.Set[e.Source]
		if !in && !all {
			continue
		}
		e.IncludedForAPIKey = &in
		out = append(out, e)
	}
	return out
}

// signedJSON sends body with its x-service-signature, when the server
// has signing keys.
func (s *Server) signedJSON(c *Call, body []byte) error {
	if s.signer != nil {
		h, err := s.signer.Sign(body)
		if err != nil {
			return fmt.Errorf("sign source list: %w", err)
		}
		c.Header().Set(sign.HeaderName, h)
	}
	return c.JSON(body)
}

// catalog is what the server knows of sources at one version of the
// database: the access catalogue (source types, each key's defaults) and
// the entries getSourceList serves. Building it walks every record, so it
// is built once per version and shared.
type catalog struct {
	*access.Catalog
	version string
	ix      *engine.Index
	// entries is the catalogue as getSourceList serves it, sorted by id:
	// the stored catalogue with sizes counted from the records, plus a
	// derived entry for every source of the records it lacks.
	entries []record.Source
}

// catalog returns the catalogue of the current version, building it when
// the version moved. The version is read before the records, which only
// move forward, so a catalogue is never older than its label; the next
// version change replaces it.
func (s *Server) catalog() *catalog {
	v, ix := s.db.Version(), s.db.Index()
	if c := s.cat.Load(); c != nil && c.version == v && c.ix == ix {
		return c
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if c := s.cat.Load(); c != nil && c.version == v && c.ix == ix {
		return c
	}
	c := s.buildCatalog(v, ix)
	s.cat.Store(c)
	return c
}

func (s *Server) buildCatalog(version string, ix *engine.Index) *catalog {
	c := &catalog{version: version, ix: ix}
	types := ix.SourceTypes()
	sizes := ix.SourceCounts()
	stored := s.db.Sources()
	listed := map[string]bool{}
	for _, e := range stored {
		if e.Source == "" || listed[e.Source] {
			continue
		}
		listed[e.Source] = true
		e.Size = sizes[e.Source]
		e.IncludedForAPIKey = nil
		c.entries = append(c.entries, e)
	}
	c.Catalog = access.NewCatalog(types, stored)
	// Derived entries take last_modified from the store, which stamps the
	// sources of every import and change set in its transaction, so the
	// time survives restarts. Without a store (a data file) there is none.
	var changed map[string]time.Time
	if s.st != nil {
		var err error
		if changed, err = s.st.SourcesChanged(); err != nil {
			s.log.Warn("source change times", "err", err)
		}
	}
	for id, n := range sizes {
		if listed[id] {
			continue
		}
		e := record.Source{Source: id, SourceType: strings.ToLower(c.Type(id)), Size: n}
		if t, ok := changed[id]; ok {
			e.LastModified = t.UTC().Format(time.RFC3339)
		}
		c.entries = append(c.entries, e)
	}
	slices.SortFunc(c.entries, func(a, b record.Source) int { return strings.Compare(a.Source, b.Source) })
	return c
}
