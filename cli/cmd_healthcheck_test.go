package cli

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// TestHealthcheck: exit 0 against a live server, 1 against a dead address,
// also over HTTPS with a self-signed certificate.
func TestHealthcheck(t *testing.T) {
	check := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"healthcheck"}, args...), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	addr := s.addr(t)
	if code, out := check("--addr", addr); code != 0 || out != "ok\n" {
		t.Errorf("live server: %d %q", code, out)
	}
	_, port, _ := net.SplitHostPort(addr)
	if code, _ := check("--addr", "0.0.0.0:"+port); code != 0 {
		t.Errorf("an unspecified host means this host: %d", code)
	}
	s.shutdown(t)
	if code, out := check("--addr", addr); code != 1 || !strings.Contains(out, "healthcheck") {
		t.Errorf("dead server: %d %q", code, out)
	}

	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	t.Setenv("KITH_TLS_CERT_FILE", cert)
	t.Setenv("KITH_TLS_KEY_FILE", key)
	tlsServer := startServer(t, "--db", filepath.Join(dir, "kith.db"))
	if code, out := check("--addr", tlsServer.addr(t)); code != 0 {
		t.Errorf("HTTPS server: %d %q", code, out)
	}
}
