package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kith/store"
)

// withStdin makes os.Stdin read input until the test ends.
func withStdin(t *testing.T, input string) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(input); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = f
	t.Cleanup(func() { os.Stdin = old; f.Close() })
}

// adminFixture is a database with two users of one account (grace, then
// ada, who joined it) and one of another (alan); grace and alan have a web
// session and an API key each.
type adminFixture struct {
	db                   string
	graceKey, alanKey    store.APIKey
	graceToken, graceWeb string
}

func newAdminFixture(t *testing.T) adminFixture {
	t.Helper()
	f := adminFixture{db: filepath.Join(t.TempDir(), "kith.db")}
	for _, args := range [][]string{
		{"--email", "grace@example.com", "--first-name", "Grace", "--last-name", "Hopper", "--password", "cobol rules"},
		{"--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L", "--password", "analytical engine", "--account", "1"},
		{"--email", "alan@example.com", "--first-name", "Alan", "--last-name", "T", "--password", "enigma machine"},
	} {
		if code, out, errOut := runKith(append([]string{"user", "create", "--db", f.db}, args...)...); code != 0 {
			t.Fatalf("user create: %d %q %q", code, out, errOut)
		}
	}
	st := openTestStore(t, f.db)
	ctx := context.Background()
	var err error
	if f.graceKey, f.graceToken, err = st.CreateAPIKey(ctx, 1, "grace's phone"); err != nil {
		t.Fatal(err)
	}
	if f.alanKey, _, err = st.CreateAPIKey(ctx, 3, "alan's laptop"); err != nil {
		t.Fatal(err)
	}
	if f.graceWeb, err = st.CreateWebSession(ctx, 1, store.WebClient{}); err != nil {
		t.Fatal(err)
	}
	if _, err = st.CreateWebSession(ctx, 3, store.WebClient{}); err != nil {
		t.Fatal(err)
	}
	return f
}

