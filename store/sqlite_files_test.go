package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExposed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kith.db")
	if err := os.Chmod(dir, 0o700); err != nil { // t.TempDir's mode follows the umask
		t.Fatal(err)
	}
	if got, err := Exposed(path); err != nil || len(got) != 0 {
		t.Errorf("a private directory without a database: %v, %v", got, err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Exposed("sqlite:" + path); err != nil || len(got) != 0 {
		t.Errorf("private files: %v, %v", got, err)
	}
	// A directory others may read but not write (a checkout, a home
	// folder) is no exposure: the files in it are the owner's alone.
	os.Chmod(dir, 0o755)
	if got, err := Exposed(path); err != nil || len(got) != 0 {
		t.Errorf("private files in a readable directory: %v, %v", got, err)
	}
	os.Chmod(path, 0o640)
	os.Chmod(path+"-wal", 0o604)
	os.Chmod(dir, 0o775)
	defer os.Chmod(dir, 0o700)
	got, err := Exposed(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []ExposedFile{
		{"database", path, 0o640},
		{"database WAL", path + "-wal", 0o604},
		{"database directory", dir, 0o775},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got[i], want[i])
		}
	}
}
