package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"kith/server/mail"
)

// mailbox is a real SMTP server on loopback (emersion/go-smtp): it offers
// STARTTLS with a certificate made for the test, wants AUTH PLAIN with
// mailboxUser/mailboxPassword, and keeps what it is sent. refuse makes it
// answer 550 to every recipient, as a server that will not relay does.
// auths counts AUTH commands, taken or not.
type mailbox struct {
	addr   string
	pool   *x509.CertPool
	refuse atomic.Bool
	auths  atomic.Int32
	open   atomic.Bool // takes mail without a login
	plain  bool        // plainOnly

	mu       sync.Mutex
	messages []received
	arrived  chan struct{}
}

const mailboxUser, mailboxPassword = "kith", "smtp secret"

// received is one message as the server got it.
type received struct {
	from   string
	to     []string
	tls    bool
	authed bool
	raw    []byte
}

// How a mailbox speaks TLS.
const (
	offersSTARTTLS = iota
	implicitTLS    // from the first byte, as on port 465
	// plainOnly offers no STARTTLS and takes a login in clear: what a
	// client sees when an attacker on the path strips the offer.
	plainOnly
)

func newMailbox(t *testing.T) *mailbox { return newMailboxTLS(t, offersSTARTTLS) }

func newMailboxTLS(t *testing.T, mode int) *mailbox {
	t.Helper()
	cert, pool := selfSigned(t)
	mb := &mailbox{pool: pool, arrived: make(chan struct{}, 100)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &mailSession{mb: mb, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case implicitTLS:
		ln = tls.NewListener(ln, srv.TLSConfig)
	case plainOnly:
		srv.TLSConfig, srv.AllowInsecureAuth, mb.plain = nil, true, true
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	mb.addr = ln.Addr().String()
	return mb
}

// options are SMTP settings that reach this mailbox.
func (mb *mailbox) options() mail.SMTPOptions {
	host, port, _ := net.SplitHostPort(mb.addr)
	p, _ := strconv.Atoi(port)
	return mail.SMTPOptions{Host: host, Port: p, Username: mailboxUser, Password: mailboxPassword,
		From: "Kith <kith@example.com>", Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: mb.pool}}
}

// next waits for the next message.
func (mb *mailbox) next(t *testing.T) received {
	t.Helper()
	select {
	case <-mb.arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no email arrived within 10 s")
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	m := mb.messages[0]
	mb.messages = mb.messages[1:]
	return m
}

func (mb *mailbox) count() int {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return len(mb.messages)
}

type mailSession struct {
	mb     *mailbox
	conn   *smtp.Conn
	authed bool
	msg    received
}

// AuthMechanisms: a plainOnly server also offers CRAM-MD5, the login a
// client sends without TLS and an eavesdropper can crack offline.
func (s *mailSession) AuthMechanisms() []string {
	if s.mb.plain {
		return []string{sasl.Plain, "CRAM-MD5"}
	}
	return []string{sasl.Plain}
}

func (s *mailSession) Auth(mech string) (sasl.Server, error) {
	s.mb.auths.Add(1)
	if mech == "CRAM-MD5" {
		return &cramMD5{s: s}, nil
	}
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != mailboxUser || pass != mailboxPassword {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

// cramMD5 is the server side of RFC 2195: a challenge, and back the user
// name with an HMAC-MD5 of the challenge keyed by the password.
type cramMD5 struct {
	s         *mailSession
	challenge []byte
}

func (c *cramMD5) Next(response []byte) ([]byte, bool, error) {
	if c.challenge == nil {
		c.challenge = []byte("<1.2@localhost>")
		return c.challenge, false, nil
	}
	mac := hmac.New(md5.New, []byte(mailboxPassword))
	mac.Write(c.challenge)
	if string(response) != mailboxUser+" "+hex.EncodeToString(mac.Sum(nil)) {
		return nil, false, errors.New("invalid credentials")
	}
	c.s.authed = true
	return nil, true, nil
}

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed && !s.mb.open.Load() {
		return smtp.ErrAuthRequired
	}
	_, tlsOn := s.conn.TLSConnectionState()
	s.msg = received{from: from, tls: tlsOn, authed: s.authed}
	return nil
}

func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.mb.refuse.Load() {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "relaying denied"}
	}
	s.msg.to = append(s.msg.to, to)
	return nil
}

func (s *mailSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.msg.raw = raw
	s.mb.mu.Lock()
	s.mb.messages = append(s.mb.messages, s.msg)
	s.mb.mu.Unlock()
	s.mb.arrived <- struct{}{}
	return nil
}

func (s *mailSession) Reset()        { s.msg = received{} }
func (s *mailSession) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "kith test mail server"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// parsedMail is a received message read the way a mail client reads it.
type parsedMail struct {
	header     netmail.Header
	text, html string
}

func (m received) parse(t *testing.T) parsedMail {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(string(m.raw)))
	if err != nil {
		t.Fatalf("not an email: %v\n%s", err, m.raw)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q (%v), want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	out := parsedMail{header: msg.Header}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p)
		switch ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct {
		case "text/plain":
			out.text = string(body)
		case "text/html":
			out.html = string(body)
		}
	}
	if out.text == "" || out.html == "" {
		t.Fatalf("want a text and an HTML part:\n%s", m.raw)
	}
	return out
}

var linkPattern = regexp.MustCompile(`https?://[^\s"<>']+/api/(verify-email|invitations/accept)\?token=[A-Z0-9]+`)

// link is the verification or invitation link of the plain-text part.
func (p parsedMail) link(t *testing.T) string {
	t.Helper()
	l := linkPattern.FindString(p.text)
	if l == "" {
		t.Fatalf("no link in the text part:\n%s", p.text)
	}
	return l
}
