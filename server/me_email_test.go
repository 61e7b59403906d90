package server

import (
	"strings"
	"testing"
)

const needsPassword = "The current password is needed to change the email."

// TestAPIEmailChangeNeedsThePassword: with api.email_change_needs_password
// on, PUT /api/me moves the account to another address only with the
// current password, checked as a sign-in is, so a stolen key is not
// enough; the rest of the profile still changes with a key alone.
func TestAPIEmailChangeNeedsThePassword(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.EmailChangeNeedsPassword = true })
	_, key := e.user("ada@example.com")
	put := func(extra string) resp {
		return e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=Lovelace" + extra, key: key})
	}
	stillAda := func(when string) {
		t.Helper()
		if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 || !strings.Contains(r.body, `"email":"ada@example.com"`) {
			t.Fatalf("%s: the account moved or was locked: %d %s", when, r.code, r.body)
		}
	}

	r := put("&email=eve@example.net")
	wantError(t, r, 422, "current_password", needsPassword)
	stillAda("without the password")

	r = put("&email=eve@example.net&current_password=")
	wantError(t, r, 422, "current_password", needsPassword)

	r = put("&email=eve@example.net&current_password=guess")
	wantError(t, r, 422, "current_password", "The password is incorrect.")
	stillAda("with a wrong password")

	// The same address in another case is no change, and needs nothing.
	if r := put("&email=ADA@Example.com&nickname=Countess"); r.code != 200 || !strings.Contains(r.body, `"nickname":"Countess"`) {
		t.Fatalf("a profile change keeping the address: %d %s", r.code, r.body)
	}

	if r := put("&email=ada.new@example.org&current_password=correct%20horse"); r.code != 200 || !strings.Contains(r.body, `"email":"ada.new@example.org"`) {
		t.Fatalf("with the right password: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Errorf("after the change the user is unverified until the link: %d %s", r.code, r.body)
	}
}

// TestAPIEmailChangeWrongPasswordsCountAsFailedLogins: guessing the
// password through PUT /api/me is as slow as through POST /api/login:
// five wrong ones block both, the right password included.
func TestAPIEmailChangeWrongPasswordsCountAsFailedLogins(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.EmailChangeNeedsPassword = true })
	_, key := e.user("ada@example.com")
	for i := range 5 {
		r := e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=Lovelace&email=eve@example.net&current_password=guess" + string(rune('a'+i)), key: key})
		wantError(t, r, 422, "current_password", "The password is incorrect.")
	}
	r := e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=Lovelace&email=eve@example.net&current_password=correct%20horse", key: key})
	if r.code != 429 || r.header.Get("Retry-After") == "" {
		t.Errorf("the right password after five wrong ones: %d %s (Retry-After %q)", r.code, r.body, r.header.Get("Retry-After"))
	}
	if r := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"}); r.code != 429 {
		t.Errorf("a login after five wrong passwords on PUT /api/me: %d %s", r.code, r.body)
	}
}

// TestAPIEmailChangeByDefaultKeepsPeopleOS: with the setting off, a key
// alone changes the email as PeopleOS's clients expect, and a password a
// client sends anyway is still checked rather than ignored.
func TestAPIEmailChangeByDefaultKeepsPeopleOS(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=Lovelace&email=ada@example.org&current_password=guess", key: key})
	wantError(t, r, 422, "current_password", "The password is incorrect.")
	e.changeEmail(key, "ada@example.org")
}

// wantError checks a refusal's status and that its errors name the field
// with exactly the message.
func wantError(t *testing.T, r resp, code int, field, msg string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.body, `"errors":{"`+field+`":["`+msg+`"]}`) {
		t.Errorf("want %d with %s: %q; got %d %s", code, field, msg, r.code, r.body)
	}
}
