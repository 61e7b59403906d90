package config

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
)

// LogLevels are the accepted values of log.level.
var LogLevels = []string{"trace", "debug", "info", "warn", "error"}

// Validate checks every key and normalises a few (base_url loses its
// trailing slash, trusted_proxies become CIDRs). The error names the key, so
// a bad configuration stops the binary before it half-starts.
func (c *Config) Validate() error {
	checks := []struct {
		key   string
		check func() error
	}{
		{"addr", c.validateAddr},
		{"db", func() error { return nonEmpty(c.DB) }},
		{"base_url", c.validateBaseURL},
		{"rate.per_minute", func() error { return rateOrOff(c.RatePerMinute) }},
		{"rate.pages_per_minute", func() error { return rateOrOff(c.RatePagesPerMinute) }},
		{"limits.max_connections", func() error { return notNegative(c.MaxConnections) }},
		{"limits.max_connections_per_ip", func() error { return notNegative(c.MaxConnectionsPerIP) }},
		{"trusted_proxies", c.validateProxies},
		{"cors.allowed_origins", c.validateOrigins},
		{"log.level", func() error { return oneOf(c.LogLevel, LogLevels) }},
		{"log.format", func() error { return oneOf(c.LogFormat, []string{"json", "console"}) }},
		{"tls.cert_file", c.validateTLS},
		{"bootstrap.email", c.validateBootstrapEmail},
		{"smtp.host", c.validateSMTPHost},
		{"smtp.port", c.validateSMTPPort},
		{"smtp.username", c.validateSMTPAuth},
		{"smtp.from", c.validateSMTPFrom},
		{"smtp.tls", c.validateSMTPTLS},
		{"reminders.send_at", c.validateSendAt},
		{"debug.pprof_addr", func() error { return optionalHostPort(c.PprofAddr) }},
		{"metrics.addr", func() error { return optionalHostPort(c.MetricsAddr) }},
		{"oidc.issuer", c.validateOIDCIssuer},
		{"oidc.client_id", func() error { return neededByIssuer(c.OIDCIssuer, c.OIDCClientID) }},
		{"oidc.client_secret", func() error { return neededByIssuer(c.OIDCIssuer, c.OIDCClientSecret) }},
		{"oidc.name", func() error { return nonEmpty(c.OIDCName) }},
		{"oidc.allow_password", c.validateOIDCAllowPassword},
		{"mail_in.addr", c.validateMailInAddr},
		{"mail_in.domain", c.validateMailInDomain},
	}
	for _, ch := range checks {
		if err := ch.check(); err != nil {
			return fmt.Errorf("config: %s (%s): %w", ch.key, EnvName(ch.key), err)
		}
	}
	return nil
}

func nonEmpty(s string) error {
	if s == "" {
		return fmt.Errorf("must not be empty")
	}
	return nil
}

func oneOf(s string, allowed []string) error {
	for _, a := range allowed {
		if s == a {
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(allowed, ", "))
}

func (c *Config) validateAddr() error {
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT: %w", c.Addr, err)
	}
	if host != "" && net.ParseIP(host) == nil && strings.ContainsAny(host, " /") {
		return fmt.Errorf("%q has an invalid host", c.Addr)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q has an invalid port", c.Addr)
	}
	return nil
}

func (c *Config) validateBaseURL() error {
	if c.BaseURL == "" {
		return nil
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q is not an http(s) URL such as https://kith.example.com", c.BaseURL)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return nil
}

func rateOrOff(n int) error {
	if n < 0 {
		return fmt.Errorf("must be 0 (off) or more, got %d", n)
	}
	return nil
}

func notNegative(n int) error {
	if n < 0 {
		return fmt.Errorf("must be 0 (no cap) or more, got %d", n)
	}
	return nil
}

func (c *Config) validateProxies() error {
	for i, p := range c.TrustedProxies {
		if ip := net.ParseIP(p); ip != nil {
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			c.TrustedProxies[i] = (&net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}).String()
			continue
		}
		_, n, err := net.ParseCIDR(p)
		if err != nil {
			return fmt.Errorf("%q is neither an IP address nor a CIDR range", p)
		}
		c.TrustedProxies[i] = n.String()
	}
	return nil
}

func (c *Config) validateOrigins() error {
	for _, o := range c.CORSOrigins {
		if o == "*" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("%q is neither * nor an origin such as https://app.example.com", o)
		}
	}
	return nil
}

// validateTLS loads the pair once, so that a missing, unreadable or
// mismatched file stops the start rather than the first HTTPS handshake.
func (c *Config) validateTLS() error {
	switch {
	case c.TLSCertFile == "" && c.TLSKeyFile == "":
		return nil
	case c.TLSCertFile == "" || c.TLSKeyFile == "":
		return fmt.Errorf("tls.cert_file and tls.key_file must be set together")
	}
	if _, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile); err != nil {
		return fmt.Errorf("cannot load the certificate and key: %w", err)
	}
	return nil
}

func (c *Config) validateBootstrapEmail() error {
	a, err := mail.ParseAddress(c.BootstrapEmail)
	if err != nil || a.Address != c.BootstrapEmail {
		return fmt.Errorf("%q is not an email address", c.BootstrapEmail)
	}
	return nil
}

func (c *Config) validateSMTPHost() error {
	if strings.ContainsAny(c.SMTPHost, " /:@") && net.ParseIP(c.SMTPHost) == nil {
		return fmt.Errorf("%q is not a host name such as smtp.example.com (the port goes in smtp.port)", c.SMTPHost)
	}
	return nil
}

func (c *Config) validateSMTPPort() error {
	if c.SMTPPort < 1 || c.SMTPPort > 65535 {
		return fmt.Errorf("must be a port from 1 to 65535, got %d", c.SMTPPort)
	}
	return nil
}

