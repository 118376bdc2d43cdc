//go:build !race

package mediagen

const raceEnabled = false
