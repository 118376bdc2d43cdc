package dict

// NewFrozen returns the dictionary over a, unchecked: the tests build
// Frozen arrays themselves (the engine's segment embeds a Frozen).
func NewFrozen(a Arrays) *Frozen { return &Frozen{Arrays: a} }
