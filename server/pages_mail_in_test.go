package server

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
)

var mailInShown = regexp.MustCompile(`log-[a-z0-9]{20,}@in\.example\.com`)

func TestWebSettingsMailIn(t *testing.T) {
	t.Run("off: no section, and nothing to rotate", func(t *testing.T) {
		e := newEnv(t)
		e.user("ada@example.com")
		b := e.signIn(t, "ada@example.com")
		b.get("/settings/data").lacks(t, "Log emails as interactions", `id="mail-in"`)
		if pg := b.post("/settings/mail-in", nil); pg.code != http.StatusNotFound {
			t.Errorf("rotate while off: %d", pg.code)
		}
	})
	e := newMailInEnv(t, nil)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/data")
	pg.has(t, "Log emails as interactions", `data-copy="mail-in-address"`, `id="mail-in-address"`, "Make a new address")
	first := mailInShown.FindString(pg.body)
	if first == "" || first != e.address(key) {
		t.Fatalf("the page shows %q, the API %q", first, e.address(key))
	}
	if again := mailInShown.FindString(b.get("/settings/data").body); again != first {
		t.Errorf("shown again as %q, first %q", again, first)
	}
	if pg := b.post("/settings/mail-in", url.Values{"csrf": {"wrong"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	if mailInShown.FindString(b.get("/settings/data").body) != first {
		t.Error("a refused POST changed the address")
	}
	pg = b.post("/settings/mail-in", nil)
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/settings/data#mail-in" {
		t.Fatalf("rotate: %d %s", pg.code, pg.header.Get("Location"))
	}
	next := b.follow(pg)
	next.has(t, "New mail-in address made: the old one no longer works.")
	second := mailInShown.FindString(next.body)
	if second == "" || second == first || second != e.address(key) {
		t.Errorf("after rotating: page %q, API %q, before %q", second, e.address(key), first)
	}
	if code(send(e.addr, []string{first}, mailMessage("To: a@example.com"), nil)) != 550 {
		t.Error("the old address is still taken")
	}
}
