//go:build race

package mediagen

// raceEnabled is true under the race detector, which runs this package's
// code about ten times slower; see TestEmbeddedSampleIsTheGeneratorsOutput.
const raceEnabled = true
