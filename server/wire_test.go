package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawExchange sends raw on a new connection and reads one response.
func rawExchange(t *testing.T, addr, raw string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(body)
}

// TestNetHTTPRefusalsAreJSON: the requests net/http refuses itself, before
// any handler, are answered in the contract's JSON error shape, with the
// headers of every other answer.
func TestNetHTTPRefusalsAreJSON(t *testing.T) {
	e := newEnv(t)
	addr := e.listen(t)
	for _, tc := range []struct {
		name   string
		raw    string
		status int
	}{
		{"headers over the limit", "GET /api/health HTTP/1.1\r\nHost: kith\r\nX-Big: " + strings.Repeat("b", 100<<10) + "\r\n\r\n", 431},
		{"an unknown HTTP version", "GET /api/health HTTP/9.9\r\nHost: kith\r\n\r\n", 505},
		{"a malformed request line", "GET  /api/health HTTP/1.1\r\nHost: kith\r\n\r\n", 400},
		{"a malformed request URI", "GET /api/%zz HTTP/1.1\r\nHost: kith\r\n\r\n", 400},
		{"a malformed Host", "GET /api/health HTTP/1.1\r\nHost: ki th\r\n\r\n", 400},
		{"no Host", "GET /api/health HTTP/1.1\r\n\r\n", 400},
		{"two Hosts", "GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
		{"a malformed header name", "GET /api/health HTTP/1.1\r\nHost: kith\r\nBad Header: x\r\n\r\n", 400},
		{"a NUL in a header", "GET /api/health HTTP/1.1\r\nHost: kith\r\nX: a\x00b\r\n\r\n", 400},
		{"a malformed Content-Length", "POST /api/login HTTP/1.1\r\nHost: kith\r\nContent-Length: abc\r\n\r\n", 400},
		{"an unknown Transfer-Encoding", "POST /api/login HTTP/1.1\r\nHost: kith\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"an unknown Expect", "GET /api/health HTTP/1.1\r\nHost: kith\r\nExpect: 100-foo\r\n\r\n", 417},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := rawExchange(t, addr, tc.raw)
			if res.StatusCode != tc.status || res.Header.Get("Content-Type") != "application/json" ||
				res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("%d %v %q, want %d JSON", res.StatusCode, res.Header, body, tc.status)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(body), &got); err != nil || len(got) != 2 ||
				got["status"] != float64(tc.status) || !strings.HasSuffix(got["message"].(string), ".") {
				t.Errorf("body %q is not the contract's error", body)
			}
		})
	}
}

// TestJSONErrorsLeavesKithAlone: answers Kith writes itself, errors and
// keep-alive exchanges included, pass through the listener byte for byte.
func TestJSONErrorsLeavesKithAlone(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	// A how_we_met that holds net/http's refusal: JSON escapes its line
	// breaks, so no body can match it.
	if r := e.do(req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"HTTP/1.1 400 Bad Request",` +
		`"how_we_met":"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"}`}); r.code != 201 {
		t.Fatalf("creating the person: %d %s", r.code, r.body)
	}
	addr := e.listen(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/persons", 200, `"first_name":"HTTP/1.1 400 Bad Request`},
		{"/api/nothing", 404, `{"message":"Not found.","status":404}`},
		{"/api/persons/x", 404, `{"message":"Person not found.","status":404}`},
		{"/api/health", 200, `{"message":"ok","status":200}`},
	} {
		io.WriteString(conn, "GET "+tc.path+" HTTP/1.1\r\nHost: kith\r\nAuthorization: Bearer "+key+"\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s on the same connection: %v", tc.path, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || !strings.Contains(string(body), tc.want) || res.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s: %d %q", tc.path, res.StatusCode, body)
		}
	}
}

// TestOptionsStarIsKiths: OPTIONS * is answered by Kith like any other
// request, not with net/http's bare 200.
func TestOptionsStarIsKiths(t *testing.T) {
	e := newEnv(t)
	res, body := rawExchange(t, e.listen(t), "OPTIONS * HTTP/1.1\r\nHost: kith\r\n\r\n")
	if res.StatusCode != 204 || body != "" || res.Header.Get("X-Request-Id") == "" || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("%d %v %q", res.StatusCode, res.Header, body)
	}
}
