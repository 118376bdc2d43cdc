package ui

import (
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/record"
)

// casework returns the store's casework, nil when the server has none.
func (h *handler) casework() *casework.Casework { return h.cfg.Casework }

// sessionRole is the casework role of the session's person; "" for an
// API-key session.
func (h *handler) sessionRole(s *session) string { return s.role }

// keyView is the identity a record is shown for: the session's key, or
// for a person without one no key, which shows no feature-gated
// attribute.
func keyView(id *Identity) *Identity {
	if id == nil {
		return &Identity{}
	}
	return id
}

// currentRecord returns the record id as the database holds it now, all
// attributes, or nil.
func (b *backend) currentRecord(id string) *record.Record {
	if b.DB == nil {
		return nil
	}
	return b.DB.Index().Get(id)
}

// databaseVersion is the version the database answers from now.
func (b *backend) databaseVersion() string {
	if b.DB == nil {
		return ""
	}
	return b.DB.Version()
}
