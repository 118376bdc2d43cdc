//go:build !race

package screen

const raceEnabled = false
