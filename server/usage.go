package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
)

// Usage is the answer of /v1/usage (docs/API.md "Usage").
type Usage struct {
	Month     string          `json:"month"`
	Timezone  string          `json:"timezone"`
	Summary   UsageSummary    `json:"summary"`
	Endpoints []EndpointUsage `json:"endpoints"`
}

// UsageSummary is the summary object of Usage; the optional numbers are
// absent when the key has no such limit or nothing registered.
type UsageSummary struct {
	BilledUsed         int64  `json:"billed_requests_monthly_used"`
	BilledQuota        *int64 `json:"billed_requests_quota,omitempty"`
	ProfilesRegistered *int64 `json:"ongoing_monitoring_profiles_registered,omitempty"`
	ProfilesQuota      *int64 `json:"ongoing_monitoring_profiles_quota,omitempty"`
}

// EndpointUsage is the use of one endpoint in the month.
type EndpointUsage struct {
	Path        string     `json:"path"`
	MonthlyUsed int64      `json:"monthly_used"`
	Daily       []DayUsage `json:"daily"`
}

// DayUsage is the use of one endpoint on one UTC day.
type DayUsage struct {
	Date string `json:"date"`
	Used int64  `json:"used"`
}

// usageReport answers /v1/usage for the calling key.
func usageReport(s *Server, c *Call) error {
	month := c.Param("month")
	if month == "" {
		month = c.Now.UTC().Format("2006-01")
	} else if !validMonth(month) {
		return Errorf(http.StatusBadRequest, "month %s: month must use the yyyy-MM format, e.g. %s", quote(month), c.Now.UTC().Format("2006-01"))
	}
	counts, err := s.usage.Month(c.Key.ID(), month)
	if err != nil {
		return err
	}
	u := Usage{Month: month, Timezone: "UTC", Endpoints: []EndpointUsage{}}
	u.Summary.BilledQuota = c.Key.MonthlyQuota
	u.Summary.ProfilesQuota = c.Key.ProfileQuota
	if s.profiles != nil {
		pq := c.Key.ProfileLimit() // the default when the keys file sets none
		u.Summary.ProfilesQuota = &pq
		n, err := s.profiles(c.Key.ID())
		if err != nil {
			return fmt.Errorf("count search profiles: %w", err)
		}
		if n > 0 {
			v := int64(n)
			u.Summary.ProfilesRegistered = &v
		}
	}
	for _, path := range slices.Sorted(maps.Keys(counts)) {
		days := counts[path]
		eu := EndpointUsage{Path: path}
		for _, day := range slices.Sorted(maps.Keys(days)) {
			n := days[day]
			eu.Daily = append(eu.Daily, DayUsage{Date: day, Used: n})
			eu.MonthlyUsed += n
		}
		if s.billed[path] {
			u.Summary.BilledUsed += eu.MonthlyUsed
		}
		u.Endpoints = append(u.Endpoints, eu)
	}
	body, err := json.Marshal(u)
	if err != nil {
		return err
	}
	return c.JSON(body)
}

// validMonth accepts yyyy-mm with a month from 01 to 12.
func validMonth(s string) bool {
	if len(s) != 7 || s[4] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && (c < '0' || c > '9') {
			return false
		}
	}
	m := (s[5]-'0')*10 + s[6] - '0'
	return m >= 1 && m <= 12
}
