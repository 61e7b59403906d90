package server

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
)

// ServeTLS serves hs on ln over TLS with cert, keeping net/http's own
// refusals JSON as JSONErrors does on plain TCP. http.Server.ServeTLS
// would put TLS above any listener wrapper, where JSONErrors sees only
// ciphertext; here TLS is spoken below it. The price is HTTP/1.1 only
// (net/http serves HTTP/2 only on its own *tls.Conn), which is all the
// API's clients need.
func ServeTLS(hs *http.Server, ln net.Listener, cert tls.Certificate) error {
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12}
	prev := hs.ConnContext
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prev != nil {
			ctx = prev(ctx, c)
		}
		if jc, ok := c.(jsonErrorConn); ok {
			if tc, ok := jc.Conn.(*tls.Conn); ok {
				ctx = context.WithValue(ctx, tlsConnKey{}, tc)
			}
		}
		return ctx
	}
	return hs.Serve(JSONErrors(tls.NewListener(ln, cfg)))
}

type tlsConnKey struct{}

// withTLSState gives r the TLS state that net/http sets only on
// connections it made TLS itself, so that the scheme of links is https.
func withTLSState(r *http.Request) {
	if r.TLS != nil {
		return
	}
	if tc, ok := r.Context().Value(tlsConnKey{}).(*tls.Conn); ok {
		st := tc.ConnectionState()
		r.TLS = &st
	}
}
