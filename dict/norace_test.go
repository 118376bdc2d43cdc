//go:build !race

package dict

const raceEnabled = false
