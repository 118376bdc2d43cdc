package server

import (
	"errors"
	"net/http"

	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
)

// This file serves ongoing monitoring (docs/API.md "Monitoring and webhooks") from a
// monitor.Monitor. The endpoints are in routes.go (MonitorEndpoints). All
// four are free of charge.

// statusSuccess is the status answer (docs/API.md "Monitoring and webhooks"), the answer of
// monitoring calls that return no data.
var statusSuccess = []byte(`{"status":"success"}`)

// removeProfile answers removeSearchProfile: unknown and already removed
// ids succeed too (§3.2).
func removeProfile(m *monitor.Monitor) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		id, err := profileID(c)
		if err != nil {
			return err
		}
		if _, err := m.Remove(c.Key.ID(), id); err != nil {
			return err
		}
		return c.JSON(statusSuccess)
	}
}

// testWebhook answers testWebhookDelivery: a test notification to the
// key's webhook, 400 when the key has none.
func testWebhook(m *monitor.Monitor) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		id, err := profileID(c)
		if err != nil {
			return err
		}
		if c.Key.WebhookURL == "" {
			return Errorf(http.StatusBadRequest, "no webhook_url is configured for this API key")
		}
		if _, err := m.TestWebhook(c.Key.ID(), id, c.Key.Policy()); err != nil {
			return err
		}
		return c.JSON(statusSuccess)
	}
}

func profileID(c *Call) (string, error) {
	id := c.Param("profile_id")
	if id == "" {
		return "", &query.ParamError{Param: "profile_id", Msg: "required"}
	}
	// Also checked with the other parameters; again here so that no
	// monitoring endpoint can take an id without the rule.
	if err := checkProfileID(id); err != nil {
		return "", err
	}
	return id, nil
}

// registerHandler upserts a profile of kind with the parameters validated
// as the corresponding check validates them; a new profile beyond the
// key's profile_quota is refused with 429. No initial screening is done.
func registerHandler(m *monitor.Monitor, kind query.Kind) func(*Server, *Call) error {
	return func(s *Server, c *Call) error {
		id, err := profileID(c)
		if err != nil {
			return err
		}
		fuzzy, err := query.ParseFuzzy(c.Param("fuzzy_search"))
		if err != nil {
			return err
		}
		match, minScore, err := parseMatch(c)
		if err != nil {
			return err
		}
		gender, err := apiGender(c)
		if err != nil {
			return err
		}
		p := monitor.Params{
			ID: id, Kind: kind, Fuzzy: fuzzy,
			Names: c.Param("names"), SearchAll: c.Param("search_all"),
			DOB: c.Param("dob"), Gender: gender,
			Match: match, MinScore: minScore,
		}
		_, _, err = m.Register(c.Key.ID(), p, c.Key.Policy(), c.Key.ProfileLimit())
		var qe *monitor.QuotaError
		if errors.As(err, &qe) {
			// A profile quota has no window to wait for: no Retry-After.
			return Errorf(http.StatusTooManyRequests, "%s", qe.Error())
		}
		if err != nil {
			return err
		}
		return c.JSON(statusSuccess)
	}
}

// WebhookRecipient returns where notifications of the profiles of key id
// owner go, from the keys the server holds now (a reload on SIGHUP
// applies to the next delivery): for monitor.Sender.Recipients.
func (s *Server) WebhookRecipient(owner string) (monitor.Recipient, error) {
	return monitor.KeyRecipient(s.keys.Load().ByID(owner), owner)
}
