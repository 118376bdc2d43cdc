package service

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/tlsconf"
	"github.com/amlscreen/amlscreen/ui"
)

// DemoWebhookPath receives the monitoring notifications of a demo's key
// (Config.Demo), so that a demo shows them delivered without a receiver of
// its own.
const DemoWebhookPath = "/demo/webhook"

// handler is what the service answers with: the analyst workbench under
// /ui/, the demo's webhook receiver in a demo, and the /v1 API (with
// /healthz, /readyz and /metrics) for every other path, as it answers
// them alone.
func (s *Service) handler(deliveries *ui.DeliveryLog) http.Handler {
	var oidc *ui.OIDC
	if s.cfg.OIDC != nil {
		o := *s.cfg.OIDC
		if o.Client == nil {
			o.Client = &http.Client{Transport: tlsconf.Transport(s.roots), Timeout: 30 * time.Second}
		}
		oidc = &o
	}
	wb := ui.Handler(ui.Config{Log: s.log, Sample: s.srv.Sample, Casework: casework.New(s.st, casework.Options{}),
		OIDC: oidc, PeopleKey: s.peopleSecret, Backend: ui.NewBackend(ui.Deps{
			API: s.srv.Handler(), Keys: s.srv, DB: s.db, Store: s.st, Monitor: s.mon,
			Decisions: decision.New(s.st, decision.Options{}), Deliveries: deliveries,
		})})
	api := s.srv.Handler()
	demo := s.cfg.Demo
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/ui":
			http.Redirect(w, r, ui.Prefix, http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, ui.Prefix):
			wb.ServeHTTP(w, r)
		case demo && r.URL.Path == DemoWebhookPath && r.Method == http.MethodPost:
			io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
			w.WriteHeader(http.StatusNoContent)
		default:
			api.ServeHTTP(w, r)
		}
	})
}

// loadPeopleKey reads the keys file and keeps the secret of the enabled
// key named Config.WorkbenchKey (by name or id) for people's sessions.
func (s *Service) loadPeopleKey() error {
	keys, err := access.LoadFile(s.cfg.KeysFile)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.Name == s.cfg.WorkbenchKey || k.ID() == s.cfg.WorkbenchKey {
			if k.Disabled {
				return fmt.Errorf("key %q is disabled", s.cfg.WorkbenchKey)
			}
			s.peopleKey.Store(&k.Key)
			return nil
		}
	}
	empty := ""
	s.peopleKey.Store(&empty)
	return fmt.Errorf("no key named %q in the keys file", s.cfg.WorkbenchKey)
}

// peopleSecret is the secret people's sessions screen with; "" for none.
func (s *Service) peopleSecret() string {
	if p := s.peopleKey.Load(); p != nil {
		return *p
	}
	return ""
}
