package server

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRefusalsOverTLSAreJSON: over HTTPS too, the requests net/http
// refuses itself are answered in the contract's JSON error shape, and a
// request Kith answers knows it came over TLS (its links say https).
func TestRefusalsOverTLSAreJSON(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	cert, pool := selfSigned(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := e.srv.HTTPServer()
	go ServeTLS(hs, ln, cert)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()

	exchange := func(raw string) (*http.Response, string) {
		t.Helper()
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pool})
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
			t.Fatalf("%q: %v", raw[:min(len(raw), 40)], err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(body)
	}
	for _, tc := range []struct {
		name   string
		raw    string
		status int
	}{
		{"headers over the limit", "GET /api/health HTTP/1.1\r\nHost: kith\r\nX-Big: " + strings.Repeat("b", 100<<10) + "\r\n\r\n", 431},
		{"a malformed request line", "GET  /api/health HTTP/1.1\r\nHost: kith\r\n\r\n", 400},
		{"no Host", "GET /api/health HTTP/1.1\r\n\r\n", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := exchange(tc.raw)
			var got map[string]any
			if res.StatusCode != tc.status || res.Header.Get("Content-Type") != "application/json" ||
				json.Unmarshal([]byte(body), &got) != nil || got["status"] != float64(tc.status) {
				t.Fatalf("%d %v %q, want %d in JSON", res.StatusCode, res.Header, body, tc.status)
			}
		})
	}
	t.Run("a request Kith answers knows it is https", func(t *testing.T) {
		res, body := exchange("GET /api/administration/api HTTP/1.1\r\nHost: kith.example\r\nAuthorization: Bearer " + key + "\r\nConnection: close\r\n\r\n")
		if res.StatusCode != 200 || !strings.Contains(body, `"https://kith.example/api/administration/api/`) {
			t.Fatalf("%d %q, want links on https://kith.example", res.StatusCode, body)
		}
	})
}
