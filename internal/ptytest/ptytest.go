//go:build linux

// Package ptytest opens pseudo-terminals for tests of what a command does
// when its output is a terminal (progress bars, refusing binary output).
package ptytest

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Open returns the two ends of a new pseudo-terminal: the program under
// test writes to tty, which is a terminal; the test reads what it drew
// from pty. Both are closed when the test ends. The test is skipped where
// no pseudo-terminal can be opened (a container without /dev/pts).
func Open(t testing.TB) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(pty.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		pty.Close()
		t.Skipf("unlock pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		pty.Close()
		t.Skipf("pseudo-terminal number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		pty.Close()
		t.Skipf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() {
		tty.Close()
		pty.Close()
	})
	return pty, tty
}