// openTestStore opens the database for the test's own reads and writes.
func openTestStore(t *testing.T, db string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// afterKeyCache moves st's clock past what its key cache keeps: a command
// beside a running server is seen by it within store.KeyCacheTTL.
func afterKeyCache(st *store.Store) {
	now := time.Now().Add(store.KeyCacheTTL)
	st.Now = func() time.Time { return now }
}

func TestUserList(t *testing.T) {
	f := newAdminFixture(t)
	code, out, errOut := runKith("user", "list", "--db", f.db)
	if code != 0 || errOut != "" {
		t.Fatalf("user list: %d %q %q", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || !regexp.MustCompile(`^ID +EMAIL +ACCOUNT +VERIFIED +CREATED +LAST SEEN +TWO-FACTOR +PASSKEYS$`).MatchString(lines[0]) {
		t.Fatalf("user list:\n%s", out)
	}
	when := `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`
	for i, want := range []string{
		`^1 +grace@example\.com +1 +yes +` + when + ` +` + when + ` +off +0$`,
		`^2 +ada@example\.com +1 +yes +` + when + ` +- +off +0$`, // never signed in
		`^3 +alan@example\.com +2 +yes +` + when + ` +` + when + ` +off +0$`,
	} {
		if !regexp.MustCompile(want).MatchString(lines[i+1]) {
			t.Errorf("line %d %q does not match %s", i+1, lines[i+1], want)
		}
	}
	if strings.Contains(out, "cobol") || strings.Contains(out, "$2") {
		t.Errorf("user list shows a password or its hash:\n%s", out)
	}
}

// TestUserListPasskeys: the PASSKEYS column counts each user's passkeys.
func TestUserListPasskeys(t *testing.T) {
	f := newAdminFixture(t)
	st := openTestStore(t, f.db)
	for i, owner := range []int64{1, 1, 3} {
		p := store.Passkey{UserID: owner, CredentialID: []byte{byte(i)}, PublicKey: []byte("k"), Name: "Key"}
		if _, err := st.AddPasskey(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	_, out, _ := runKith("user", "list", "--db", f.db)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, want := range []string{"^1 .* 2$", "^2 .* 0$", "^3 .* 1$"} {
		if len(lines) != 4 || !regexp.MustCompile(want).MatchString(lines[i+1]) {
			t.Fatalf("line %d does not match %s:\n%s", i+1, want, out)
		}
	}
}

func TestUserPassword(t *testing.T) {
	f := newAdminFixture(t)
	ctx := context.Background()
	st := openTestStore(t, f.db)

	code, out, errOut := runKith("user", "password", "--db", f.db, "--email", "Grace@Example.com")
	password := regexp.MustCompile(`(?m)^password: (\S+)$`).FindStringSubmatch(out)
	if code != 0 || password == nil || !strings.Contains(out, "id: 1\nemail: grace@example.com\n") ||
		!strings.Contains(out, "web sessions revoked: 1\n") || strings.Contains(out, "api keys") {
		t.Fatalf("user password: %d %q %q", code, out, errOut)
	}
	if _, err := st.Login(ctx, "grace@example.com", password[1]); err != nil {
		t.Errorf("the printed password does not log in: %v", err)
	}
	if _, err := st.WebSession(ctx, f.graceWeb); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("grace's web session after the new password: %v", err)
	}
	if _, err := st.Authenticate(ctx, f.graceToken); err != nil {
		t.Errorf("grace's key without --revoke-keys: %v", err)
	}

	withStdin(t, "a chosen password\nthe rest is not read\n")
	code, out, errOut = runKith("user", "password", "--db", f.db, "--email", "grace@example.com", "--password-stdin", "--revoke-keys")
	if code != 0 || strings.Contains(out, "password:") || strings.Contains(out, "chosen") ||
		!strings.Contains(out, "web sessions revoked: 0\napi keys revoked: 1\n") {
		t.Fatalf("user password --password-stdin --revoke-keys: %d %q %q", code, out, errOut)
	}
	if _, err := st.Login(ctx, "grace@example.com", "a chosen password"); err != nil {
		t.Errorf("the password from stdin does not log in: %v", err)
	}
	afterKeyCache(st)
	if _, err := st.Authenticate(ctx, f.graceToken); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("grace's key after --revoke-keys: %v", err)
	}
	if keys, _ := st.APIKeys(ctx, 3); len(keys) != 1 {
		t.Errorf("alan has %d keys after grace's were revoked, want 1", len(keys))
	}

	withStdin(t, "crlf password\r\n")
	if code, out, errOut := runKith("user", "password", "--db", f.db, "--email", "ada@example.com", "--password-stdin"); code != 0 {
		t.Fatalf("a CRLF line: %d %q %q", code, out, errOut)
	}
	if _, err := st.Login(ctx, "ada@example.com", "crlf password"); err != nil {
		t.Errorf("the line ending is part of the password: %v", err)
	}

	failures := []struct {
		name, stdin string
		args        []string
		code        int
		want        string
	}{
		{"no email", "", []string{}, 1, "user password needs --email"},
		{"an unknown email", "", []string{"--email", "nobody@example.com"}, 1, "no user has the email nobody@example.com"},
		{"an unknown email, from stdin", "long enough\n", []string{"--email", "Nobody@example.com", "--password-stdin"}, 1, "no user has the email nobody@example.com"},
		{"an empty stdin", "", []string{"--email", "alan@example.com", "--password-stdin"}, 1, "standard input holds no password"},
		{"an empty first line", "\nsecond line\n", []string{"--email", "alan@example.com", "--password-stdin"}, 1, "standard input holds no password"},
		{"a short password", "short\n", []string{"--email", "alan@example.com", "--password-stdin"}, 1, "8 to 72 bytes"},
		{"a long password", strings.Repeat("p", 73) + "\n", []string{"--email", "alan@example.com", "--password-stdin"}, 1, "8 to 72 bytes"},
		{"a password given as a flag", "", []string{"--email", "alan@example.com", "--password", "x"}, 2, "password"},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			withStdin(t, tc.stdin)
			code, out, errOut := runKith(append([]string{"user", "password", "--db", f.db}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q (want %q)", code, tc.code, out, errOut, tc.want)
			}
		})
	}
	if _, err := st.Login(ctx, "alan@example.com", "enigma machine"); err != nil {
		t.Errorf("alan's password after the refusals: %v", err)
	}
}

func TestUserDelete(t *testing.T) {
	f := newAdminFixture(t)
	ctx := context.Background()
	st := openTestStore(t, f.db)
	if _, err := st.CreatePerson(ctx, 1, store.PersonInput{FirstName: "Shared", MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runKith("user", "delete", "--db", f.db, "--email", "grace@example.com")
	if code != 1 || !strings.Contains(errOut, "nothing deleted: run again with --yes") ||
		!strings.HasPrefix(out, "would delete user 1 (grace@example.com); account 1 stays with its 1 other user(s)") ||
		!regexp.MustCompile(`(?m)^  api_keys: +1$`).MatchString(out) || strings.Contains(out, "persons") {
		t.Fatalf("user delete without --yes: %d %q %q", code, out, errOut)
	}
	if _, err := st.UserByEmail(ctx, "grace@example.com"); err != nil {
		t.Fatalf("grace after a delete without --yes: %v", err)
	}

	code, out, errOut = runKith("user", "delete", "--db", f.db, "--email", "grace@example.com", "--yes")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "deleted user 1 (grace@example.com); account 1 stays") {
		t.Fatalf("user delete --yes: %d %q %q", code, out, errOut)
	}
	if _, err := st.Authenticate(ctx, f.graceToken); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("grace's key after her deletion: %v", err)
	}
	if persons, _, err := st.Persons(ctx, 1, 10, 0); err != nil || len(persons) != 1 {
		t.Errorf("the account's persons after one of two users went: %d, %v", len(persons), err)
	}

	code, out, errOut = runKith("user", "delete", "--db", f.db, "--email", "ada@example.com")
	if code != 1 || !strings.HasPrefix(out, "would delete user 2 (ada@example.com) and account 1, whose last user they are") ||
		!regexp.MustCompile(`(?m)^  persons: +1$`).MatchString(out) {
		t.Fatalf("user delete of the last user without --yes: %d %q %q", code, out, errOut)
	}
	if code, out, errOut = runKith("user", "delete", "--db", f.db, "--email", "ADA@example.com", "--yes"); code != 0 {
		t.Fatalf("user delete of the last user: %d %q %q", code, out, errOut)
	}
	if persons, total, err := st.Persons(ctx, 1, 10, 0); err != nil || len(persons) != 0 || total != 0 {
		t.Errorf("account 1 still has %d persons, %v", total, err)
	}
	code, out, _ = runKith("user", "list", "--db", f.db)
	if code != 0 || strings.Contains(out, "grace") || strings.Contains(out, "ada@") || !strings.Contains(out, "alan@example.com") {
		t.Errorf("user list after the deletions: %d %q", code, out)
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no email", []string{"--yes"}, 1, "user delete needs --email"},
		{"an unknown email", []string{"--email", "grace@example.com", "--yes"}, 1, "no user has the email grace@example.com"},
		{"an unknown email without --yes", []string{"--email", "nobody@example.com"}, 1, "no user has the email nobody@example.com"},
		{"an argument", []string{"--email", "alan@example.com", "yes"}, 2, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runKith(append([]string{"user", "delete", "--db", f.db}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q (want %q)", code, tc.code, out, errOut, tc.want)
			}
		})
	}
	if _, err := st.UserByEmail(ctx, "alan@example.com"); err != nil {
		t.Errorf("alan after the refusals: %v", err)
	}
}

func TestKeyListAndRevoke(t *testing.T) {
	f := newAdminFixture(t)
	ctx := context.Background()
	st := openTestStore(t, f.db)
	sess, err := st.Authenticate(ctx, f.graceToken)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.TouchAPIKey(ctx, sess.KeyID); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runKith("key", "list", "--db", f.db, "--email", "GRACE@example.com")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	when := `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`
	if code != 0 || errOut != "" || len(lines) != 2 || !regexp.MustCompile(`^ID +NAME +CREATED +LAST USED$`).MatchString(lines[0]) ||
		!regexp.MustCompile(`^1 +grace's phone +`+when+` +`+when+`$`).MatchString(lines[1]) {
		t.Fatalf("key list: %d %q %q", code, out, errOut)
	}
	if strings.Contains(out, strings.SplitN(f.graceToken, "|", 2)[1]) {
		t.Errorf("key list shows the secret: %q", out)
	}
	code, out, _ = runKith("key", "list", "--db", f.db, "--email", "alan@example.com")
	if code != 0 || !regexp.MustCompile(`(?m)^2 +alan's laptop +`+when+` +-$`).MatchString(out) {
		t.Errorf("key list of alan: %d %q", code, out)
	}
	code, out, _ = runKith("key", "list", "--db", f.db, "--email", "ada@example.com")
	if code != 0 || out != "ID  NAME  CREATED  LAST USED\n" {
		t.Errorf("key list of a user without keys: %d %q", code, out)
	}

	failures := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"list without an email", []string{"list"}, 1, "key list needs --email"},
		{"list of an unknown email", []string{"list", "--email", "nobody@example.com"}, 1, "no user has the email nobody@example.com"},
		{"revoke without an email", []string{"revoke", "--id", "1"}, 1, "key revoke needs --email EMAIL and --id ID"},
		{"revoke without an id", []string{"revoke", "--email", "grace@example.com"}, 1, "key revoke needs --email EMAIL and --id ID"},
		{"revoke of an unknown email", []string{"revoke", "--email", "nobody@example.com", "--id", "1"}, 1, "no user has the email nobody@example.com"},
		{"revoke of another user's key", []string{"revoke", "--email", "grace@example.com", "--id", "2"}, 1, "no key 2 for grace@example.com"},
		{"revoke of a key that never was", []string{"revoke", "--email", "grace@example.com", "--id", "99"}, 1, "no key 99 for grace@example.com"},
		{"revoke of key 0", []string{"revoke", "--email", "grace@example.com", "--id", "0"}, 1, "no key 0 for grace@example.com"},
		{"revoke of an id that is no number", []string{"revoke", "--email", "grace@example.com", "--id", "one"}, 2, "id"},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runKith(append([]string{"key", tc.args[0], "--db", f.db}, tc.args[1:]...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q (want %q)", code, tc.code, out, errOut, tc.want)
			}
		})
	}
	if _, err := st.APIKey(ctx, 3, f.alanKey.ID); err != nil {
		t.Errorf("alan's key after grace tried to revoke it: %v", err)
	}

	code, out, errOut = runKith("key", "revoke", "--db", f.db, "--email", "grace@example.com", "--id", "1")
	if code != 0 || out != "revoked key 1 of grace@example.com\n" || errOut != "" {
		t.Fatalf("key revoke: %d %q %q", code, out, errOut)
	}
	afterKeyCache(st)
	if _, err := st.Authenticate(ctx, f.graceToken); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("the revoked key: %v", err)
	}
	code, _, errOut = runKith("key", "revoke", "--db", f.db, "--email", "grace@example.com", "--id", "1")
	if code != 1 || !strings.Contains(errOut, "no key 1 for grace@example.com") {
		t.Errorf("a second revoke: %d %q", code, errOut)
	}
}

