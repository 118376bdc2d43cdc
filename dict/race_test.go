//go:build race

package dict

// raceEnabled is true under the race detector, which runs the look-ups
// about ten times slower; the differential tests, which compare from one
// goroutine, run small under it.
const raceEnabled = true
