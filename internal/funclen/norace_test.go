//go:build !race

package funclen

const raceEnabled = false
