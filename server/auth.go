package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/amlscreen/amlscreen/access"
)

// SetKeys replaces the API keys. Requests in flight keep the key they
// started with. Keys without one enabled are refused
// (access.ErrNoEnabledKey).
func (s *Server) SetKeys(keys []*access.Key) error {
	if err := access.Validate(keys); err != nil {
		return err
	}
	if err := access.RequireEnabled(keys); err != nil {
		return err
	}
	s.keys.Store(access.NewSet(keys))
	return nil
}

// ReloadKeys reads the keys file again (on SIGHUP). A file that does not
// read or check, or holds no enabled key, leaves the current keys in
// place.
func (s *Server) ReloadKeys() error {
	if s.keysFile == "" {
		return errors.New("reload keys: the server has no keys file")
	}
	keys, err := access.LoadFile(s.keysFile)
	if err != nil {
		return err
	}
	if err := access.RequireEnabled(keys); err != nil {
		return fmt.Errorf("%s: %w", s.keysFile, err)
	}
	s.keys.Store(access.NewSet(keys))
	s.log.Info("API keys loaded", "file", s.keysFile, "keys", len(keys))
	return nil
}

// authenticate returns the caller's key: 401 when missing or unknown, 403
// when disabled.
func (s *Server) authenticate(r *http.Request) (*access.Key, error) {
	return s.Authenticate(r.Header.Get("x-api-key"))
}

// Authenticate returns the key of the keys in force that presented is, as
// every /v1 request is authenticated: an *Error with status 401 when it is
// empty or unknown, 403 when the key is disabled. The workbench signs in
// and checks its sessions with it, so that a key disabled by a reload
// ends its sessions too.
func (s *Server) Authenticate(presented string) (*access.Key, error) {
	if presented == "" {
		return nil, Errorf(http.StatusUnauthorized, "missing API key: send it in the x-api-key header")
	}
	k := s.keys.Load().Find(presented)
	if k == nil {
		return nil, Errorf(http.StatusUnauthorized, "invalid API key")
	}
	if k.Disabled {
		return nil, Errorf(http.StatusForbidden, "API key is disabled")
	}
	return k, nil
}
