package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeAnswersMalformedRequestsInJSON: kith serve puts
// server.JSONErrors on its listener, so what net/http refuses by itself
// is JSON too.
func TestServeAnswersMalformedRequestsInJSON(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kith.yaml")
	os.WriteFile(cfg, []byte("db: "+filepath.Join(dir, "kith.db")+"\n"), 0o600)
	s := startServer(t, "--config", cfg)
	conn, err := net.Dial("tcp", s.addr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "GET /api/health HTTP/1.1\r\nHost: kith\r\nX-Big: "+strings.Repeat("b", 100<<10)+"\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 431 || res.Header.Get("Content-Type") != "application/json" ||
		string(body) != `{"message":"The request headers are too large.","status":431}`+"\n" {
		t.Errorf("%d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	s.shutdown(t)
}
