package cli

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDiskFull starves the real binary of disk: its file size limit
// (RLIMIT_FSIZE, set from outside with prlimit) stops the database and its
// WAL from growing, as a full disk would. Writes answer 503 with the cause
// in the log, reads go on, health says 503, the process stays up, nothing
// acknowledged is lost, and all comes back by itself once the limit goes.
func TestDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	db := filepath.Join(t.TempDir(), "kith.db")
	c := startChild(t, db)
	key := c.firstKey(t)
	ctx := context.Background()
	var acked []int64
	create := func(i int) (int, map[string]any) {
		t.Helper()
		code, body, err := call(ctx, "POST", c.base+"/api/persons", key,
			map[string]any{"first_name": fmt.Sprintf("P%d", i), "how_we_met": strings.Repeat("h", 255),
				"last_name": strings.Repeat("l", 255), "middle_name": strings.Repeat("m", 255), "nickname": strings.Repeat("n", 255)})
		if err != nil {
			t.Fatalf("no answer: the process died? %v\n%s", err, c.stderr.String())
		}
		if code == 201 {
			acked = append(acked, dataID(body))
		}
		return code, body
	}
	for i := range 5 {
		if code, body := create(i); code != 201 {
			t.Fatalf("before the fault: %d %v", code, body)
		}
	}

	// Empty the WAL into the database, then let no file grow past 8 KiB:
	// the next commits need WAL frames beyond that.
	d, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	pid := c.cmd.Process.Pid
	setFileLimit(t, pid, 8<<10)
	refused := 0
	for i := 5; i < 60 && refused < 3; i++ {
		code, body := create(i)
		switch code {
		case 201:
		case 503:
			if body["message"] != "Service Unavailable." || body["status"] != float64(503) {
				t.Fatalf("503 body %v", body)
			}
			refused++
		default:
			t.Fatalf("with the disk full: %d %v", code, body)
		}
	}
	if refused == 0 {
		t.Fatal("the file size limit never stopped a write: the test did not simulate a full disk")
	}
	if !strings.Contains(c.stderr.String(), `"level":"error"`) || !strings.Contains(c.stderr.String(), "request failed") {
		t.Errorf("the cause is not logged:\n%s", c.stderr.String())
	}
	if code, body, err := call(ctx, "GET", c.base+"/api/persons?per_page=100", key, nil); err != nil || code != 200 {
		t.Errorf("reads with the disk full: %d %v %v", code, body, err)
	}
	if code, body, _ := call(ctx, "GET", c.base+"/api/health", "", nil); code != 503 {
		t.Errorf("health with the disk full: %d %v", code, body)
	}

	// The disk frees up: no restart, no request needed to notice.
	setFileLimit(t, pid, unix.RLIM_INFINITY)
	waitFor(t, "health to recover", func() bool {
		code, _, _ := call(ctx, "GET", c.base+"/api/health", "", nil)
		return code == 200
	})
	for i := 100; i < 105; i++ {
		if code, body := create(i); code != 201 {
			t.Fatalf("after the fault: %d %v", code, body)
		}
	}

	c.kill()
	startChild(t, db)
	integrityOK(t, db)
	for _, id := range acked {
		var n int
		openRO(t, db).QueryRow(`SELECT count(*) FROM persons WHERE id = ?`, id).Scan(&n)
		if n != 1 {
			t.Errorf("person %d was acknowledged and is gone", id)
		}
	}
	t.Logf("%d writes refused with 503 while the disk was full, %d acknowledged, all kept", refused, len(acked))
}

// setFileLimit sets the soft RLIMIT_FSIZE of process pid; the hard limit
// stays, so the test can lift it again without privileges.
func setFileLimit(t *testing.T, pid int, soft uint64) {
	t.Helper()
	var old unix.Rlimit
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, nil, &old); err != nil {
		t.Skipf("prlimit is not allowed here: %v", err)
	}
	lim := unix.Rlimit{Cur: min(soft, old.Max), Max: old.Max}
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &lim, nil); err != nil {
		t.Fatal(err)
	}
}
