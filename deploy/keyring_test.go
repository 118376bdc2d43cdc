package deploy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/sign"
)

// projectSecret lays out dir as the kubelet lays out a Secret volume made
// with kubectl create secret generic --from-file=src: the regular files of
// src, mode 0400, in a timestamped directory that the ..data link points
// to, and one link per key into ..data. An update writes a new directory
// and swaps ..data in one rename, as the kubelet does.
func projectSecret(t *testing.T, src, dir string, generation int) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	gen := fmt.Sprintf("..2026_11_24_12_00_%02d.%d", generation, generation)
	if err := os.MkdirAll(filepath.Join(dir, gen), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, gen, e.Name()), data, 0o400); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(link); os.IsNotExist(err) {
			if err := os.Symlink(filepath.Join("..data", e.Name()), link); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(gen, filepath.Join(dir, "..data_tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestKeyringFromSecretVolume: the signing keyring the manifests share
// through the amlscreen-signing-keys Secret works as serve opens it there:
// it signs with the current key without writing to the (read-only) volume,
// and follows a rotation published by updating the Secret, without a
// restart.
func TestKeyringFromSecretVolume(t *testing.T) {
	src := filepath.Join(t.TempDir(), "signing-keys")
	operator, err := sign.OpenKeyring(src) // amlscreen keys rotate --dir signing-keys
	if err != nil {
		t.Fatal(err)
	}
	current := func(k *sign.Keyring) string {
		keys, err := k.Keys()
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(keys, func(k sign.KeyInfo) bool { return k.Current })
		return keys[i].Kid
	}
	first := current(operator)

	mount := filepath.Join(t.TempDir(), "mounted")
	projectSecret(t, src, mount, 1)
	before := listDir(t, mount)
	served, err := sign.OpenKeyring(mount) // what amlscreen serve --signing-keys does
	if err != nil {
		t.Fatalf("serve cannot open the keyring from a Secret volume: %v", err)
	}
	body := []byte(`{"sources":[]}`)
	h, err := served.Sign(body)
	if err != nil || !strings.Contains(h, "kid="+first) {
		t.Fatalf("signed %q, %v; want kid %s", h, err, first)
	}
	if after := listDir(t, mount); !slices.Equal(before, after) {
		t.Fatalf("serve wrote into the Secret volume: %v, then %v", before, after)
	}

	// Rotation: the operator rotates the copy and updates the Secret.
	second, err := operator.Rotate(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	projectSecret(t, src, mount, 2)
	os.RemoveAll(filepath.Join(mount, "..2026_11_24_12_00_01.1"))
	h, err = served.Sign(body)
	if err != nil || !strings.Contains(h, "kid="+second) {
		t.Fatalf("after the Secret changed, signed %q, %v; want the new kid %s", h, err, second)
	}
	doc, err := served.Document("previous")
	if err != nil || doc.Status != sign.StatusRetired {
		t.Fatalf("the previous key after rotation: %+v, %v", doc, err)
	}
}
