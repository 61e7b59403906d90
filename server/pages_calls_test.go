package server

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"kith/store"
)

// TestWebLogCall: one press records a call today, in the user's time
// zone, restarts the stay-in-touch clock, and goes back where it was
// pressed; another account's person is a 404 that records nothing.
func TestWebLogCall(t *testing.T) {
	e := newEnv(t)
	u, _ := e.user("ada@example.com")
	other, _ := e.user("bob@example.com")
	ctx := context.Background()
	add := func(acct int64, name string) store.Person {
		p, err := e.st.CreatePerson(ctx, acct, store.PersonInput{FirstName: name, MaritalStatus: "unknown",
			KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	grace := add(u.AccountID, "Grace")
	every := int64(7)
	if _, err := e.st.SetStayInTouch(ctx, u.AccountID, grace.ID, &every, "2026-02-20"); err != nil {
		t.Fatal(err)
	}
	theirs := add(other.AccountID, "Eve")

	b := e.signIn(t, "ada@example.com")
	b.get("/").has(t, "Grace")
	pg := b.post("/people/"+strconv.FormatInt(grace.ID, 10)+"/call", form("back", "dashboard"))
	pg.redirects(t, "/")
	dash := b.follow(pg)
	dash.has(t, "Call with Grace logged for today.")

	calls, _, err := e.st.Interactions(ctx, u.AccountID, grace.ID, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Kind != "call" || calls[0].HappenedOn != "2026-03-15" {
		t.Fatalf("interactions after Log a call: %+v", calls)
	}
	c, err := e.st.StayInTouch(ctx, u.AccountID, grace.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Due("2026-03-15") {
		t.Errorf("Grace still due after a call: %+v", c)
	}

	// From the person's page it goes back there; back is a word, so a URL
	// in it leads nowhere else.
	b.post("/people/"+strconv.FormatInt(grace.ID, 10)+"/call", form("back", "https://evil.example/")).redirects(t, "/people/"+strconv.FormatInt(grace.ID, 10))

	// Another account's person answers 404 and gets nothing.
	b.post("/people/"+strconv.FormatInt(theirs.ID, 10)+"/call", nil).status(t, http.StatusNotFound)
	if got, _, _ := e.st.Interactions(ctx, other.AccountID, theirs.ID, 10, 0); len(got) != 0 {
		t.Errorf("another account's person got %d interactions", len(got))
	}
}
