package server

import (
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"sync"
)

// JSONErrors wraps a plain TCP listener so that the answers net/http
// writes by itself, before any handler runs, are JSON in the contract's
// error shape too: 431 for headers over MaxHeaderBytes; 400 for a
// malformed request line, header, Host or Content-Length; 505 for an
// unknown HTTP version; 501 for a Transfer-Encoding it does not know; 417
// for an Expect other than 100-continue.
//
// net/http writes each of them with a single Write on the connection, then
// closes it. A Kith answer never looks like one: its headers always carry
// X-Request-Id, and a JSON body holds no raw line break. So a write is
// replaced only when it matches one of them exactly; should a Go release
// word them otherwise, they pass as they are. Over TLS, ServeTLS puts it
// above the TLS layer, where it sees the plain answers.
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrorConn{c}, nil
}

type jsonErrorConn struct{ net.Conn }

// Compiled at the first refusal, not by every start of every command.
var (
	// netHTTPError is net/http's plain-text refusal of a request it could
	// not read (conn.serve in net/http/server.go).
	netHTTPError = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^HTTP/1\.1 ([45][0-9]{2}) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n[^\r\n]*$`)
	})
	// netHTTPExpect is its empty 417 (response.sendExpectationFailed).
	netHTTPExpect = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^HTTP/1\.1 (417) Expectation Failed\r\n(?:[A-Za-z-]+: [^\r\n]*\r\n)*\r\n$`)
	})
)

func (c jsonErrorConn) Write(p []byte) (int, error) {
	if len(p) > 1024 || len(p) < 12 || string(p[:10]) != "HTTP/1.1 4" && string(p[:10]) != "HTTP/1.1 5" {
		return c.Conn.Write(p)
	}
	m := netHTTPError().FindSubmatch(p)
	if m == nil {
		m = netHTTPExpect().FindSubmatch(p)
	}
	if m == nil {
		return c.Conn.Write(p)
	}
	status, _ := strconv.Atoi(string(m[1]))
	if _, err := c.Conn.Write(jsonErrorAnswer(status)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite lets net/http half-close the connection after a 431, as it
// does on a bare TCP connection, so the client reads the answer before
// the close.
func (c jsonErrorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// jsonErrorAnswer is a whole HTTP/1.1 response with the contract's error
// body for status, and the headers every Kith answer carries.
func jsonErrorAnswer(status int) []byte {
	body, _ := json.Marshal(errorBody{Message: statusMessage(status), Status: status})
	body = append(body, '\n')
	head := "HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Cache-Control: no-store\r\n" +
		"X-Content-Type-Options: nosniff\r\n" +
		"Connection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	return append([]byte(head), body...)
}
