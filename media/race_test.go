//go:build race

package media

// raceEnabled is true under the race detector, which runs this package's
// code about ten times slower; see TestImportSampleEqualsImport.
const raceEnabled = true
