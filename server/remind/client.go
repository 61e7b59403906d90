package remind

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrPrivateAddress is why a connection to a loopback, private, link-local
// or otherwise local address was refused by a client of NewClient(true).
var ErrPrivateAddress = errors.New("remind: the address is private or local")

// NewClient is the client that sends to every channel but email: 15
// seconds a request, redirects not followed. With refusePrivate it
// connects only to public addresses: the check is made on the address
// being dialled, after DNS, so a name that resolves to a public address
// when a channel is saved and to 127.0.0.1 when it is used (DNS
// rebinding) is refused too. It then connects directly, without the
// environment's HTTP(S)_PROXY: through a proxy, the address it dials would
// be the proxy's.
func NewClient(refusePrivate bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	t := http.DefaultTransport.(*http.Transport).Clone()
	if refusePrivate {
		d.Control = refusePrivateAddresses
		t.Proxy = nil
	}
	t.DialContext = d.DialContext
	return &http.Client{Timeout: 15 * time.Second, Transport: t} // post refuses redirects, whatever the client
}

// refusePrivateAddresses is a net.Dialer's Control: it runs once the
// address is resolved, before each connection is made.
func refusePrivateAddresses(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !PublicAddr(ap.Addr()) {
		return ErrPrivateAddress
	}
	return nil
}

// localPrefixes are the ranges, beside those netip names, that are not
// the public internet: "this network", the carrier-grade NAT shared space
// (Tailscale's too), IETF protocol assignments, benchmarking, the reserved
// 240/4 and broadcast, and IPv6's deprecated site-local.
var localPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 is the well-known NAT64 prefix: its addresses carry an IPv4
// address in their last 32 bits, which is checked instead.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// PublicAddr reports whether a is an address of the public internet: not
// loopback, private, link-local, multicast, unspecified or reserved, also
// when written as an IPv4-mapped or NAT64 IPv6 address.
func PublicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range localPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