// TestUserPasswordResetsCredentials: --revoke-keys is a credential reset:
// besides the keys, the calendar feed's URL stops working and every channel
// but email (which reaches only the user's own address) is disabled and
// listed, for the user to review; another user's are left alone.
func TestUserPasswordResetsCredentials(t *testing.T) {
	f := newAdminFixture(t)
	ctx := context.Background()
	st := openTestStore(t, f.db)
	_, feedSecret, err := st.CreateCalendarFeed(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	// Her email channel, made with her, stays: it reaches only her.
	chans := map[string]store.ChannelInput{
		"webhook": {Kind: "webhook", Name: str("Intruder"), URL: str("https://user:pw@evil.example/hook?k=secret"), Token: str("signing-key-0123456789"), Enabled: true},
		"ntfy":    {Kind: "ntfy", URL: str("https://ntfy.example/grace"), Enabled: true},
	}
	ids := map[string]int64{}
	for name, in := range chans {
		ch, err := st.CreateChannel(ctx, 1, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ids[name] = ch.ID
	}
	alans, err := st.CreateChannel(ctx, 3, store.ChannelInput{Kind: "ntfy", URL: str("https://ntfy.example/alan"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}

	withStdin(t, "a new password\n")
	code, out, errOut := runKith("user", "password", "--db", f.db, "--email", "grace@example.com", "--password-stdin", "--revoke-keys")
	if code != 0 || !strings.Contains(out, "api keys revoked: 1\ncalendar feeds revoked: 1\nchannels disabled: 2\n") ||
		!strings.Contains(out, fmt.Sprintf("  channel %d: webhook \"Intruder\" to evil.example (", ids["webhook"])) ||
		!strings.Contains(out, fmt.Sprintf("  channel %d: ntfy to ntfy.example (", ids["ntfy"])) {
		t.Fatalf("user password --revoke-keys: %d %q %q", code, out, errOut)
	}
	if strings.Contains(out, "pw@") || strings.Contains(out, "secret") || strings.Contains(out, "signing-key") {
		t.Errorf("the listing shows a channel's secret:\n%s", out)
	}
	if _, err := st.CalendarFeedData(ctx, feedSecret); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the calendar feed's URL after the reset: %v", err)
	}
	list, err := st.Channels(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	emails := 0
	for _, ch := range list {
		if want := ch.Kind == "email"; ch.Enabled != want {
			t.Errorf("grace's %s channel enabled %v, want %v", ch.Kind, ch.Enabled, want)
		}
		if ch.Kind == "email" {
			emails++
		}
	}
	if emails != 1 || len(list) != 3 {
		t.Errorf("grace has %d channels, %d of them email: %+v", len(list), emails, list)
	}
	theirs, err := st.Channels(ctx, 3)
	if err != nil || len(theirs) != 2 {
		t.Fatalf("alan's channels: %+v %v", theirs, err)
	}
	for _, ch := range theirs {
		if !ch.Enabled {
			t.Errorf("alan's %s channel (%d; his ntfy is %d) was disabled by grace's reset", ch.Kind, ch.ID, alans.ID)
		}
	}

	// Without --revoke-keys a new password leaves them as they are.
	if _, _, err := st.CreateCalendarFeed(ctx, 1); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runKith("user", "password", "--db", f.db, "--email", "grace@example.com")
	if code != 0 || strings.Contains(out, "calendar feeds") || strings.Contains(out, "channels disabled") {
		t.Errorf("user password without --revoke-keys: %d %q", code, out)
	}
	if _, err := st.CalendarFeed(ctx, 1); err != nil {
		t.Errorf("the feed without --revoke-keys: %v", err)
	}
}
