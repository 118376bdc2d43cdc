package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID). The caller locks its goroutine to the
// thread. ok is false where the clock cannot be read.
func Thread() (d time.Duration, ok bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
