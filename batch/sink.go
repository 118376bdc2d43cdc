package batch

// Found is a screened row with the hits it kept (those a decision
// suppressed are not among them), as a HitSink receives it.
type Found struct {
	Row  Row
	Hits []Hit
}

// HitSink receives the hits of a run besides the hits file: the alert
// queue of casework (batch --alerts). Run calls it from the goroutine that
// writes the files, in input order, so a sink needs no lock of its own;
// it should hand slow work (a store transaction) to a goroutine of its
// own so that screening does not wait for it.
type HitSink interface {
	// Add takes the rows with hits of one batch of rows; Run keeps no
	// reference to them after the call.
	Add(found []Found) error
	// Flush returns once everything added is durable. Run calls it
	// before every checkpoint and at the end, so that a resumed run never
	// skips rows whose hits the sink lost.
	Flush() error
}
