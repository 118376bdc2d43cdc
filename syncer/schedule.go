package syncer

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Schedule keeps the interval of sync --every and serve --upstream
// within the upstream's daily download limit: every poll is a download,
// also one that finds nothing new, so an --every of 10m (144 polls a day)
// against the service's 50 would stop syncing for the rest of each UTC day
// after the 50th. The limit is the one the upstream announces
// (syncer.Result.DownloadLimit), known from the first poll on.
type Schedule struct {
	// Every is the interval asked for; Log receives the warning when the
	// limit stretches it.
	Every time.Duration
	Log   *slog.Logger

	started bool
	limit   *int
	wait    time.Duration
}

// Next returns the wait before the next poll, given the result of the last
// (nil when it failed before learning anything), and logs when the limit
// makes it differ from --every.
func (p *Schedule) Next(res *Result) time.Duration {
	if res == nil && p.started {
		return p.wait
	}
	var limit *int
	if res != nil {
		limit = res.DownloadLimit
	}
	if p.started && (limit == nil) == (p.limit == nil) && (limit == nil || *limit == *p.limit) {
		return p.wait
	}
	was := p.wait
	p.started, p.limit = true, limit
	p.wait = max(p.Every, MinInterval(limit))
	allowed := store.DailyDownloadLimit
	if limit != nil {
		allowed = *limit
	}
	switch {
	case p.wait > p.Every:
		p.Log.Warn(fmt.Sprintf("--every %v would poll %d times a day, each a download, and the upstream allows %d downloads a day: syncing every %v instead. A replica of a primary amlscreen serve can poll more often with a key that has \"daily_download_limit\": 0 in the primary's keys file",
			p.Every, int((24*time.Hour+p.Every-1)/p.Every), allowed, p.wait))
	case was > p.Every:
		p.Log.Info("the upstream's daily download limit allows --every: syncing every "+p.Every.String(), "limit", allowed)
	}
	return p.wait
}
