//go:build race

package funclen

// raceEnabled is true under the race detector, which runs this package's
// code about ten times slower; see TestNoLongFunctions.
const raceEnabled = true
