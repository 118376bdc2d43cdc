package syncer

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestSchedule: --every is stretched to fit the upstream's daily
// download limit, with a warning, and follows the limit it announces.
func TestSchedule(t *testing.T) {
	var logs bytes.Buffer
	p := &Schedule{Every: 10 * time.Minute, Log: slog.New(slog.NewTextHandler(&logs, nil))}
	zero, ten := 0, 10
	steps := []struct {
		res  *Result
		want time.Duration
		log  string
	}{
		{nil, 32 * time.Minute, "--every 10m0s would poll 144 times a day, each a download, and the upstream allows 50"},
		{&Result{}, 32 * time.Minute, ""},
		{&Result{DownloadLimit: &zero}, 10 * time.Minute, "allows --every"},
		{nil, 10 * time.Minute, ""},
		{&Result{DownloadLimit: &ten}, 2*time.Hour + 40*time.Minute, "allows 10 downloads a day"},
	}
	for i, s := range steps {
		logs.Reset()
		if got := p.Next(s.res); got != s.want {
			t.Errorf("step %d: wait %v, want %v", i+1, got, s.want)
		}
		if s.log == "" && logs.Len() > 0 || !strings.Contains(logs.String(), s.log) {
			t.Errorf("step %d: log %q, want %q", i+1, logs.String(), s.log)
		}
	}
	p = &Schedule{Every: 2 * time.Hour, Log: slog.New(slog.NewTextHandler(&logs, nil))}
	logs.Reset()
	if got := p.Next(&Result{}); got != 2*time.Hour || logs.Len() > 0 {
		t.Errorf("an --every that fits: %v, log %q", got, logs.String())
	}
}
