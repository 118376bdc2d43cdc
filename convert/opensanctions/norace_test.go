//go:build !race

package opensanctions

const raceEnabled = false
