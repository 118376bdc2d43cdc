//go:build race

package book

// raceEnabled is true under the race detector, which runs the matchers
// about ten times slower; see skipLevelUnderRace.
const raceEnabled = true
