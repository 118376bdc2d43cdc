package server

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ListState is what /readyz and /metrics say of one public list the
// service fetches itself (package lists keeps the whole state in the
// store).
type ListState struct {
	Name        string
	Records     int       // records of the edition screened
	LastSuccess time.Time // zero until a fetch succeeded
	LastError   string    // "" when the last fetch succeeded
}

// listStates are the lists' states and the collector that writes them.
type listStates struct {
	once   sync.Once
	states atomic.Pointer[[]ListState]
}

// NoteLists records the state of the lists the service fetches, after
// each round of fetches. A list whose last fetch failed is still screened
// in its previous edition, so the server stays ready; /readyz names it
// under lists_failing, and /metrics has amlscreen_list_failing,
// amlscreen_list_records and amlscreen_list_last_success_timestamp_seconds
// per list.
func (s *Server) NoteLists(states []ListState) {
	states = append([]ListState(nil), states...)
	s.lists.states.Store(&states)
	s.lists.once.Do(func() { s.metrics.reg.MustRegister(listCollector{&s.lists}) })
}

// failingLists returns the lists whose last fetch failed, with the error.
func (s *Server) failingLists() map[string]string {
	p := s.lists.states.Load()
	if p == nil {
		return nil
	}
	var out map[string]string
	for _, st := range *p {
		if st.LastError != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[st.Name] = st.LastError
		}
	}
	return out
}

var (
	listFailingDesc = prometheus.NewDesc("amlscreen_list_failing",
		"1 when the last fetch of the public list failed (its previous edition is screened).", []string{"list"}, nil)
	listRecordsDesc = prometheus.NewDesc("amlscreen_list_records",
		"Records of the public list's edition in the store.", []string{"list"}, nil)
	listSuccessDesc = prometheus.NewDesc("amlscreen_list_last_success_timestamp_seconds",
		"When a fetch of the public list last succeeded.", []string{"list"}, nil)
)

// listCollector writes the lists' series from the last NoteLists.
type listCollector struct{ l *listStates }

// Describe sends the series' descriptions.
func (c listCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- listFailingDesc
	ch <- listRecordsDesc
	ch <- listSuccessDesc
}

// Collect sends one value of each series per list.
func (c listCollector) Collect(ch chan<- prometheus.Metric) {
	p := c.l.states.Load()
	if p == nil {
		return
	}
	for _, st := range *p {
		failing := 0.0
		if st.LastError != "" {
			failing = 1
		}
		ch <- prometheus.MustNewConstMetric(listFailingDesc, prometheus.GaugeValue, failing, st.Name)
		ch <- prometheus.MustNewConstMetric(listRecordsDesc, prometheus.GaugeValue, float64(st.Records), st.Name)
		if !st.LastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(listSuccessDesc, prometheus.GaugeValue, float64(st.LastSuccess.Unix()), st.Name)
		}
	}
}
