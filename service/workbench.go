package service

import (
	"io"
	"net/http"
	"strings"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
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
	wb := ui.Handler(ui.Config{Log: s.log, Sample: s.srv.Sample, Casework: casework.New(s.st, casework.Options{}), Backend: ui.NewBackend(ui.Deps{
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
