package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mailInAddr is the receiver's address from serve's log.
func mailInAddr(t *testing.T, s *testServer) string {
	t.Helper()
	for _, line := range strings.Split(s.stderr.String(), "\n") {
		var entry struct{ Message, Addr string }
		if json.Unmarshal([]byte(line), &entry) == nil && strings.HasPrefix(entry.Message, "mail-in listening") {
			return entry.Addr
		}
	}
	t.Fatalf("no mail-in line: %s", s.stderr.String())
	return ""
}

// TestBootServesMailIn: with mail_in.addr, serve runs the receiver on
// Kith's certificate, gives addresses of base_url's host, and stops it
// on shutdown.
func TestBootServesMailIn(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := selfSigned(t, dir)
	t.Setenv("KITH_TLS_CERT_FILE", certFile)
	t.Setenv("KITH_TLS_KEY_FILE", keyFile)
	t.Setenv("KITH_MAIL_IN_ADDR", "127.0.0.1:0")
	t.Setenv("KITH_BASE_URL", "https://Kith.Example.org")
	s := startServer(t, "--db", filepath.Join(dir, "kith.db"))
	s.addr(t)
	addr := mailInAddr(t, s)
	token := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(s.stdout.String())[1]

	pem, _ := os.ReadFile(certFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	r, _ := http.NewRequest("GET", "https://"+s.addr(t)+"/api/me/mail-in", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if body := string(raw); !regexp.MustCompile(`"address":"log-[a-z0-9]{20,}@kith\.example\.org"`).MatchString(body) {
		t.Fatalf("GET /api/me/mail-in: %s", body)
	}

	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		t.Fatal("STARTTLS not offered with tls.cert_file set")
	}
	if err := c.StartTLS(&tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}); err != nil {
		t.Fatalf("STARTTLS on Kith's certificate: %v", err)
	}
	if err := c.Mail("ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("log-aaaaaaaaaaaaaaaaaaaaaaaaaa@kith.example.org"); err == nil || !strings.HasPrefix(err.Error(), "550") {
		t.Errorf("an unknown secret: %v", err)
	}
	c.Quit()

	s.shutdown(t)
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Error("the receiver still listens after shutdown")
	}
}

func TestBootRefusesABadMailIn(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct{ name, addr, domain, want string }{
		{"a taken address", taken.Addr().String(), "kith.example.org", "mail_in.addr (KITH_MAIL_IN_ADDR)"},
		{"not host:port", "25", "kith.example.org", "mail_in.addr (KITH_MAIL_IN_ADDR)"},
		{"no domain and no base_url", "127.0.0.1:0", "", "mail_in.domain (KITH_MAIL_IN_DOMAIN)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KITH_MAIL_IN_ADDR", tc.addr)
			t.Setenv("KITH_MAIL_IN_DOMAIN", tc.domain)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "k.db")}, &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
			}
		})
	}
}
