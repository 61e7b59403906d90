package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBootCapsConnectionsPerAddressAndLogsTheFileLimit(t *testing.T) {
	t.Setenv("KITH_LIMITS_MAX_CONNECTIONS_PER_IP", "2")
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "kith.db"))
	addr := s.addr(t)
	if !strings.Contains(s.stderr.String(), `"message":"open file limit"`) {
		t.Errorf("the open file limit is not logged: %s", s.stderr.String())
	}
	health := func() (*http.Response, error) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: kith\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			io.Copy(io.Discard, res.Body)
		}
		return res, err
	}
	for i := range 2 {
		if res, err := health(); err != nil || res.StatusCode != 200 {
			t.Fatalf("connection %d: %v %v", i+1, res, err)
		}
	}
	res, err := health()
	if err != nil || res.StatusCode != 503 {
		t.Fatalf("third connection from one address with limits.max_connections_per_ip 2: %v %v, want 503", res, err)
	}
}
