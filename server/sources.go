package server

import (
	"encoding/json"
	"fmt"

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
	cat := s.db.Catalog()
	inc := cat.Defaults(c.Key)
	all := c.Param("scope") == "all"
	entries := cat.Entries()
	out := make([]record.Source, 0, len(entries))
	for _, e := range entries {
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
