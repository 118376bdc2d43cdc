//go:build race

package main

// raceEnabled is true under the race detector, which runs the commands
// about ten times slower; see TestNoProgressWithoutTerminal.
const raceEnabled = true
