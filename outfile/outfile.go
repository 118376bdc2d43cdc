// Package outfile writes the files commands produce (reports, exports,
// conversions, generated data) so that a failed run never leaves a file
// that looks complete, without breaking what is not a plain file.
//
// A regular file, or a name that does not exist yet, is written under a
// temporary name in the same directory and renamed over the name only
// when everything was written (for a symbolic link to a regular file: over
// the link's target, so the link stays). Anything else is written in
// place: "-" is standard output, and devices, pipes and links to them
// (/dev/stdout, /dev/null, a FIFO, /proc/self/fd/1) are opened and
// written directly; renaming over them would replace /dev/stdout with a
// regular file.
//
// Binary output (a PDF, gzip) is refused when it would go to a terminal.
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"
)

// StdoutName is the name that means standard output.
const StdoutName = "-"

// Options controls Create.
type Options struct {
	// Stdout is where StdoutName goes; nil means os.Stdout.
	Stdout io.Writer
	// Binary names the kind of a binary output ("PDF", "gzip"); it is then
	// refused when the destination is a terminal. "" for text.
	Binary string
	// Perm is the mode of a new file; 0 means 0644, as data files are for
	// everyone to read (the umask still applies).
	Perm fs.FileMode
}

// TerminalError is the error of Create for binary output that would go to
// a terminal: the caller's choice of destination is wrong, so commands
// treat it as a usage error.
type TerminalError struct {
	Name   string // the destination as given
	Binary string // what would have been written
}

// Error says what to do instead.
func (e *TerminalError) Error() string {
	dest := e.Name
	if dest == StdoutName {
		dest = "standard output"
	}
	return fmt.Sprintf("%s is a terminal: refusing to write %s there; redirect it to a file or a pipe, or name a file", dest, e.Binary)
}

// File is an output being written. Write to it, then Commit; Close
// without Commit discards a temporary file (deferring Close is safe).
type File struct {
	name   string    // as given
	w      io.Writer // where Write goes
	f      *os.File  // the open file, nil for standard output
	tmp    string    // temporary name to rename, "" when written in place
	final  string    // the name the temporary file is renamed to
	closed bool
}

// Create opens name for writing as the package describes.
func Create(name string, o Options) (*File, error) {
	if name == "" {
		return nil, errors.New("no output file given")
	}
	if o.Perm == 0 {
		o.Perm = 0o644
	}
	if name == StdoutName {
		w := o.Stdout
		if w == nil {
			w = os.Stdout
		}
		if o.Binary != "" && isTerminal(w) {
			return nil, &TerminalError{Name: name, Binary: o.Binary}
		}
		return &File{name: name, w: w}, nil
	}
	final, direct, err := destination(name)
	if err != nil {
		return nil, pathError(name, err)
	}
	if direct {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, o.Perm)
		if err != nil {
			return nil, pathError(name, err)
		}
		if o.Binary != "" && term.IsTerminal(int(f.Fd())) {
			f.Close()
			return nil, &TerminalError{Name: name, Binary: o.Binary}
		}
		return &File{name: name, w: f, f: f}, nil
	}
	f, err := createTemp(final, o.Perm)
	if err != nil {
		return nil, pathError(name, err)
	}
	return &File{name: name, w: f, f: f, tmp: f.Name(), final: final}, nil
}

// createTemp creates a new file beside final, with perm under the umask
// like any file the user creates (os.CreateTemp would make it 0600).
func createTemp(final string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Dir(final), filepath.Base(final)
	for range 100 {
		var b [6]byte
		rand.Read(b[:])
		name := filepath.Join(dir, "."+base+"."+hex.EncodeToString(b[:])+".part")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no free temporary name beside %s", final)
}

// destination decides how name is written: the file to rename a temporary
// file over, or direct for a name that is not a regular file.
func destination(name string) (final string, direct bool, err error) {
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return name, false, nil
	case err != nil:
		return "", false, err
	case fi.Mode().IsRegular():
		return name, false, nil
	case fi.Mode()&fs.ModeSymlink == 0:
		return "", true, nil // a device, a pipe, a socket, a directory (which fails at open)
	}
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", true, nil // /proc/self/fd/1 -> pipe:[123] and the like
	}
	if isSpecialTree(target) {
		return "", true, nil
	}
	tfi, err := os.Stat(target)
	if err != nil || !tfi.Mode().IsRegular() {
		return "", true, nil
	}
	return target, false, nil
}

// isSpecialTree reports paths under /dev and /proc, where a file reached
// through a link stands for a stream, not for data at rest.
func isSpecialTree(path string) bool {
	return path == "/dev" || path == "/proc" || strings.HasPrefix(path, "/dev/") || strings.HasPrefix(path, "/proc/")
}

// Name returns the destination as given to Create.
func (f *File) Name() string { return f.name }

// Write writes to the destination (or the temporary file).
func (f *File) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil {
		return n, pathError(f.name, err)
	}
	return n, nil
}

// Commit finishes the output: the temporary file is synced, closed and
// renamed over the destination; a file written in place is closed.
func (f *File) Commit() error {
	if f.closed {
		return fmt.Errorf("write %s: already closed", f.name)
	}
	f.closed = true
	if f.f == nil {
		return nil
	}
	if f.tmp == "" {
		if err := f.f.Close(); err != nil {
			return pathError(f.name, err)
		}
		return nil
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.final)
	}
	if err != nil {
		os.Remove(f.tmp)
		return pathError(f.name, err)
	}
	return nil
}

// Close discards an output that was not committed: a temporary file is
// removed, and the destination is left as it was. After Commit it does
// nothing.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	if f.f == nil {
		return nil
	}
	err := f.f.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
	return err
}

// WriteFile writes data to name as Create and Commit do.
func WriteFile(name string, data []byte, o Options) error {
	f, err := Create(name, o)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// pathError names the destination as the user gave it, never a temporary
// name: "write /no/such/dir/r.pdf: no such file or directory".
func pathError(name string, err error) error {
	var te *TerminalError
	if errors.As(err, &te) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: directory %s does not exist: %w", name, filepath.Dir(name), err)
	}
	return fmt.Errorf("write %s: %w", name, err)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
