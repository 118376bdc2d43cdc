package engine

import "github.com/amlscreen/amlscreen/record"

// Preview returns an index of ix's current state with changes applied,
// leaving ix as it is: what ix will be once the change set is applied,
// for whoever must read that state before it is published (a change hook
// scoring a change set's records with the word statistics they will have,
// inside the transaction that applies them). The preview shares ix's
// segments, holds its own in memory, and must be closed when done.
func (ix *Index) Preview(changes []record.Change) (*Index, error) {
	u, err := ix.Prepare(changes, true)
	if err != nil {
		return nil, err
	}
	segs := make([]segView, 0, len(u.base.segs)+1)
	for i, sv := range u.base.segs {
		if u.tombs[i] != nil {
			sv.tomb = u.tombs[i]
		}
		segs = append(segs, segView{Segment: sv.Segment, tomb: sv.tomb})
	}
	if u.seg != nil {
		segs = append(segs, segView{Segment: u.seg, tomb: u.dead})
	}
	p := &Index{}
	p.publish(newView(segs, u.base.src))
	return p, nil
}
