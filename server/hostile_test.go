package server

import (
	"bufio"
	"fmt"
	"io"
	"kith/store/storetest"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// listen serves the API as kith serve does, with the real http.Server
// settings (timeouts, header limit) and JSONErrors, on a loopback port,
// and returns its address.
func (e *env) listen(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := e.srv.HTTPServer()
	go hs.Serve(JSONErrors(ln))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestSlowHeadersAreCutOff: a client that sends its headers a byte at a
// time (slowloris) is disconnected once the header timeout passes, long
// before it is done.
func TestSlowHeadersAreCutOff(t *testing.T) {
	storetest.Slow(t, "waits out the 5 s header timeout")
	t.Parallel()
	e := newEnv(t)
	addr := e.listen(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	closed := make(chan time.Duration, 1)
	go func() {
		io.Copy(io.Discard, conn) // returns when the server hangs up
		closed <- time.Since(start)
	}()
	request := "GET /api/health HTTP/1.1\r\nHost: kith\r\nX-Slow: " + strings.Repeat("a", 200) + "\r\n\r\n"
	for i := 0; i < len(request); i++ {
		if _, err := conn.Write([]byte{request[i]}); err != nil {
			break
		}
		select {
		case d := <-closed:
			if d < 4*time.Second || d > 8*time.Second {
				t.Errorf("cut off after %v, want about the 5 s header timeout", d)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("the server waited %v for headers sent a byte at a time", time.Since(start))
}

// TestIdleConnectionsDoNotStarveOthers: 500 connections that never send a
// byte do not keep a normal client from being served at once.
func TestIdleConnectionsDoNotStarveOthers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	addr := e.listen(t)
	for i := 0; i < 500; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
	}
	start := time.Now()
	client := &http.Client{Timeout: 5 * time.Second}
	res, err := client.Get("http://" + addr + "/api/health")
	if err != nil {
		t.Fatalf("with 500 idle connections open: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("health: %d", res.StatusCode)
	}
	t.Logf("served in %v beside 500 idle connections", time.Since(start))
}

// TestOversizedHeaderIsRefused: headers past 64 KiB get 431.
func TestOversizedHeaderIsRefused(t *testing.T) {
	e := newEnv(t)
	addr := e.listen(t)
	r, _ := http.NewRequest("GET", "http://"+addr+"/api/health", nil)
	r.Header.Set("X-Big", strings.Repeat("b", 100<<10))
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 100 KiB header: %d", res.StatusCode)
	}
}

// TestHugeBodiesAreNotRead: a 100 MiB body is refused with 413 having been
// read no further than the 1 MiB limit, whether its length is declared or
// it streams in chunks.
func TestHugeBodiesAreNotRead(t *testing.T) {
	e := newEnv(t)
	addr := e.listen(t)
	const huge = 100 << 20

	t.Run("declared length", func(t *testing.T) {
		sent, status := postHuge(t, addr, fmt.Sprintf("Content-Length: %d\r\n", huge), huge, false)
		if status != 413 || sent > 8<<20 {
			t.Errorf("status %d after sending %d bytes", status, sent)
		}
	})
	t.Run("chunked", func(t *testing.T) {
		sent, status := postHuge(t, addr, "Transfer-Encoding: chunked\r\n", huge, true)
		if status != 413 || sent > 8<<20 {
			t.Errorf("status %d after sending %d bytes", status, sent)
		}
		t.Logf("413 after %d KiB of 100 MiB sent", sent>>10)
	})
}

// postHuge sends a POST /api/login with a body of size bytes and stops
// sending as soon as a response arrives or the server hangs up. It returns
// how much of the body went out and the response's status.
func postHuge(t *testing.T, addr, framing string, size int, chunked bool) (int, int) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/login HTTP/1.1\r\nHost: kith\r\nContent-Type: application/json\r\n%s\r\n", framing)
	status := make(chan int, 1)
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			status <- 0
			return
		}
		status <- res.StatusCode
	}()
	block := []byte(`{"email":"` + strings.Repeat("x", 64<<10) + `"}`)[:64<<10]
	sent := 0
	conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	for sent < size {
		var err error
		if chunked {
			_, err = fmt.Fprintf(conn, "%x\r\n%s\r\n", len(block), block)
		} else {
			_, err = conn.Write(block)
		}
		if err != nil {
			break
		}
		sent += len(block)
		select {
		case s := <-status:
			return sent, s
		default:
		}
	}
	select {
	case s := <-status:
		return sent, s
	case <-time.After(10 * time.Second):
		t.Fatalf("no response after sending %d bytes", sent)
		return sent, 0
	}
}
