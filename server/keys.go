package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/sign"
)

// keyDocument answers /v1/keys/{kid} (docs/API.md "Keys and signatures"): the key document
// of a signing key id, or of the alias current or previous. Forbidden
// characters are 400, an unknown id 404. Free of charge.
func keyDocument(s *Server, c *Call) error {
	if s.signer == nil {
		return Errorf(http.StatusNotFound, "this server signs nothing: it has no signing keys")
	}
	if n := utf8.RuneCountInString(c.Sub); n > MaxKeyIDChars {
		return Errorf(http.StatusBadRequest, "key id: %d characters, more than the %d allowed", n, MaxKeyIDChars)
	}
	doc, err := s.signer.Document(c.Sub)
	switch {
	case errors.Is(err, sign.ErrInvalidKeyID):
		return Errorf(http.StatusBadRequest, "key id %s: only letters, digits, '.', '_', ':' and '-' are allowed", quote(c.Sub))
	case errors.Is(err, sign.ErrUnknownKey):
		return Errorf(http.StatusNotFound, "unknown key id %s", quote(c.Sub))
	case err != nil:
		return fmt.Errorf("key document %s: %w", quote(c.Sub), err)
	}
	body, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return c.JSON(body)
}
