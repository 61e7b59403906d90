package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"testing"

	"kith/store"
)

// savedPasskey saves a passkey named name for the user, as a
// registration would, and returns its id.
func (e *env) savedPasskey(userID int64, name string) string {
	e.t.Helper()
	id := make([]byte, 16)
	rand.Read(id)
	p, err := e.st.AddPasskey(context.Background(), store.Passkey{UserID: userID, CredentialID: id, PublicKey: []byte("key"), Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return fmt.Sprint(p.ID)
}

// keysPasskey saves a passkey for the user of key and returns its id.
func (e *env) keysPasskey(t *testing.T, key string) string {
	id, err := strconv.ParseInt(jsonID(t, e.do(req{method: "GET", path: "/api/me", key: key})), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return e.savedPasskey(id, "Laptop")
}

// TestPasskeysAPI: the user's own passkeys, listed by id and deleted; a
// passkey of another user, in the same account or another, is 404; every
// route needs a key.
func TestPasskeysAPI(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	grace, _ := e.userIn(ada.AccountID, "grace@example.com")
	alan, _ := e.user("alan@example.com")
	e.run(t, []scenario{
		{"none yet", req{method: "GET", path: "/api/me/passkeys", key: key}, 200, []string{`{"data":[]}`}},
	})
	laptop, phone := e.savedPasskey(ada.ID, "Laptop"), e.savedPasskey(ada.ID, "Phone")
	graces, alans := e.savedPasskey(grace.ID, "Grace's"), e.savedPasskey(alan.ID, "Alan's")
	now := e.clock.Now().Unix()
	e.run(t, []scenario{
		{"list by id", req{method: "GET", path: "/api/me/passkeys", key: key}, 200, []string{fmt.Sprintf(
			`{"data":[{"id":%s,"object":"passkey","name":"Laptop","created_at":%d,"last_used_at":null},{"id":%s,"object":"passkey","name":"Phone","created_at":%d,"last_used_at":null}]}`,
			laptop, now, phone, now)}},
		{"no key", req{method: "GET", path: "/api/me/passkeys"}, 401, errBody(401, "Unauthenticated.")},
		{"delete without a key", req{method: "DELETE", path: "/api/me/passkeys/" + laptop}, 401, errBody(401, "Unauthenticated.")},
		{"same account, another user's", req{method: "DELETE", path: "/api/me/passkeys/" + graces, key: key}, 404, errBody(404, "Passkey not found.")},
		{"another account's", req{method: "DELETE", path: "/api/me/passkeys/" + alans, key: key}, 404, errBody(404, "Passkey not found.")},
		{"not an id", req{method: "DELETE", path: "/api/me/passkeys/abc", key: key}, 404, errBody(404, "Passkey not found.")},
		{"delete", req{method: "DELETE", path: "/api/me/passkeys/" + laptop, key: key}, 204, nil},
		{"delete again", req{method: "DELETE", path: "/api/me/passkeys/" + laptop, key: key}, 404, errBody(404, "Passkey not found.")},
		{"the other stays", req{method: "GET", path: "/api/me/passkeys", key: key}, 200, []string{`"name":"Phone"`}},
	})
	for _, u := range []store.User{grace, alan} {
		if list, _ := e.st.Passkeys(context.Background(), u.ID); len(list) != 1 {
			t.Errorf("%s's passkeys: %v", u.Email, list)
		}
	}
	if n := e.count(`SELECT count(*) FROM passkeys WHERE id = ?`, laptop); n != 0 {
		t.Errorf("the deleted passkey's row is still there")
	}
}
