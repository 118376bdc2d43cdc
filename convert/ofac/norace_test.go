//go:build !race

package ofac

const raceEnabled = false
