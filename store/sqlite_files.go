package store

import (
	"io/fs"
	"os"
	"path/filepath"
)

// ExposedFile is a file of the database that group or others may read.
type ExposedFile struct {
	What string // "database", "database WAL", "database index", "database directory"
	Path string
	Mode fs.FileMode
}

// Exposed returns the files of the database db (a value for Open) that
// group or others may read: the database, its WAL and its index, which
// hold password hashes and everyone's relationships; and the directory
// they are in when group or others may write it (a shared folder, where
// someone else could remove or replace the database). A directory others
// may only read, like a checkout or a home folder, shows them no more than
// the names of files they cannot open, and is not listed: a first start
// of go run . does not warn about the source folder. Kith creates them readable by their owner only; one made
// otherwise (by hand, by an older Kith, by a chmod) is the operator's to
// tighten. A file that does not exist is not listed, and a PostgreSQL
// database has no file of Kith's.
func Exposed(db string) ([]ExposedFile, error) {
	if IsPostgres(db) {
		return nil, nil
	}
	path, err := SQLitePath(db)
	if err != nil {
		return nil, err
	}
	var out []ExposedFile
	for _, f := range []struct {
		what, path string
		mask       fs.FileMode
	}{
		{"database", path, 0o044},
		{"database WAL", path + "-wal", 0o044},
		{"database index", path + "-shm", 0o044},
		{"database directory", filepath.Dir(path), 0o022},
	} {
		fi, err := os.Stat(f.path)
		if err != nil {
			continue
		}
		if fi.Mode().Perm()&f.mask != 0 {
			out = append(out, ExposedFile{What: f.what, Path: f.path, Mode: fi.Mode().Perm()})
		}
	}
	return out, nil
}