func (c *Config) validateSMTPAuth() error {
	if (c.SMTPUsername == "") != (c.SMTPPassword == "") {
		return fmt.Errorf("smtp.username and smtp.password must be set together")
	}
	return nil
}

// validateSMTPFrom needs a sender as soon as there is a server to send
// through; "Kith <kith@example.com>" and a bare address both do.
func (c *Config) validateSMTPFrom() error {
	if c.SMTPFrom == "" {
		if c.SMTPHost != "" {
			return fmt.Errorf("must be set when smtp.host is, e.g. \"Kith <kith@example.com>\"")
		}
		return nil
	}
	if _, err := mail.ParseAddress(c.SMTPFrom); err != nil {
		return fmt.Errorf("%q is not an email address", c.SMTPFrom)
	}
	return nil
}

// SMTPTLSModes are the accepted values of smtp.tls.
var SMTPTLSModes = []string{"starttls", "tls", "none"}

// validateSMTPTLS fills in the default (tls on port 465, else starttls) and
// refuses none with a login: the password would cross the wire in clear,
// or crackable as CRAM-MD5.
func (c *Config) validateSMTPTLS() error {
	if c.SMTPTLS == "" {
		c.SMTPTLS = "starttls"
		if c.SMTPPort == 465 {
			c.SMTPTLS = "tls"
		}
	}
	if err := oneOf(c.SMTPTLS, SMTPTLSModes); err != nil {
		return err
	}
	if c.SMTPTLS == "none" && c.SMTPUsername != "" {
		return fmt.Errorf("none would send smtp.username and smtp.password unencrypted; use starttls or tls, or a relay that needs no login")
	}
	return nil
}

// optionalHostPort wants HOST:PORT, or nothing for a listener that is off.
func optionalHostPort(addr string) error {
	if addr == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("%q is not HOST:PORT: %w", addr, err)
	}
	return nil
}

// SMTP reports whether verification emails are sent over SMTP.
func (c *Config) SMTP() bool { return c.SMTPHost != "" }

// TLS reports whether the server speaks HTTPS.
func (c *Config) TLS() bool {
	return c.TLSCertFile != "" && c.TLSKeyFile != ""
}

// validateSendAt wants a time of day on a 24-hour clock, "HH:MM".
func (c *Config) validateSendAt() error {
	h, m, ok := strings.Cut(c.ReminderSendAt, ":")
	hour, errH := strconv.Atoi(h)
	minute, errM := strconv.Atoi(m)
	if !ok || len(h) != 2 || len(m) != 2 || errH != nil || errM != nil || hour < 0 || hour > 23 || minute < 0 || minute > 59 {
		return fmt.Errorf("%q is not a time of day as HH:MM, such as 08:00", c.ReminderSendAt)
	}
	return nil
}

// validateOIDCIssuer wants an absolute https:// URL: the provider's
// answers vouch for who signs in, so they must not cross the network in
// clear. http:// is allowed for a provider on this host alone.
func (c *Config) validateOIDCIssuer() error {
	if c.OIDCIssuer == "" {
		return nil
	}
	u, err := url.Parse(c.OIDCIssuer)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil ||
		(u.Scheme != "https" && (u.Scheme != "http" || !loopbackHost(u.Hostname()))) {
		return fmt.Errorf("%q is not an https:// URL such as https://sso.example.org/realms/home (http:// only for 127.0.0.1, ::1 or localhost)", c.OIDCIssuer)
	}
	return nil
}

// loopbackHost reports whether host is localhost or a loopback address.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// neededByIssuer wants v set once single sign-on is on.
func neededByIssuer(issuer, v string) error {
	if issuer != "" && v == "" {
		return fmt.Errorf("must be set when oidc.issuer is")
	}
	return nil
}

// validateOIDCAllowPassword refuses to turn passwords off with no other
// way in for the people who use them.
func (c *Config) validateOIDCAllowPassword() error {
	if !c.OIDCAllowPassword && c.OIDCIssuer == "" {
		return fmt.Errorf("false needs oidc.issuer: passwords give way to single sign-on, which is off")
	}
	return nil
}

// OIDC reports whether single sign-on is on.
func (c *Config) OIDC() bool { return c.OIDCIssuer != "" }

// validateMailInAddr wants HOST:PORT with a real port, or nothing (off).
func (c *Config) validateMailInAddr() error {
	if c.MailInAddr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(c.MailInAddr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT, such as 0.0.0.0:25: %w", c.MailInAddr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q has an invalid port", c.MailInAddr)
	}
	return nil
}

// validateMailInDomain takes base_url's host when unset (base_url is
// checked first), and wants a domain only: it follows log-SECRET@.
func (c *Config) validateMailInDomain() error {
	if c.MailInAddr == "" {
		return nil
	}
	if c.MailInDomain == "" {
		u, err := url.Parse(c.BaseURL)
		if c.BaseURL == "" || err != nil || u.Hostname() == "" {
			return fmt.Errorf("mail_in.addr is set: set mail_in.domain (or base_url) to the domain of the addresses, such as kith.example.com")
		}
		c.MailInDomain = u.Hostname()
	}
	c.MailInDomain = strings.ToLower(strings.TrimSuffix(c.MailInDomain, "."))
	if _, err := mail.ParseAddress("log-x@" + c.MailInDomain); err != nil || strings.ContainsAny(c.MailInDomain, " /:@[]") {
		return fmt.Errorf("%q is not a domain such as kith.example.com", c.MailInDomain)
	}
	return nil
}

// MailIn reports whether Kith receives mail (mail_in.addr).
func (c *Config) MailIn() bool { return c.MailInAddr != "" }
