package server

import (
	"context"
	"strings"
	"testing"

	"kith/store"
)

// TestLoginPastByte72IsRefused: bcrypt reads only a password's first 72
// bytes, so a user whose password is 72 bytes long must not also log in
// with it plus anything: the longer one gets the same answer as any wrong
// password.
func TestLoginPastByte72IsRefused(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("k", 72)
	if _, err := e.st.CreateUser(context.Background(), store.NewUser{FirstName: "L", LastName: "L", Email: "long@example.com", Password: long}); err != nil {
		t.Fatal(err)
	}
	e.run(t, []scenario{
		{"the 72-byte password logs in", req{method: "POST", path: "/api/login", body: `{"email":"long@example.com","password":"` + long + `"}`},
			200, []string{`"token":"`}},
		{"the same plus one byte is refused", req{method: "POST", path: "/api/login", body: `{"email":"long@example.com","password":"` + long + `x"}`},
			401, errBody(401, "Invalid credentials")},
		{"the same plus many bytes is refused", req{method: "POST", path: "/api/login", body: `{"email":"long@example.com","password":"` + long + strings.Repeat("y", 100) + `"}`},
			401, errBody(401, "Invalid credentials")},
	})
}
