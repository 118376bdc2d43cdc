package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/amlscreen/amlscreen/screen"
)

// statusReport answers /v1/status: the store.Status of the server's store
// and of its persisted screening index, so
// that amlscreen status can ask a running server, whose store it cannot
// open (serve holds it for writing). Free of charge, any enabled key.
func statusReport(s *Server, c *Call) error {
	if s.st == nil {
		return Errorf(http.StatusNotFound, "this server answers from no store")
	}
	rep, err := s.st.Status(c.Now)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if s.db.State().State != screen.StateMemory {
		// The index persisted beside the store: its MANIFEST and file
		// sizes, read without opening the segments.
		rep.Index = screen.Inspect(s.st)
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return c.JSON(body)
}
