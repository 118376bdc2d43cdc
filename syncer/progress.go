package syncer

import "io"

// ProgressBar is told the progress of one stage; *progressbar.ProgressBar
// satisfies it.
type ProgressBar interface {
	Add64(n int64) error
	Finish() error
}

// ProgressFunc starts a bar for a stage ("getConsolidatedFile", "import",
// ...) of total bytes, -1 when unknown.
type ProgressFunc func(stage string, total int64) ProgressBar

type noBar struct{}

func (noBar) Add64(int64) error { return nil }
func (noBar) Finish() error     { return nil }

func (c *Client) bar(stage string, total int64) ProgressBar {
	if c.Progress == nil {
		return noBar{}
	}
	if b := c.Progress(stage, total); b != nil {
		return b
	}
	return noBar{}
}

// progressReader reports the bytes read through it to a bar, and calls
// onRead after each read that got some (to feed a stall watchdog).
type progressReader struct {
	r      io.Reader
	bar    ProgressBar
	onRead func()
}

// NewProgressReader returns a reader that reports what is read through r
// to bar; the CLI uses it for files it imports.
func NewProgressReader(r io.Reader, bar ProgressBar) io.Reader {
	if bar == nil {
		bar = noBar{}
	}
	return &progressReader{r: r, bar: bar}
}

// Read reads from the underlying reader and reports what it got.
func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.bar.Add64(int64(n))
		if p.onRead != nil {
			p.onRead()
		}
	}
	return n, err
}
