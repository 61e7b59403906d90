package server

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// serveReal serves e's API on a real loopback listener through Listener
// and HTTPServer, as cmd_serve does, and returns its address and how many
// connections the http.Server has held at most at once.
func (e *env) serveReal(t *testing.T) (addr string, peak func() int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := e.srv.HTTPServer()
	var open, most atomic.Int64
	hook := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			n := open.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
		if hook != nil {
			hook(c, st)
		}
	}
	go hs.Serve(e.srv.Listener(ln, true))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String(), most.Load
}

// clientFrom is an HTTP client whose connections leave from the loopback
// address from (Linux routes all of 127.0.0.0/8 to lo).
func clientFrom(from string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

func getWith(t *testing.T, c *http.Client, url, key string) (int, string) {
	t.Helper()
	r, _ := http.NewRequest("GET", url, nil)
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := c.Do(r)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// idleConn opens a connection from from, makes one keep-alive request on
// it and leaves it open; it returns nil when the server refused it.
func idleConn(addr, from string) net.Conn {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return nil
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: kith\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || res.StatusCode != 200 {
		c.Close()
		return nil
	}
	io.Copy(io.Discard, res.Body)
	c.SetDeadline(time.Time{})
	return c
}

func TestIdleKeepAliveConnectionsCloseWithinHalfAMinute(t *testing.T) {
	if got := newEnv(t).srv.HTTPServer().IdleTimeout; got <= 0 || got > 30*time.Second {
		t.Errorf("IdleTimeout %v, want at most 30s", got)
	}
}

func TestConnectionFloodFromOneAddressLeavesOthersServed(t *testing.T) {
	const flood = 2500 // each costs the test two file descriptors
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if lim.Cur < 2*flood+500 {
		t.Skipf("open file limit %d is too low for %d connections", lim.Cur, flood)
	}
	e := newEnv(t, func(o *Options) { o.MaxConns, o.MaxConnsPerAddr = 1024, 64 })
	_, key := e.user("ada@example.com")
	addr, peak := e.serveReal(t)

	// The flood: 127.0.0.1 opens connections as fast as it can and holds
	// every one it gets, idle after one request or refused.
	var (
		mu    sync.Mutex
		held  []net.Conn
		next  atomic.Int64
		wg    sync.WaitGroup
		start = time.Now()
	)
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= flood && time.Since(start) < 30*time.Second {
				c, err := net.DialTimeout("tcp", addr, 5*time.Second)
				if err != nil {
					continue
				}
				io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: kith\r\n\r\n")
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d connections opened from 127.0.0.1 in %v", len(held), time.Since(start).Round(time.Millisecond))

	// Another address is served promptly, health included.
	other := clientFrom("127.0.0.2")
	began := time.Now()
	if code, body := getWith(t, other, "http://"+addr+"/api/me", key); code != 200 {
		t.Errorf("GET /api/me from another address during the flood: %d %s", code, body)
	}
	if code, _ := getWith(t, other, "http://"+addr+"/api/health", ""); code != 200 {
		t.Errorf("health during the flood: %d", code)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("requests during the flood took %v", d)
	}
	// The flooding address itself is told why, in the contract's shape,
	// once the server is not answering 64 other refusals (each for up to
	// a second); until then it is only closed.
	var res *http.Response
	var err error
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if res, err = clientFrom("127.0.0.1").Get("http://" + addr + "/api/health"); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("one more connection from the flooding address: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 503 || !strings.Contains(string(b), `"message":"Service Unavailable."`) {
		t.Errorf("one more connection from the flooding address: %d %s, want 503", res.StatusCode, b)
	}
	if p := peak(); p > 64+2 {
		t.Errorf("the server held %d connections at once, want at most 64 from the flooder and 2 others", p)
	}
}

func TestTrustedProxyIsNotCappedPerAddress(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.MaxConns, o.MaxConnsPerAddr = 100, 2
		o.TrustedProxies = []string{"127.0.0.1/32"}
	})
	addr, _ := e.serveReal(t)
	for i := range 5 {
		c := idleConn(addr, "127.0.0.1")
		if c == nil {
			t.Fatalf("connection %d from the trusted proxy was refused", i+1)
		}
		defer c.Close()
	}
	held := 0
	for range 3 {
		if c := idleConn(addr, "127.0.0.2"); c != nil {
			held++
			defer c.Close()
		}
	}
	if held != 2 {
		t.Errorf("%d connections held from an untrusted address, want 2", held)
	}
}

func TestAtTheOverallCapTheLongestIdleConnectionMakesRoom(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.MaxConns, o.MaxConnsPerAddr = 4, 0 })
	_, key := e.user("ada@example.com")
	addr, _ := e.serveReal(t)
	var idle []net.Conn
	for i := range 4 {
		c := idleConn(addr, "127.0.0.1")
		if c == nil {
			t.Fatal("refused under the cap")
		}
		defer c.Close()
		idle = append(idle, c)
		waitIdle(t, e.srv, i+1) // so that they went idle in this order
	}
	other := clientFrom("127.0.0.2")
	if code, body := getWith(t, other, "http://"+addr+"/api/me", key); code != 200 {
		t.Fatalf("a request at the cap of idle connections: %d %s", code, body)
	}
	other.CloseIdleConnections()
	idle[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the longest idle connection is still open: %v", err)
	}
	// Wait for the server to see that client go, so that three
	// connections, all idle, are left.
	for end := time.Now().Add(5 * time.Second); e.srv.Conns() != 3 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := e.srv.Conns(); n != 3 {
		t.Fatalf("%d connections, want the 3 idle ones left", n)
	}

	// Connections that are busy (here: not yet past their first request)
	// are not closed: a newcomer is refused instead.
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	time.Sleep(100 * time.Millisecond) // let the server accept them
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: kith\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("over the cap with none idle: %v %v, want 503 with Retry-After", res, err)
	}
	b, _ := io.ReadAll(res.Body)
	if string(b) != `{"message":"Service Unavailable.","status":503}`+"\n" {
		t.Errorf("refusal body %q", b)
	}
}

// waitIdle waits until the server has marked n connections idle.
func waitIdle(t *testing.T, s *Server, n int) {
	t.Helper()
	count := func() int {
		s.conns.mu.Lock()
		defer s.conns.mu.Unlock()
		idle := 0
		for lc := range s.conns.live {
			if !lc.idleSince.IsZero() {
				idle++
			}
		}
		return idle
	}
	for end := time.Now().Add(5 * time.Second); count() != n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d connections idle, want %d", count(), n)
		}
	}
}
