package web

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"kith/server/transfer"
)

// spooledUpload is an upload's temporary file, as ReadUpload leaves it.
func spooledUpload(t *testing.T) *transfer.Upload {
	t.Helper()
	f, err := os.CreateTemp("", "kith-import-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{}"); err != nil {
		t.Fatal(err)
	}
	return &transfer.Upload{File: f, Size: 2, Form: true}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestSpool: a kept file is its user's, in its account, of its kind; it
// is taken once; it is deleted when dropped, and when an hour old.
func TestSpool(t *testing.T) {
	s := newSpool()
	s.dir = t.TempDir()
	orphan, fresh := filepath.Join(s.dir, "left-behind"), filepath.Join(s.dir, "another-server's")
	for _, p := range []string{orphan, fresh} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-spoolLife - time.Minute)
	if err := os.Chtimes(orphan, old, old); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	up := spooledUpload(t)
	token, err := s.keep(&spooled{kind: "monica", user: 1, account: 10}, up, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(token) < 40 {
		t.Errorf("a short token: %q", token)
	}
	if exists(up.File.Name()) {
		t.Errorf("the upload's file is still where ReadUpload put it")
	}
	if exists(orphan) || !exists(fresh) {
		t.Errorf("left behind: the hour-old file is there %v, the fresh one %v", exists(orphan), exists(fresh))
	}
	for _, c := range []struct {
		kind          string
		user, account int64
	}{{"csv", 1, 10}, {"monica", 2, 10}, {"monica", 1, 11}} {
		if f, foreign := s.find(token, c.kind, c.user, c.account, now); f != nil || !foreign {
			t.Errorf("%+v finds %v, foreign %v", c, f, foreign)
		}
	}
	if f, foreign := s.find("other", "monica", 1, 10, now); f != nil || foreign {
		t.Errorf("an unknown token finds %v, foreign %v", f, foreign)
	}
	f, _ := s.take(token, "monica", 1, 10, now)
	if f == nil || filepath.Dir(f.path) != s.dir || f.size != 2 {
		t.Fatalf("take: %+v", f)
	}
	if again, _ := s.take(token, "monica", 1, 10, now); again != nil {
		t.Errorf("taken twice")
	}
	s.putBack(token, f)
	if f, _ := s.find(token, "monica", 1, 10, now.Add(spoolLife)); f == nil {
		t.Errorf("put back, then gone within the hour")
	}
	path := f.path
	if !exists(path) {
		t.Fatalf("the file is gone while kept")
	}
	// Another file checked later sweeps the first, an hour old.
	up2 := spooledUpload(t)
	token2, err := s.keep(&spooled{kind: "monica", user: 1, account: 10}, up2, now.Add(spoolLife+time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if exists(path) {
		t.Errorf("an hour-old file is still there")
	}
	if f, _ := s.find(token, "monica", 1, 10, now); f != nil {
		t.Errorf("an hour-old token still finds its file")
	}
	f2, _ := s.take(token2, "monica", 1, 10, now.Add(spoolLife+time.Second))
	f2.drop()
	if exists(f2.path) {
		t.Errorf("a dropped file is still there")
	}
}
