//go:build race

package record_test

// raceEnabled is true under the race detector, which runs the decoders
// about ten times slower; the fast-path comparisons run on one goroutine,
// so it checks them at a small size and the plain run checks them all.
const raceEnabled = true
