package mailin

import (
	"net"
	"sync"
	"time"
)

// limitedListener caps the connections open at once, overall and per
// client address, and gives each one a deadline for its whole session:
// go-smtp's timeouts are per command, so a client sending NOOP every
// minute would otherwise hold a connection for ever.
type limitedListener struct {
	net.Listener
	max, perIP int
	session    time.Duration

	mu   sync.Mutex
	open int
	byIP map[string]int
}

func newLimitedListener(ln net.Listener, max, perIP int, session time.Duration) *limitedListener {
	return &limitedListener{Listener: ln, max: max, perIP: perIP, session: session, byIP: make(map[string]int)}
}

// Accept hands on the connections within the caps; one past them hears
// 421 and is closed, without holding a session.
func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := clientIP(c)
		if l.take(ip) {
			lc := &limitedConn{Conn: c, l: l, ip: ip, end: time.Now().Add(l.session)}
			lc.SetDeadline(time.Time{}) // the session's end, until go-smtp sets its own
			return lc, nil
		}
		c.SetWriteDeadline(time.Now().Add(time.Second))
		c.Write([]byte("421 4.7.0 Too many connections, try again later\r\n"))
		c.Close()
	}
}

func (l *limitedListener) take(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.max || l.byIP[ip] >= l.perIP {
		return false
	}
	l.open++
	l.byIP[ip]++
	return true
}

func (l *limitedListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byIP[ip]--; l.byIP[ip] <= 0 {
		delete(l.byIP, ip)
	}
}

// clientIP is the peer's address without its port: IPv4 as is, IPv6 by
// its /64, which one client usually holds whole.
func clientIP(c net.Conn) string {
	a, ok := c.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return c.RemoteAddr().String()
	}
	if v4 := a.IP.To4(); v4 != nil {
		return v4.String()
	}
	return a.IP.Mask(net.CIDRMask(64, 128)).String()
}

// limitedConn gives its slot back once, when closed, and never lets a
// deadline go past the session's end.
type limitedConn struct {
	net.Conn
	l    *limitedListener
	ip   string
	end  time.Time
	once sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() { c.l.release(c.ip) })
	return c.Conn.Close()
}

func (c *limitedConn) bound(t time.Time) time.Time {
	if t.IsZero() || t.After(c.end) {
		return c.end
	}
	return t
}

func (c *limitedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.bound(t)) }
func (c *limitedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.bound(t)) }
func (c *limitedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.bound(t)) }
