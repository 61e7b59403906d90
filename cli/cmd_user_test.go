package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kith/store"
)

func TestUserCreateAndVerify(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	code, out, errOut := runKith("user", "create", "--db", db, "--email", "Grace@Example.com", "--first-name", "Grace", "--last-name", "Hopper")
	password := regexp.MustCompile(`password: (\S+)`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, "id: 1\n") || !strings.Contains(out, "email: grace@example.com") || password == nil {
		t.Fatalf("user create: %d %q %q", code, out, errOut)
	}
	code, out, _ = runKith("user", "create", "--db", db, "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L", "--password", "analytical engine")
	if code != 0 || strings.Contains(out, "password") || !strings.Contains(out, "account: 2\n") {
		t.Errorf("user create with a password prints it, or did not make a new account: %d %q", code, out)
	}
	code, out, errOut = runKith("user", "create", "--db", db, "--email", "grace.team@example.com", "--first-name", "G", "--last-name", "T", "--account", "1")
	if code != 0 || !strings.Contains(out, "id: 3\naccount: 1\n") {
		t.Errorf("user create --account 1: %d %q %q", code, out, errOut)
	}

	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Login(context.Background(), "grace@example.com", password[1]); err != nil {
		t.Errorf("the generated password does not log in: %v", err)
	}
	if _, err := st.Login(context.Background(), "ada@example.com", "analytical engine"); err != nil {
		t.Errorf("the given password does not log in: %v", err)
	}
	st.Close()

	failures := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"user", "create", "--db", db, "--email", "GRACE@example.com", "--first-name", "G", "--last-name", "H"}, 1, "already exists"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--password", strings.Repeat("p", 73)}, 1, "8 to 72 bytes"},
		{[]string{"user", "create", "--db", db, "--email", "nope", "--first-name", "X", "--last-name", "Y"}, 1, "not an email"},
		{[]string{"user", "create", "--db", db, "--first-name", "X"}, 1, "--email"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "99"}, 1, "--account 99: no such account"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "0"}, 1, "--account 0: no such account"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "-1"}, 1, "--account -1: no such account"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "one"}, 2, "account"},
		{[]string{"user", "create", "--db", db, "--bogus"}, 2, "bogus"},
		{[]string{"user", "verify", "--db", db}, 1, "needs --email"},
		{[]string{"user", "verify", "--db", db, "--email", "nobody@example.com"}, 1, "no user has the email nobody@example.com"},
		{[]string{"user", "verify", "--db", db, "--email", "g@example.com", "--first-name", "G"}, 2, "first-name"},
	}
	for _, f := range failures {
		code, _, errOut := runKith(f.args...)
		if code != f.code || !strings.Contains(errOut, f.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", f.args, code, f.code, errOut, f.want)
		}
	}
}

// TestUserCreateReplacesAnInvitation: an invitation never accepted does not
// keep its email from the operator: kith user create makes the user, and
// the invitation's link stops working. A user who has joined keeps theirs.
func TestUserCreateReplacesAnInvitation(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	if code, out, errOut := runKith("user", "create", "--db", db, "--email", "grace@example.com", "--first-name", "Grace", "--last-name", "Hopper"); code != 0 {
		t.Fatalf("user create: %d %q %q", code, out, errOut)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	inv, err := st.InviteUser(ctx, 1, store.Invitee{Email: "ada@example.com", FirstName: "Ada", LastName: "L"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runKith("user", "create", "--db", db, "--email", "Ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace", "--password", "analytical engine")
	if code != 0 || !strings.Contains(out, "email: ada@example.com\n") || !strings.Contains(out, "account: 2\n") {
		t.Fatalf("user create over an invitation: %d %q %q", code, out, errOut)
	}
	if _, err := st.Login(ctx, "ada@example.com", "analytical engine"); err != nil {
		t.Errorf("the user made over the invitation does not log in: %v", err)
	}
	if _, err := st.AcceptInvitation(ctx, inv.Secret, "another password"); err == nil {
		t.Error("the replaced invitation's link still works")
	}
	if code, _, errOut := runKith("user", "create", "--db", db, "--email", "ada@example.com", "--first-name", "A", "--last-name", "L"); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("user create over a user who joined: %d %q", code, errOut)
	}
}

// TestUserSetEmail: the operator gives a user another address, verified;
// the old one signs nobody in, a taken or invalid one is refused.
func TestUserSetEmail(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	for _, args := range [][]string{
		{"--email", "grace@example.com", "--first-name", "Grace", "--last-name", "Hopper", "--password", "cobol rules"},
		{"--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L", "--password", "analytical engine"},
	} {
		if code, out, errOut := runKith(append([]string{"user", "create", "--db", db}, args...)...); code != 0 {
			t.Fatalf("user create: %d %q %q", code, out, errOut)
		}
	}
	code, out, errOut := runKith("user", "set-email", "--db", db, "--email", "Grace@example.com", "--new-email", "Grace@Navy.example")
	if code != 0 || out != "id: 1\nemail: grace@navy.example\nverified\n" {
		t.Fatalf("user set-email: %d %q %q", code, out, errOut)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if u, err := st.Login(ctx, "grace@navy.example", "cobol rules"); err != nil || !u.Verified() {
		t.Errorf("the new address: %+v %v", u, err)
	}
	if _, err := st.Login(ctx, "grace@example.com", "cobol rules"); err == nil {
		t.Error("the old address still signs in")
	}
	for _, f := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--email", "grace@navy.example", "--new-email", "ADA@example.com"}, 1, "a user with the email ada@example.com already exists"},
		{[]string{"--email", "grace@navy.example", "--new-email", "nope"}, 1, `--new-email "nope" is not an email address`},
		{[]string{"--email", "nobody@example.com", "--new-email", "x@example.com"}, 1, "no user has the email nobody@example.com"},
		{[]string{"--email", "grace@navy.example"}, 1, "needs --email and --new-email"},
	} {
		code, _, errOut := runKith(append([]string{"user", "set-email", "--db", db}, f.args...)...)
		if code != f.code || !strings.Contains(errOut, f.want) {
			t.Errorf("%v: %d %q, want %d %q", f.args, code, errOut, f.code, f.want)
		}
	}
}
