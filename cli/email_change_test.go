package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"kith/store"
)

// TestEmailChangeWithoutSMTP goes through §6 against the real binary's
// run: without smtp.host the link is in the log, it unlocks the user, and
// "kith user verify" unlocks a user while the server runs.
func TestEmailChangeWithoutSMTP(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	s := startServer(t, "--db", db)
	base := "http://" + s.addr(t)
	key := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(s.stdout.String())[1]
	if !strings.Contains(s.stderr.String(), "verification and invitation links will be written to this log") {
		t.Errorf("the start does not say where links go: %s", s.stderr.String())
	}

	change := func(email string) {
		t.Helper()
		code, body := put(t, base+"/api/me?first_name=A&last_name=B&email="+email, key)
		if code != 200 || !strings.Contains(body, `"email":"`+email+`"`) {
			t.Fatalf("change to %s: %d %s", email, code, body)
		}
		if code, body := get(t, base+"/api/me", key); code != 403 || !strings.Contains(body, "Your email address is not verified.") {
			t.Fatalf("unverified: %d %s", code, body)
		}
	}
	change("new@example.com")
	links := regexp.MustCompile(`"link":"([^"]+)"`).FindAllStringSubmatch(s.stderr.String(), -1)
	if len(links) != 1 || !strings.HasPrefix(links[0][1], base+"/api/verify-email?token=") ||
		!strings.Contains(s.stderr.String(), `"level":"warn"`) {
		t.Fatalf("the link is not in the log at warn level: %s", s.stderr.String())
	}
	if code, body := get(t, links[0][1], ""); code != 200 || strings.TrimSpace(body) != `{"message":"Email verified","status":200}` {
		t.Fatalf("opening the link: %d %s", code, body)
	}
	if code, _ := get(t, base+"/api/me", key); code != 200 {
		t.Fatalf("after the link: %d", code)
	}

	change("newer@example.com")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"user", "verify", "--db", db, "--email", "NEWER@example.com"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "email: newer@example.com\nverified\n") {
		t.Fatalf("user verify beside the server: %d %q %q", code, stdout.String(), stderr.String())
	}
	// The server reads the key's user again within store.KeyCacheTTL.
	for deadline := time.Now().Add(store.KeyCacheTTL + time.Second); ; time.Sleep(50 * time.Millisecond) {
		code, body := get(t, base+"/api/me", key)
		if code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v after user verify: %d %s", store.KeyCacheTTL+time.Second, code, body)
		}
	}
}

// sink is the smallest SMTP server that takes mail: plain, no login, as a
// relay on the same host might be.
type sink struct{ got chan []byte }

func (s sink) NewSession(*smtp.Conn) (smtp.Session, error) { return s, nil }
func (sink) Mail(string, *smtp.MailOptions) error          { return nil }
func (sink) Rcpt(string, *smtp.RcptOptions) error          { return nil }
func (sink) Reset()                                        {}
func (sink) Logout() error                                 { return nil }
func (s sink) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.got <- b
	return err
}

// TestEmailChangeOverSMTP checks that the smtp.* settings reach the mailer:
// the sink offers no STARTTLS, so only smtp.tls none gets the email there.
func TestEmailChangeOverSMTP(t *testing.T) {
	box := sink{got: make(chan []byte, 1)}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	t.Setenv("KITH_SMTP_HOST", host)
	t.Setenv("KITH_SMTP_PORT", port)
	t.Setenv("KITH_SMTP_FROM", "Kith <kith@example.com>")
	t.Setenv("KITH_SMTP_TLS", "none")
	t.Setenv("KITH_BASE_URL", "https://kith.example.org")

	s := startServer(t, "--db", filepath.Join(t.TempDir(), "kith.db"))
	base := "http://" + s.addr(t)
	key := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(s.stdout.String())[1]
	if code, body := put(t, base+"/api/me?first_name=A&last_name=B&email=new@example.com", key); code != 200 {
		t.Fatalf("change: %d %s", code, body)
	}
	select {
	case b := <-box.got:
		msg := string(b)
		if !strings.Contains(msg, "From: \"Kith\" <kith@example.com>") || !strings.Contains(msg, "To: <new@example.com>") ||
			!strings.Contains(msg, "https://kith.example.org/api/verify-email?token=") {
			t.Errorf("the email:\n%s", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no email within 10 s: %s", s.stderr.String())
	}
	if strings.Contains(s.stderr.String(), "verify-email?token=") {
		t.Error("with SMTP configured, the link is in the log too")
	}
}
