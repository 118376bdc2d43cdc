package server

import (
	"net/http"

	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
)

// This file is the route table of /v1: every path the server answers, with
// its parameters, whether it is billed or a download, and its handler.
// The handlers live in the file named after the endpoint's topic.

// The paths the workbench calls in process, named once for the route
// table below and for ui.
const (
	PathCheckIndividual          = "/v1/checkIndividual"
	PathCheckEntity              = "/v1/checkEntity"
	PathCheckName                = "/v1/checkName"
	PathGenerateIndividualReport = "/v1/generateIndividualReport"
	PathGenerateEntityReport     = "/v1/generateEntityReport"
	PathGetSourceList            = "/v1/getSourceList"
	PathStatus                   = "/v1/status"
	PathGetChangeDigest          = "/v1/getChangeDigest"
	PathUsage                    = "/v1/usage"
	PathRegisterIndividual       = "/v1/registerIndividual"
	PathRegisterEntity           = "/v1/registerEntity"
	PathRemoveSearchProfile      = "/v1/removeSearchProfile"
	PathTestWebhookDelivery      = "/v1/testWebhookDelivery"
)

// builtinEndpoints are the endpoints every server answers, with or
// without a store.
func builtinEndpoints() []Endpoint {
	return []Endpoint{
		// Checks: check.go.
		{Path: PathCheckIndividual, Billed: true, Params: individualParams, Handle: checkHandler(query.Individual)},
		{Path: PathCheckEntity, Billed: true, Params: append([]string{"names", "search_all", "fuzzy_search", "includes"}, scoredParams...), Handle: checkHandler(query.Entity)},
		{Path: PathCheckName, Billed: true, Params: individualParams, Handle: checkHandler(query.Any)},
		// Reports: report.go. The service lists names and includes;
		// fuzzy_search is accepted as for individuals, since ignoring it
		// would silently report fewer hits than the client asked for.
		{Path: PathGenerateIndividualReport, Billed: true, Params: append([]string{"names", "dob", "gender", "includes", "fuzzy_search"}, scoredParams...), Handle: reportHandler(query.Individual)},
		{Path: PathGenerateEntityReport, Billed: true, Params: append([]string{"names", "includes", "fuzzy_search"}, scoredParams...), Handle: reportHandler(query.Entity)},
		// Consolidated files and deltas: consolidated.go.
		{Path: "/v1/getConsolidatedFile", Download: true, Params: []string{"includes"}, Handle: consolidatedFile},
		{Path: "/v1/getConsolidatedDelta", Download: true, Params: []string{"previous", "includes"}, Handle: consolidatedDelta},
		// Sources: sources.go. listSources is the same list in the envelope
		// clients of the service's listSources read.
		{Path: PathGetSourceList, Params: []string{"scope"}, Handle: sourceList},
		{Path: "/v1/listSources", Params: []string{"scope"}, Handle: listSources},
		// Signing keys: keys.go; /v1/keys/{kid}.
		{Path: "/v1/keys", Sub: true, Handle: keyDocument},
		// Usage: usage.go. Usage alone refuses other parameters, with the
		// message about the month format (docs/API.md "Usage").
		{Path: PathUsage, Params: []string{"month"}, Handle: usageReport,
			Unknown: func(name string) error {
				return Errorf(http.StatusBadRequest, "unsupported parameter %s: usage takes only month, and month must use the yyyy-MM format", quote(name))
			}},
		// amlscreen's own: status.go, digest.go.
		{Path: PathStatus, Handle: statusReport},
		{Path: PathGetChangeDigest, Params: []string{"since", "next", "limit", "format"}, Handle: changeDigest},
	}
}

// MonitorEndpoints returns registerIndividual, registerEntity,
// removeSearchProfile and testWebhookDelivery over m (monitor.go), for
// Config.Endpoints: a server without a store has nowhere to keep profiles,
// so they are not built in.
func MonitorEndpoints(m *monitor.Monitor) []Endpoint {
	return []Endpoint{
		{Path: PathRegisterIndividual, Params: append([]string{"profile_id", "names", "search_all", "dob", "gender", "fuzzy_search"}, scoredParams...), Handle: registerHandler(m, query.Individual)},
		{Path: PathRegisterEntity, Params: append([]string{"profile_id", "names", "search_all", "fuzzy_search"}, scoredParams...), Handle: registerHandler(m, query.Entity)},
		{Path: PathRemoveSearchProfile, Params: []string{"profile_id"}, Handle: removeProfile(m)},
		{Path: PathTestWebhookDelivery, Params: []string{"profile_id"}, Handle: testWebhook(m)},
	}
}

// MediaEndpoints returns media/checkIndividual, media/checkEntity and
// media/search (docs/API.md "Media") over corpus (media.go), for
// Config.Endpoints. They are billed like the AML checks; a key's
// ArticlesPerCategory raises the 10 articles per category.
func MediaEndpoints(corpus *media.Corpus) []Endpoint {
	return []Endpoint{
		{Path: "/v1/media/checkIndividual", Billed: true, Params: media.CheckParams, Handle: mediaCheck(corpus, query.Individual)},
		{Path: "/v1/media/checkEntity", Billed: true, Params: media.CheckParams, Handle: mediaCheck(corpus, query.Entity)},
		{Path: "/v1/media/search", Billed: true, Params: media.SearchParams, Handle: mediaSearch(corpus)},
	}
}
