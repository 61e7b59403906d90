package cli

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kith/store"
)

// TestDamagedDatabaseIsNoticed: a database whose data pages were damaged on
// disk (a failing SD card) is noticed by the check a server runs at start:
// the log says so once, and GET /api/health answers 503 until it is
// repaired, so that a monitor sees it. An undamaged one answers 200.
func TestDamagedDatabaseIsNoticed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	if code, out, errOut := runKith("user", "create", "--db", db, "--email", "grace@example.com", "--first-name", "Grace", "--last-name", "Hopper"); code != 0 {
		t.Fatalf("user create: %d %q %q", code, out, errOut)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	note := strings.Repeat("how we met, at length. ", 40)
	for i := range 400 {
		if _, err := st.CreatePerson(ctx, 1, store.PersonInput{FirstName: "Person", HowWeMet: &note, MaritalStatus: "unknown",
			KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}); err != nil {
			t.Fatalf("person %d: %v", i, err)
		}
	}
	st.Close()

	healthy := startServer(t, "--db", db)
	if code, body := get(t, "http://"+healthy.addr(t)+"/api/health", ""); code != 200 {
		t.Fatalf("health of an undamaged database: %d %s", code, body)
	}
	healthy.shutdown(t)

	// Damage a page in the middle of the persons' rows, as a bad sector
	// would: the middle of the file may be an empty index's page, whose
	// unused bytes no check reads.
	page := personsPage(t, db)
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for i := page*4096 + 8; i < page*4096+4000; i++ {
		raw[i] ^= 0x5a
	}
	if err := os.WriteFile(db, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--db", db)
	addr := s.addr(t)
	var code int
	var body string
	for range 100 { // the check runs beside the first answers
		if code, body = get(t, "http://"+addr+"/api/health", ""); code == 503 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code != 503 || !strings.Contains(body, "damaged pages") {
		t.Errorf("health of a damaged database: %d %s", code, body)
	}
	if !strings.Contains(s.stderr.String(), "the database has damaged pages") || !strings.Contains(s.stderr.String(), `"quick_check"`) {
		t.Errorf("the damage is not in the log: %s", s.stderr.String())
	}
}

// personsPage is the index from 0 of a page in the middle of the persons'
// rows in the database file.
func personsPage(t *testing.T, db string) int {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var page int
	err = d.QueryRow(`SELECT pageno FROM dbstat WHERE name = 'persons' AND pagetype = 'leaf' ORDER BY pageno
		LIMIT 1 OFFSET (SELECT count(*) / 2 FROM dbstat WHERE name = 'persons' AND pagetype = 'leaf')`).Scan(&page)
	if err != nil {
		t.Fatal(err)
	}
	return page - 1
}
