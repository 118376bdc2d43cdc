package bench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// A false-alert rate means little without the size of the database it
// was measured against: the chance that a clean customer shares words with
// some listed name grows with the names listed. Background records let
// bench quality and bench cases measure against a database of a stated
// size, the list measured padded with generated records (`amlscreen gen`).

// Generated returns records 0 to n−1 of the generator for seed: the
// records `amlscreen gen --records n --seed seed` writes.
func Generated(n int, seed int64) []*record.Record { return generate(n, seed) }

// Background returns n generated records to index beside a list of one's
// own: the generator's records after its hand-written seed records (which
// copy real listed people), with ids prefixed "bg-" so that they never
// collide with the list's.
func Background(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	out := make([]*record.Record, max(n, 0))
	for i := range out {
		r := g.Record(gen.SeedCount() + i)
		r.ID = "bg-" + r.ID
		out[i] = r
	}
	return out
}

// PadTo returns the background records that bring list to total records,
// or an error when the list alone holds more.
func PadTo(list []*record.Record, total int, seed int64) ([]*record.Record, error) {
	if total < len(list) {
		return nil, fmt.Errorf("the data holds %d records, more than %d", len(list), total)
	}
	return Background(total-len(list), seed), nil
}

// withBackground is the database measured: the records probed, then the
// background.
func withBackground(recs, bg []*record.Record) []*record.Record {
	if len(bg) == 0 {
		return recs
	}
	all := make([]*record.Record, 0, len(recs)+len(bg))
	return append(append(all, recs...), bg...)
}

// refused reports whether err is the engine refusing a scored check with
// more candidates than it scores (engine.maxScoredCandidates): at a low
// threshold or against a large database a query of common words can be
// refused, and a batch would reject its row for a person to look at. The
// benchmarks count such a query as alerted, and as a miss where it had a
// record to find, rather than abort the run.
func refused(err error) bool {
	var pe *query.ParamError
	return errors.As(err, &pe) && pe.Param == "names" && strings.HasPrefix(pe.Msg, "more than ")
}
