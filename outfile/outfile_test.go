package outfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails when a temporary file is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestRegularFiles(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.jsonl")
	if err := WriteFile(name, []byte("one\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, name); got != "one\n" {
		t.Fatalf("content %q", got)
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	if err := WriteFile(name, []byte("two\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o644 || readString(t, name) != "two\n" {
		t.Fatalf("replaced file: mode %v content %q", fi.Mode(), readString(t, name))
	}

	// An output abandoned half-way leaves the previous file whole.
	f, err := Create(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	f.Close()
	if got := readString(t, name); got != "two\n" {
		t.Fatalf("abandoned output changed the file: %q", got)
	}
	noTemps(t, dir)
}

// TestLinkToRegularFile: the link stays a link; its target is replaced.
func TestLinkToRegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.pdf")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.pdf")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a regular file")
	}
	if got := readString(t, target); got != "new" {
		t.Fatalf("target %q", got)
	}
	noTemps(t, dir)
}

// TestSpecialFilesAreWrittenInPlace: /dev/null, a link to it (as
// /dev/stdout is a link to /proc/self/fd/1) and a FIFO are written
// directly and stay what they are; renaming a temporary file over them
// turned /dev/stdout into an 88 MB regular file.
func TestSpecialFilesAreWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/dev/null", link} {
		if err := WriteFile(name, []byte("data"), Options{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link to /dev/null was replaced")
	}
	if fi, _ := os.Stat("/dev/null"); fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe"), Options{}); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
	noTemps(t, dir)
}

func TestStdout(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFile("-", []byte("x"), Options{Stdout: &buf, Binary: "PDF"}); err != nil || buf.String() != "x" {
		t.Fatalf("%q %v", buf.String(), err)
	}
}

// TestErrorsNameTheDestination: a missing directory is reported with the
// name the user gave, not a temporary name.
func TestErrorsNameTheDestination(t *testing.T) {
	err := WriteFile("/nonexistent/dir/r.pdf", []byte("x"), Options{})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/dir/r.pdf") || strings.Contains(err.Error(), ".part") {
		t.Fatalf("got %v", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap ErrNotExist", err)
	}
	dir := t.TempDir()
	if err := WriteFile(dir, []byte("x"), Options{}); err == nil || strings.Contains(err.Error(), ".part") {
		t.Fatalf("writing over a directory: %v", err)
	}
}
