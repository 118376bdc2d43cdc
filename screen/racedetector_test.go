//go:build race

package screen

// raceEnabled is true under the race detector, which runs the
// brute-force matcher about ten times slower; see world.agrees.
const raceEnabled = true
