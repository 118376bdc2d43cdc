package service

import (
	"context"
	"time"

	"github.com/amlscreen/amlscreen/lists"
	"github.com/amlscreen/amlscreen/server"
)

// DefaultListsEvery is how often serve fetches its lists without
// Config.ListsEvery: issuers publish a few times a week at most.
const DefaultListsEvery = 6 * time.Hour

// listsLoop fetches the configured lists into the store now and then
// every ListsEvery until ctx ends, and swaps every committed change into
// the server. A list that fails keeps its previous edition; its error is
// in its state in the store (lists status) and the log.
func (s *Service) listsLoop(ctx context.Context) {
	f := s.cfg.ListsFetcher
	if f == nil {
		f = &lists.Fetcher{}
	}
	if f.HTTP == nil && s.roots != nil {
		f.HTTP = lists.NewHTTPClient(s.roots)
	}
	if f.Log == nil {
		f.Log = s.log
	}
	every := s.cfg.ListsEvery
	if every <= 0 {
		every = DefaultListsEvery
	}
	for {
		s.applyMu.Lock()
		for _, r := range f.Fetch(ctx, s.st, s.cfg.Lists) {
			if r.Applied == nil {
				continue
			}
			if err := s.srv.Apply(s.st, r.Applied); err != nil {
				s.log.Error("list committed to the store but not swapped in; restart serve", "list", r.List, "version", r.Applied.Version, "error", err.Error())
			}
		}
		s.applyMu.Unlock()
		s.noteLists()
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// noteLists hands the configured lists' states, as the store keeps them,
// to the server's /readyz and /metrics.
func (s *Service) noteLists() {
	var states []server.ListState
	for _, l := range s.cfg.Lists {
		st, err := lists.LoadState(s.st, l.Name)
		if err != nil {
			s.log.Error("list state not read", "list", l.Name, "error", err.Error())
			continue
		}
		states = append(states, server.ListState{Name: st.Name, Records: st.Records, LastSuccess: st.LastSuccess, LastError: st.LastError})
	}
	s.srv.NoteLists(states)
}
