package cli

import (
	"net"

	"kith/config"
)

// publicURL is where a newcomer on this machine can reach the server.
func publicURL(cfg *config.Config, addr net.Addr) string {
	if cfg.BaseURL != "" {
		return cfg.BaseURL
	}
	return localURL(cfg.TLS(), addr)
}

// localURL is the server at addr as seen from this host: an unspecified
// listen address (0.0.0.0, ::) is reached on the loopback.
func localURL(tls bool, addr net.Addr) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}
