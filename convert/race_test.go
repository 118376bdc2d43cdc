//go:build race

package convert

// raceEnabled is true under the race detector, which runs this package's
// code about ten times slower; the real-list tests convert from one goroutine, where it finds nothing, and skip under it.
const raceEnabled = true
