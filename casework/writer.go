package casework

import "sync"

// DefaultWriterBatch is the most alerts a Writer raises in one
// transaction: large enough that the commit's fsync is paid rarely, small
// enough that a transaction stays short.
const DefaultWriterBatch = 2000

// Writer raises alerts for a long run (a batch over a customer book) in
// the background, in transactions of at most a fixed number of alerts, so
// that screening does not wait for the disk. At most one batch is being
// written and one waiting; Add blocks beyond that, which bounds memory.
// Add, Flush and Close are called from one goroutine.
type Writer struct {
	c       *Casework
	actor   string
	size    int
	pending []NewAlert
	ch      chan []NewAlert
	wg      sync.WaitGroup // batches handed over and not yet written
	done    chan struct{}

	mu  sync.Mutex
	res RaiseResult
	err error
}

// NewWriter starts a Writer raising alerts as actor, at most batch per
// transaction (0 means DefaultWriterBatch). Close ends it.
func (c *Casework) NewWriter(actor string, batch int) *Writer {
	if batch <= 0 {
		batch = DefaultWriterBatch
	}
	w := &Writer{c: c, actor: actor, size: batch, ch: make(chan []NewAlert, 1), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *Writer) loop() {
	defer close(w.done)
	for hits := range w.ch {
		w.mu.Lock()
		failed := w.err != nil
		w.mu.Unlock()
		if !failed {
			res, err := w.c.Raise(w.actor, hits)
			w.mu.Lock()
			w.res.Raised += res.Raised
			w.res.Reopened += res.Reopened
			w.res.Unchanged += res.Unchanged
			if err != nil && w.err == nil {
				w.err = err
			}
			w.mu.Unlock()
		}
		w.wg.Done()
	}
}

// Add queues hits; a full batch is handed to the background writer. It
// returns the error of an earlier batch, after which nothing more is
// written.
func (w *Writer) Add(hits ...NewAlert) error {
	w.pending = append(w.pending, hits...)
	for len(w.pending) >= w.size {
		w.send(w.pending[:w.size:w.size])
		w.pending = append([]NewAlert(nil), w.pending[w.size:]...)
	}
	return w.Err()
}

func (w *Writer) send(hits []NewAlert) {
	w.wg.Add(1)
	w.ch <- hits
}

// Flush writes what is queued and waits until every alert added so far is
// committed: a caller writes its checkpoint after Flush.
func (w *Writer) Flush() error {
	if len(w.pending) > 0 {
		w.send(w.pending)
		w.pending = nil
	}
	w.wg.Wait()
	return w.Err()
}

// Err returns the first error of a background write.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close flushes and stops the writer, and returns what it did.
func (w *Writer) Close() (RaiseResult, error) {
	err := w.Flush()
	close(w.ch)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.res, err
}
