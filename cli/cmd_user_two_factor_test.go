package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"kith/store"
)

// columns are the spaces between two columns of a listing.
var columns = regexp.MustCompile(` +`)

// TestUserTwoFactorDisable: the operator turns a user's two-factor off by
// email; off already is no failure; an unknown email is, named.
func TestUserTwoFactorDisable(t *testing.T) {
	f := newAdminFixture(t)
	st := openTestStore(t, f.db)
	ctx := context.Background()
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	for _, id := range []int64{1, 3} {
		if _, err := st.SetPendingTwoFactor(ctx, id, secret); err != nil {
			t.Fatal(err)
		}
		if err := st.ConfirmTwoFactor(ctx, id, secret, 1, [][]byte{make([]byte, 32)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	// Grace's passkey stays when her two-factor goes.
	if _, err := st.AddPasskey(ctx, store.Passkey{UserID: 1, CredentialID: []byte("grace"), PublicKey: []byte("k"), Name: "Laptop"}); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runKith("user", "list", "--db", f.db)
	if lines := strings.Split(out, "\n"); !strings.HasSuffix(columns.ReplaceAllString(lines[1], " "), " on 1") ||
		!strings.HasSuffix(columns.ReplaceAllString(lines[2], " "), " off 0") || !strings.HasSuffix(columns.ReplaceAllString(lines[3], " "), " on 0") {
		t.Fatalf("user list:\n%s", out)
	}

	code, out, errOut := runKith("user", "two-factor", "disable", "--db", f.db, "--email", " GRACE@example.com")
	if code != 0 || errOut != "" || !strings.Contains(out, "Two-factor authentication is off for grace@example.com") {
		t.Fatalf("disable: %d %q %q", code, out, errOut)
	}
	tf, err := st.UserTwoFactor(ctx, 1)
	if err != nil || tf.Enabled() || tf.Secret != "" || tf.Pending != "" || tf.RecoveryLeft != 0 {
		t.Fatalf("grace's two-factor %+v %v", tf, err)
	}
	if tf, _ := st.UserTwoFactor(ctx, 3); !tf.Enabled() || tf.RecoveryLeft != 1 {
		t.Errorf("alan's two-factor changed: %+v", tf)
	}
	_, out, _ = runKith("user", "list", "--db", f.db)
	if lines := strings.Split(out, "\n"); !strings.HasSuffix(columns.ReplaceAllString(lines[1], " "), " off 1") ||
		!strings.HasSuffix(columns.ReplaceAllString(lines[3], " "), " on 0") {
		t.Errorf("user list after:\n%s", out)
	}

	code, out, errOut = runKith("user", "two-factor", "disable", "--db", f.db, "--email", "grace@example.com")
	if code != 0 || errOut != "" || !strings.Contains(out, "already off for grace@example.com") {
		t.Errorf("disable again: %d %q %q", code, out, errOut)
	}
	code, out, errOut = runKith("user", "two-factor", "disable", "--db", f.db, "--email", "nobody@example.com")
	if code == 0 || out != "" || !strings.Contains(errOut, "nobody@example.com") {
		t.Errorf("unknown email: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runKith("user", "two-factor", "disable", "--db", f.db); code == 0 || !strings.Contains(errOut, "--email") {
		t.Errorf("no email: %d %q", code, errOut)
	}
}
