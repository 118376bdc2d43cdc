package service

import (
	"context"
	"time"

	"github.com/amlscreen/amlscreen/lists"
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
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
