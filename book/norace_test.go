//go:build !race

package book

const raceEnabled = false
