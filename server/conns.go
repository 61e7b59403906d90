package server

import (
	"crypto/tls"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// refusal is what a connection over a cap is told before it is closed: the
// contract's 503 body, in plain HTTP/1.1 since no request was read.
const refusal = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: application/json\r\n" +
	"Retry-After: 5\r\n" +
	"Connection: close\r\n" +
	"Content-Length: 48\r\n\r\n" +
	`{"message":"Service Unavailable.","status":503}` + "\n"

// maxAnswering bounds the refused connections being answered at once; past
// it a refused connection is closed without a word, so a flood of them
// costs no more than its own file descriptors for an instant.
const maxAnswering = 64

// connLimiter counts live connections overall and per client address
// (clientKey of the TCP peer; a trusted proxy is not capped, as it carries
// many clients). It also knows which connections sit idle between
// requests, so that at the overall cap it can close the longest idle one
// instead of refusing someone with a request to make.
type connLimiter struct {
	max, perAddr int
	proxies      []*net.IPNet

	mu        sync.Mutex
	live      map[*limitedConn]struct{}
	byAddr    map[string]int
	answering chan struct{}
}

type limitedConn struct {
	net.Conn
	l   *connLimiter
	key string // "" when not counted per address
	// guarded by l.mu
	released  bool
	idleSince time.Time
}

func newConnLimiter(max, perAddr int, proxies []*net.IPNet) *connLimiter {
	return &connLimiter{
		max: max, perAddr: perAddr, proxies: proxies,
		live: make(map[*limitedConn]struct{}), byAddr: make(map[string]int),
		answering: make(chan struct{}, maxAnswering),
	}
}

// Listener wraps ln so that it holds at most MaxConns connections, and at
// most MaxConnsPerAddr from one client address (an IPv6 /64). A
// connection over a cap is answered 503 and closed at once: when plain is
// false (TLS is spoken above ln) it is only closed. Serve the listener
// with HTTPServer, whose ConnState tells it which connections are idle.
func (s *Server) Listener(ln net.Listener, plain bool) net.Listener {
	if s.conns.max <= 0 && s.conns.perAddr <= 0 {
		return ln
	}
	return &limitListener{Listener: ln, l: s.conns, plain: plain}
}

type limitListener struct {
	net.Listener
	l     *connLimiter
	plain bool
}

func (ln *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if lc := ln.l.admit(c); lc != nil {
			return lc, nil
		}
		ln.l.refuse(c, ln.plain)
	}
}

// admit counts c in, or returns nil when a cap leaves no room. At the
// overall cap the connection idle the longest is closed to make room.
func (l *connLimiter) admit(c net.Conn) *limitedConn {
	key := ""
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil && !l.trusted(ap.Addr()) {
		key = clientKey(ap.Addr().String())
	}
	l.mu.Lock()
	if l.perAddr > 0 && key != "" && l.byAddr[key] >= l.perAddr {
		l.mu.Unlock()
		return nil
	}
	var victim *limitedConn
	if l.max > 0 && len(l.live) >= l.max {
		for lc := range l.live {
			if !lc.idleSince.IsZero() && (victim == nil || lc.idleSince.Before(victim.idleSince)) {
				victim = lc
			}
		}
		if victim == nil {
			l.mu.Unlock()
			return nil
		}
		l.releaseLocked(victim)
	}
	lc := &limitedConn{Conn: c, l: l, key: key}
	l.live[lc] = struct{}{}
	if key != "" {
		l.byAddr[key]++
	}
	l.mu.Unlock()
	if victim != nil {
		victim.Conn.Close()
	}
	return lc
}

func (l *connLimiter) trusted(a netip.Addr) bool {
	ip := net.IP(a.Unmap().AsSlice())
	for _, n := range l.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

func (l *connLimiter) releaseLocked(lc *limitedConn) {
	if lc.released {
		return
	}
	lc.released = true
	delete(l.live, lc)
	if lc.key != "" {
		if l.byAddr[lc.key]--; l.byAddr[lc.key] <= 0 {
			delete(l.byAddr, lc.key)
		}
	}
}

// refuse answers c 503 (when plain and few others are being answered) and
// closes it, off the accept loop.
func (l *connLimiter) refuse(c net.Conn, plain bool) {
	if !plain {
		c.Close()
		return
	}
	select {
	case l.answering <- struct{}{}:
	default:
		c.Close()
		return
	}
	go func() {
		defer func() { <-l.answering }()
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte(refusal)); err != nil {
			return
		}
		// Half-close and drain what the client sent, so that the close
		// does not reset the connection before the 503 is read.
		if tc, ok := c.(interface{ CloseWrite() error }); ok {
			tc.CloseWrite()
		}
		buf := make([]byte, 512)
		for range 8 {
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	}()
}

func (c *limitedConn) Close() error {
	c.l.mu.Lock()
	c.l.releaseLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// connState is HTTPServer's ConnState hook: it marks connections idle
// between requests, the ones that may be closed at the overall cap.
func (l *connLimiter) connState(c net.Conn, st http.ConnState) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if st == http.StateIdle {
		lc.idleSince = time.Now()
	} else {
		lc.idleSince = time.Time{}
	}
}

// Conns returns how many connections are open through Listener.
func (s *Server) Conns() int {
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	return len(s.conns.live)
}
