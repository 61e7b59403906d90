package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// testSend creates a channel of the query's kind and sends it the test.
func (e *env) testSend(key, query string) resp {
	e.t.Helper()
	id := fmt.Sprint(e.channel(key, query)["id"])
	return e.do(req{method: "POST", path: "/api/me/channels/" + id + "/test", key: key})
}

// hookQuery is a webhook channel's creation query for target.
func hookQuery(target string) string { return "kind=webhook&url=" + url.QueryEscape(target) }

// TestChannelErrorsShowTheStatusNotTheBody: a channel's URL may point at
// a host of the server's own network; what that host answers beyond its
// status, page or reason phrase, never reaches the user.
func TestChannelErrorsShowTheStatusNotTheBody(t *testing.T) {
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, "<h1>Jenkins</h1> db_password=hunter2")
	}))
	t.Cleanup(internal.Close)
	// A reason phrase of the host's own: Go's words are shown instead.
	phrase := rawServer(t, func(c net.Conn) {
		if r, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
			io.Copy(io.Discard, r.Body)
		}
		io.WriteString(c, "HTTP/1.1 500 db_password=hunter2\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	})
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	for _, target := range []string{internal.URL + "/hook", "http://" + phrase + "/hook"} {
		r := e.testSend(key, hookQuery(target))
		if r.code != 422 || !strings.Contains(r.body, `"The channel could not deliver the test: webhook answered 500 Internal Server Error"`) ||
			strings.Contains(r.body, "hunter2") || strings.Contains(r.body, "Jenkins") {
			t.Errorf("test send to %s: %d %s", target, r.code, r.body)
		}
	}
	e.pass()
	list := e.do(req{method: "GET", path: "/api/me/channels", key: key})
	if strings.Contains(list.body, "hunter2") || strings.Count(list.body, `"last_error":"webhook answered 500 Internal Server Error"`) != 2 {
		t.Errorf("last errors: %s", list.body)
	}
}

// TestChannelRedirectsAreNotFollowed: a channel's host that redirects
// elsewhere gets its answer shown; the other host gets nothing, neither
// the digest nor the signature nor Gotify's token.
func TestChannelRedirectsAreNotFollowed(t *testing.T) {
	var mu sync.Mutex
	var stolen []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		stolen = append(stolen, r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Kith-Signature")+r.Header.Get("X-Gotify-Key"))
	}))
	t.Cleanup(elsewhere.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := 307
		if strings.Contains(r.URL.Path, "303") {
			code = 303
		}
		http.Redirect(w, r, elsewhere.URL+"/steal", code)
	}))
	t.Cleanup(redirector.Close)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	for _, tc := range []struct{ query, want string }{
		{hookQuery(redirector.URL + "/307"), "webhook answered 307 Temporary Redirect: Kith does not follow redirects"},
		{hookQuery(redirector.URL + "/303"), "webhook answered 303 See Other: Kith does not follow redirects"},
		{"kind=gotify&token=AppToken.1&url=" + url.QueryEscape(redirector.URL+"/307"), "gotify answered 307 Temporary Redirect"},
		{"kind=ntfy&url=" + url.QueryEscape(redirector.URL+"/303/topic"), "ntfy answered 303 See Other"},
	} {
		if r := e.testSend(key, tc.query); r.code != 422 || !strings.Contains(r.body, tc.want) || strings.Contains(r.body, "steal") {
			t.Errorf("test send %s: %d %s", tc.query, r.code, r.body)
		}
	}
	e.pass()
	mu.Lock()
	defer mu.Unlock()
	if len(stolen) != 0 {
		t.Errorf("the redirects were followed: %q", stolen)
	}
}

// TestUnreachableChannelsLookAlike: a closed port, a port that answers
// something other than HTTP, one that hangs up, one that never answers,
// TLS to a plain server and a name that does not resolve all get the one
// message: a user cannot map the server's network with test sends.
func TestUnreachableChannelsLookAlike(t *testing.T) {
	closed := rawServer(t, nil)
	ssh := rawServer(t, func(c net.Conn) { io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n") })
	hangUp := rawServer(t, func(c net.Conn) {})
	silent := rawServer(t, func(c net.Conn) { time.Sleep(2 * time.Second) })
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(plain.Close)
	// A short timeout, or the silent port would take the default 15 s.
	e := newEnv(t, func(o *Options) { o.Notify = &http.Client{Timeout: 300 * time.Millisecond} })
	_, key := e.user("ada@example.com")
	want := `"errors":{"channel":["The channel could not deliver the test: webhook could not be reached"]}`
	for name, target := range map[string]string{
		"closed":   "http://" + closed,
		"not HTTP": "http://" + ssh,
		"hang up":  "http://" + hangUp,
		"silent":   "http://" + silent,
		"TLS":      strings.Replace(plain.URL, "http:", "https:", 1),
		"no DNS":   "http://kith-test.invalid",
	} {
		if r := e.testSend(key, hookQuery(target+"/hook")); r.code != 422 || !strings.Contains(r.body, want) {
			t.Errorf("%s: %d %s", name, r.code, r.body)
		}
	}
}

// rawServer listens on a loopback port and hands each connection to
// serve, then closes it; with serve nil the port is closed again at once,
// so that connecting is refused.
func rawServer(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if serve == nil {
		ln.Close()
		return addr
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				serve(c)
			})
		}
	})
	return addr
}

// TestRefusePrivateAddresses: with the operator's setting on, a channel
// at a loopback address, by IP or by a name that resolves to one, is
// refused when connecting, in the test send and the daily digest alike,
// and the host gets nothing; with it off (the default), it is reached.
func TestRefusePrivateAddresses(t *testing.T) {
	rc, got := newReceiver(t)
	_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
	e := newEnv(t, func(o *Options) { o.RefusePrivateAddresses = true })
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	want := "webhook's address is private or local, and this Kith server sends only to public addresses"
	for _, target := range []string{rc.URL + "/ip", "http://localhost:" + port + "/name", "http://[::ffff:127.0.0.1]:" + port + "/mapped"} {
		if r := e.testSend(key, hookQuery(target)); r.code != 422 || !strings.Contains(r.body, want) {
			t.Errorf("test send to %s: %d %s", target, r.code, r.body)
		}
	}
	e.pass()
	if list := e.do(req{method: "GET", path: "/api/me/channels", key: key}); strings.Count(list.body, want) != 3 {
		t.Errorf("last errors: %s", list.body)
	}
	rc.mu.Lock()
	n := len(*got)
	rc.mu.Unlock()
	if n != 0 {
		t.Errorf("%d requests reached the loopback address", n)
	}

	home := newEnv(t)
	_, key = home.user("ada@example.com")
	if r := home.testSend(key, hookQuery(rc.URL+"/ip")); r.code != 200 {
		t.Errorf("by default a home server reaches its network: %d %s", r.code, r.body)
	}
}
