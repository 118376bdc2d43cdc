//go:build race

package server

// raceEnabled is true under the race detector, which runs the handlers
// about ten times slower; see FuzzQuery.
const raceEnabled = true
