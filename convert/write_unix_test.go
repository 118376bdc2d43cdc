//go:build unix

package convert

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileToPipe: a path that is not a regular file (a named pipe
// here; /dev/null in use) is written to, not renamed over. Writing to
// /dev/null once replaced the device with a file.
func TestWriteFileToPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan int64)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- -1
			return
		}
		defer f.Close()
		n, _ := io.Copy(io.Discard, f)
		got <- n
	}()
	n, err := WriteFile(path, fixtureConverter)
	if err != nil || n == 0 {
		t.Fatalf("WriteFile to a pipe: %d records, %v", n, err)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("%s is no longer a pipe: %v %v", path, fi.Mode(), err)
	}
	if read := <-got; read <= 0 {
		t.Fatalf("the reader got %d bytes", read)
	}
	if _, err := WriteFile(t.TempDir(), fixtureConverter); err == nil {
		t.Fatal("WriteFile to a directory succeeded")
	}
}
