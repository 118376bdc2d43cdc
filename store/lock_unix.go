//go:build unix

package store

import "syscall"

// pidAlive reports whether a process with the given pid exists; EPERM means
// it exists but belongs to another user.
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
