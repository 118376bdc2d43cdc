package lists

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// ManifestName is the file of checksums lists mirror writes beside the
// files, and FetchDir checks when present.
const ManifestName = "manifest.json"

// SumsName is the same checksums in the format of sha256sum -c.
const SumsName = "SHA256SUMS"

// Manifest lists the files of a mirror directory with their checksums.
type Manifest struct {
	Created time.Time      `json:"created"`
	Files   []ManifestFile `json:"files"`
}

// ManifestFile is one file of a mirror: the list it belongs to, its name
// in the directory, where it came from and its SHA-256.
type ManifestFile struct {
	List         string `json:"list"`
	Name         string `json:"name"`
	SHA256       string `json:"sha256"`
	Size         int64  `json:"size"`
	URL          string `json:"url,omitempty"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// ReadManifest reads dir's manifest; ok is false when it has none.
func ReadManifest(dir string) (m Manifest, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, false, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	for _, f := range m.Files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return m, false, fmt.Errorf("%s: file name %q is not a plain file name", filepath.Join(dir, ManifestName), f.Name)
		}
	}
	return m, true, nil
}

// manifestFile returns the entry of file name of list l, nil when none.
func (m *Manifest) file(list, name string) *ManifestFile {
	for i := range m.Files {
		if m.Files[i].List == list && strings.EqualFold(m.Files[i].Name, name) {
			return &m.Files[i]
		}
	}
	return nil
}

// FetchDir applies lists from files carried into dir, as Fetch applies
// downloads: each file under the name its issuer gives it (any case), or
// under the name dir's manifest gives it, whose checksum must then match.
// An edition whose files have the checksums of the one the store holds
// is not converted.
func (f *Fetcher) FetchDir(db *store.Store, dir string, ls []List) []Result {
	m, hasManifest, err := ReadManifest(dir)
	var out []Result
	for _, l := range ls {
		res := Result{List: l.Name}
		if err != nil {
			res.Err = err
		} else {
			f.fromDir(db, dir, l, m, hasManifest, &res)
		}
		f.report(res)
		out = append(out, res)
	}
	return out
}

func (f *Fetcher) fromDir(db *store.Store, dir string, l List, m Manifest, hasManifest bool, res *Result) {
	st, err := LoadState(db, l.Name)
	if err != nil {
		res.Err = err
		return
	}
	fail := func(err error) {
		res.Err = fmt.Errorf("list %s: %w", l.Name, err)
		f.fail(db, &st, res.Err)
	}
	// The converters read the files under the issuer's names: a manifest
	// may name them otherwise, so they are linked into a directory of
	// their own.
	work, err := os.MkdirTemp(workDir(db), ".amlscreen-list-"+l.Name+"-")
	if err != nil {
		fail(err)
		return
	}
	defer os.RemoveAll(work)
	changed := len(st.Files) != len(l.Files)
	var files []FileState
	for _, file := range l.Files {
		name := file.Name
		var want *ManifestFile
		if hasManifest {
			if want = m.file(l.Name, file.Name); want != nil {
				name = want.Name
			}
		}
		path, err := findIn(dir, name)
		if errors.Is(err, os.ErrNotExist) && file.Optional {
			fs := FileState{Name: file.Name, Missing: true}
			if prev := st.file(file.Name); prev == nil || !prev.Missing {
				changed = true
			}
			files = append(files, fs)
			continue
		}
		if err != nil {
			fail(fmt.Errorf("%s: %w (files are named as the issuer names them, or listed in %s)", file.Name, err, ManifestName))
			return
		}
		sum, size, err := copyFile(path, filepath.Join(work, file.Name))
		if err != nil {
			fail(err)
			return
		}
		if want != nil && !strings.EqualFold(want.SHA256, sum) {
			fail(fmt.Errorf("%s: SHA-256 %s, but %s says %s: the file is not the one the mirror wrote", path, sum, ManifestName, want.SHA256))
			return
		}
		fs := FileState{Name: file.Name, URL: "file:" + filepath.Base(path), SHA256: sum, Size: size}
		if want != nil {
			fs.ETag, fs.LastModified, fs.URL = want.ETag, want.LastModified, want.URL
		}
		if prev := st.file(file.Name); prev == nil || prev.SHA256 != sum {
			changed = true
		}
		files = append(files, fs)
	}
	if !changed {
		res.Unchanged, res.Records = true, st.Records
		st.LastFetch, st.LastSuccess, st.LastError, st.Failures = f.now(), f.now(), "", 0
		res.Err = saveState(db, st)
		return
	}
	f.apply(db, l, st, work, files, res)
}

// copyFile copies src to dst (at most MaxFileBytes) and returns its
// SHA-256 and size.
func copyFile(src, dst string) (string, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return "", 0, err
	}
	defer out.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, MaxFileBytes+1))
	if err != nil {
		return "", 0, fmt.Errorf("copy %s: %w", src, err)
	}
	if n > MaxFileBytes {
		return "", 0, fmt.Errorf("%s: more than the %d bytes a list file may hold", src, int64(MaxFileBytes))
	}
	return hex.EncodeToString(h.Sum(nil)), n, out.Close()
}

// Mirror downloads the files of each list into out (created when absent)
// under the issuers' names and writes the manifest and SHA256SUMS of
// everything out holds: the connected side of an air-gapped site, whose
// directory lists fetch --from reads. A list that fails is reported and
// leaves its files in out as they were; the others are written.
func (f *Fetcher) Mirror(ctx context.Context, out string, ls []List) ([]Result, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	m, _, err := ReadManifest(out)
	if err != nil {
		return nil, err
	}
	var results []Result
	for _, l := range ls {
		res := Result{List: l.Name}
		entries, err := f.mirrorOne(ctx, out, l, &res)
		if err != nil {
			res.Err = fmt.Errorf("list %s: %w", l.Name, err)
			f.log().Error("list not mirrored", "list", l.Name, "error", res.Err.Error())
		} else {
			m.Files = slices.DeleteFunc(m.Files, func(e ManifestFile) bool { return e.List == l.Name })
			m.Files = append(m.Files, entries...)
			f.log().Info("list mirrored", "list", l.Name, "files", len(entries), "bytes", res.Bytes)
		}
		results = append(results, res)
		if ctx.Err() != nil {
			break
		}
	}
	m.Created = f.now().UTC()
	slices.SortFunc(m.Files, func(a, b ManifestFile) int { return strings.Compare(a.List+"/"+a.Name, b.List+"/"+b.Name) })
	return results, writeManifest(out, m)
}

// mirrorOne downloads l's files into a temporary directory inside out
// and moves them into place only when all arrived.
func (f *Fetcher) mirrorOne(ctx context.Context, out string, l List, res *Result) ([]ManifestFile, error) {
	tmp, err := os.MkdirTemp(out, ".part-"+l.Name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var entries []ManifestFile
	for _, file := range l.Files {
		u := f.URL(l, file)
		fs, err := f.get(ctx, u, nil, filepath.Join(tmp, file.Name), res, l.Name+" "+file.Name)
		if errors.Is(err, errNotFound) && file.Optional {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file.Name, err)
		}
		entries = append(entries, ManifestFile{List: l.Name, Name: file.Name, SHA256: fs.SHA256, Size: fs.Size,
			URL: u, ETag: fs.ETag, LastModified: fs.LastModified})
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name), filepath.Join(out, e.Name)); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// writeManifest writes m and SHA256SUMS into dir, each through a
// temporary file and a rename.
func writeManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	var sums strings.Builder
	for _, e := range m.Files {
		fmt.Fprintf(&sums, "%s  %s\n", e.SHA256, e.Name)
	}
	for name, data := range map[string][]byte{ManifestName: append(b, '\n'), SumsName: []byte(sums.String())} {
		tmp := filepath.Join(dir, "."+name+".tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}
