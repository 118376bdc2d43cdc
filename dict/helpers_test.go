package dict

// NewFrozen returns the dictionary over a, unchecked: the tests build
// Frozen arrays themselves (the engine reads them from a segment).
func NewFrozen(a Arrays) *Frozen { return &Frozen{Arrays: a} }
