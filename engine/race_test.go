//go:build race

package engine

// raceEnabled is true under the race detector, which runs the matchers
// about ten times slower; see skipUnderRace.
const raceEnabled = true
