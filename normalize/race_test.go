//go:build race

package normalize

// raceEnabled is true under the race detector, which runs this package's
// code about ten times slower; see TestTransliterationQuality.
const raceEnabled = true
