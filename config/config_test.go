package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDefaults(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Addr: "127.0.0.1:8080", DB: "kith.db", RatePerMinute: 60, RatePagesPerMinute: 600, TrustedProxies: []string{},
		CORSOrigins: []string{"*"}, LogLevel: "info", LogFormat: "json", BootstrapEmail: "admin@example.com",
		SMTPPort: 587, SMTPTLS: "starttls",
		MaxConnections: 1024, MaxConnectionsPerIP: 64, ReminderSendAt: "08:00",
		OIDCName: "SSO", OIDCAllowPassword: true,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults\n got %+v\nwant %+v", c, want)
	}
}

func TestPrecedence(t *testing.T) {
	file := writeFile(t, "kith.yaml", `
addr: 127.0.0.1:7000
db: from-file.db
rate:
  per_minute: 10
log:
  level: debug
trusted_proxies: [10.0.0.1, 192.168.0.0/16]
base_url: https://kith.example.org/
`)
	c, err := Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:7000" || c.DB != "from-file.db" || c.RatePerMinute != 10 || c.LogLevel != "debug" ||
		c.BaseURL != "https://kith.example.org" || !reflect.DeepEqual(c.TrustedProxies, []string{"10.0.0.1/32", "192.168.0.0/16"}) {
		t.Errorf("file: %+v", c)
	}

	t.Setenv("KITH_DB", "from-env.db")
	t.Setenv("KITH_RATE_PER_MINUTE", "0")
	t.Setenv("KITH_LOG_LEVEL", "warn")
	t.Setenv("KITH_TRUSTED_PROXIES", "127.0.0.1, ::1")
	c, err = Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.DB != "from-env.db" || c.RatePerMinute != 0 || c.LogLevel != "warn" || c.Addr != "127.0.0.1:7000" ||
		!reflect.DeepEqual(c.TrustedProxies, []string{"127.0.0.1/32", "::1/128"}) {
		t.Errorf("environment over file: %+v", c)
	}

	c, err = Load(file, map[string]string{"db": "from-flag.db", "addr": "0.0.0.0:9000"})
	if err != nil {
		t.Fatal(err)
	}
	if c.DB != "from-flag.db" || c.Addr != "0.0.0.0:9000" || c.LogLevel != "warn" {
		t.Errorf("flag over environment: %+v", c)
	}
}

func TestEveryKeyHasAnEnvironmentVariable(t *testing.T) {
	values := map[string]string{
		"addr": "127.0.0.1:1", "db": "x.db", "base_url": "http://h", "rate.per_minute": "7",
		"rate.pages_per_minute": "70",
		"trusted_proxies":       "10.0.0.0/8", "cors.allowed_origins": "https://a.example", "log.level": "error",
		"log.format": "console", "tls.cert_file": "", "tls.key_file": "", "bootstrap.email": "root@h.example",
		"smtp.host": "mail.h.example", "smtp.port": "2525", "smtp.username": "u", "smtp.password": "p",
		"smtp.from": "k@h.example", "smtp.tls": "tls", "debug.pprof_addr": "127.0.0.1:6060",
		"metrics.addr":           "127.0.0.1:9464",
		"limits.max_connections": "10", "limits.max_connections_per_ip": "0", "reminders.send_at": "21:45",
		"reminders.refuse_private_addresses": "true", "api.email_change_needs_password": "true",
		"oidc.issuer": "https://sso.h.example/realms/home", "oidc.client_id": "kith", "oidc.client_secret": " s3cret ",
		"oidc.name": "Home SSO", "oidc.auto_create": "yes", "oidc.allow_password": "false",
		"mail_in.addr": "127.0.0.1:2525", "mail_in.domain": "In.Example.org",
	}
	if len(values) != len(keys) {
		t.Fatalf("this test covers %d keys, the table has %d", len(values), len(keys))
	}
	for name, v := range values {
		t.Setenv(EnvName(name), v)
	}
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:1" || c.DB != "x.db" || c.BaseURL != "http://h" || c.RatePerMinute != 7 || c.RatePagesPerMinute != 70 ||
		c.TrustedProxies[0] != "10.0.0.0/8" || c.CORSOrigins[0] != "https://a.example" || c.LogLevel != "error" ||
		c.LogFormat != "console" || c.BootstrapEmail != "root@h.example" || c.SMTPHost != "mail.h.example" ||
		c.SMTPPort != 2525 || c.SMTPUsername != "u" || c.SMTPPassword != "p" || c.SMTPFrom != "k@h.example" || c.SMTPTLS != "tls" || c.PprofAddr != "127.0.0.1:6060" {
		t.Errorf("from the environment: %+v", c)
	}
	if c.MetricsAddr != "127.0.0.1:9464" {
		t.Errorf("metrics.addr from the environment: %q", c.MetricsAddr)
	}
	if c.ReminderSendAt != "21:45" {
		t.Errorf("reminders.send_at from the environment: %q", c.ReminderSendAt)
	}
	if !c.RefusePrivateAddresses {
		t.Error("reminders.refuse_private_addresses from the environment: still false")
	}
	if !c.APIEmailChangeNeedsPassword {
		t.Error("api.email_change_needs_password from the environment: still false")
	}
	if c.MaxConnections != 10 || c.MaxConnectionsPerIP != 0 {
		t.Errorf("connection caps from the environment: %d, %d", c.MaxConnections, c.MaxConnectionsPerIP)
	}
	if c.OIDCIssuer != "https://sso.h.example/realms/home" || c.OIDCClientID != "kith" || c.OIDCClientSecret != " s3cret " ||
		c.OIDCName != "Home SSO" || !c.OIDCAutoCreate || c.OIDCAllowPassword || !c.OIDC() {
		t.Errorf("oidc.* from the environment: %+v", c)
	}
	if !c.MailIn() || c.MailInAddr != "127.0.0.1:2525" || c.MailInDomain != "in.example.org" {
		t.Errorf("mail_in from the environment: %q, %q", c.MailInAddr, c.MailInDomain)
	}
}

func TestBadConfigurationNamesTheKey(t *testing.T) {
	cases := []struct {
		env, value, wantKey string
	}{
		{"KITH_LOG_LEVEL", "loud", "log.level"},
		{"KITH_LOG_FORMAT", "xml", "log.format"},
		{"KITH_ADDR", "localhost", "addr"},
		{"KITH_ADDR", "127.0.0.1:99999", "addr"},
		{"KITH_RATE_PER_MINUTE", "lots", "rate.per_minute"},
		{"KITH_RATE_PER_MINUTE", "-1", "rate.per_minute"},
		{"KITH_RATE_PAGES_PER_MINUTE", "-1", "rate.pages_per_minute"},
		{"KITH_TRUSTED_PROXIES", "10.0.0.0/33", "trusted_proxies"},
		{"KITH_BASE_URL", "kith.example.org", "base_url"},
		{"KITH_CORS_ALLOWED_ORIGINS", "app.example", "cors.allowed_origins"},
		{"KITH_TLS_CERT_FILE", "/nonexistent/cert.pem", "tls.cert_file"},
		{"KITH_BOOTSTRAP_EMAIL", "admin", "bootstrap.email"},
		{"KITH_SMTP_HOST", "smtp.example.com:587", "smtp.host"},
		{"KITH_SMTP_PORT", "0", "smtp.port"},
		{"KITH_SMTP_PORT", "submission", "smtp.port"},
		{"KITH_SMTP_USERNAME", "kith", "smtp.username"},
		{"KITH_SMTP_FROM", "kith at example", "smtp.from"},
		{"KITH_SMTP_TLS", "ssl", "smtp.tls"},
		{"KITH_DEBUG_PPROF_ADDR", "6060", "debug.pprof_addr"},
		{"KITH_METRICS_ADDR", "9464", "metrics.addr"},
		{"KITH_REMINDERS_SEND_AT", "25:00", "reminders.send_at"},
		{"KITH_REMINDERS_SEND_AT", "8:00", "reminders.send_at"},
		{"KITH_REMINDERS_SEND_AT", "08:60", "reminders.send_at"},
		{"KITH_REMINDERS_SEND_AT", "noon", "reminders.send_at"},
		{"KITH_REMINDERS_REFUSE_PRIVATE_ADDRESSES", "maybe", "reminders.refuse_private_addresses"},
		{"KITH_API_EMAIL_CHANGE_NEEDS_PASSWORD", "sometimes", "api.email_change_needs_password"},
		{"KITH_LIMITS_MAX_CONNECTIONS", "-1", "limits.max_connections"},
		{"KITH_LIMITS_MAX_CONNECTIONS_PER_IP", "many", "limits.max_connections_per_ip"},
		{"KITH_OIDC_AUTO_CREATE", "perhaps", "oidc.auto_create"},
		{"KITH_OIDC_ALLOW_PASSWORD", "never", "oidc.allow_password"},
		{"KITH_OIDC_ALLOW_PASSWORD", "false", "oidc.allow_password"},
		{"KITH_OIDC_NAME", "  ", "oidc.name"},
		{"KITH_MAIL_IN_ADDR", "2525", "mail_in.addr"},
		{"KITH_MAIL_IN_ADDR", "127.0.0.1:smtp25", "mail_in.addr"},
		{"KITH_MAIL_IN_ADDR", "127.0.0.1:70000", "mail_in.addr"},
	}
	for _, tc := range cases {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			if tc.env == "KITH_TLS_CERT_FILE" {
				t.Setenv("KITH_TLS_KEY_FILE", "/nonexistent/key.pem")
			}
			_, err := Load("", nil)
			if err == nil || !strings.Contains(err.Error(), tc.wantKey) {
				t.Errorf("error %v does not name %s", err, tc.wantKey)
			}
		})
	}
}

func TestSMTP(t *testing.T) {
	t.Run("off by default", func(t *testing.T) {
		c, err := Load("", nil)
		if err != nil || c.SMTP() || c.SMTPPort != 587 {
			t.Fatalf("%+v %v", c, err)
		}
	})
	t.Run("a host needs a sender", func(t *testing.T) {
		t.Setenv("KITH_SMTP_HOST", "smtp.example.com")
		_, err := Load("", nil)
		if err == nil || !strings.Contains(err.Error(), "smtp.from (KITH_SMTP_FROM): must be set") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("complete", func(t *testing.T) {
		t.Setenv("KITH_SMTP_HOST", "smtp.example.com")
		t.Setenv("KITH_SMTP_PORT", "465")
		t.Setenv("KITH_SMTP_USERNAME", "kith")
		t.Setenv("KITH_SMTP_PASSWORD", " secret with spaces ")
		t.Setenv("KITH_SMTP_FROM", "Kith <kith@example.com>")
		c, err := Load("", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !c.SMTP() || c.SMTPPort != 465 || c.SMTPUsername != "kith" || c.SMTPPassword != " secret with spaces " || c.SMTPFrom != "Kith <kith@example.com>" ||
			c.SMTPTLS != "tls" {
			t.Errorf("%+v", c)
		}
	})
}

// TestSMTPTLS: smtp.tls defaults by port, and a login never goes out
// unencrypted.
func TestSMTPTLS(t *testing.T) {
	login := func(t *testing.T) {
		t.Setenv("KITH_SMTP_HOST", "smtp.example.com")
		t.Setenv("KITH_SMTP_FROM", "kith@example.com")
		t.Setenv("KITH_SMTP_USERNAME", "kith")
		t.Setenv("KITH_SMTP_PASSWORD", "secret")
	}
	cases := []struct {
		name, port, tls string
		login           bool
		want, wantErr   string
	}{
		{"587 defaults to starttls", "587", "", true, "starttls", ""},
		{"465 defaults to tls", "465", "", true, "tls", ""},
		{"25 defaults to starttls", "25", "", false, "starttls", ""},
		{"starttls on 465 as asked", "465", "starttls", true, "starttls", ""},
		{"tls on 2465 as asked", "2465", "tls", true, "tls", ""},
		{"none for a relay without a login", "25", "none", false, "none", ""},
		{"none with a login", "25", "none", true, "",
			"config: smtp.tls (KITH_SMTP_TLS): none would send smtp.username and smtp.password unencrypted"},
		{"an unknown mode", "587", "STARTTLS", false, "", "config: smtp.tls (KITH_SMTP_TLS): \"STARTTLS\" is not one of starttls, tls, none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.login {
				login(t)
			}
			t.Setenv("KITH_SMTP_PORT", tc.port)
			t.Setenv("KITH_SMTP_TLS", tc.tls)
			c, err := Load("", nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.SMTPTLS != tc.want {
				t.Fatalf("smtp.tls %q (%v), want %q", c.SMTPTLS, err, tc.want)
			}
		})
	}
}

func TestTLSNeedsBothFiles(t *testing.T) {
	t.Setenv("KITH_TLS_CERT_FILE", writeFile(t, "cert.pem", "x"))
	_, err := Load("", nil)
	if err == nil || !strings.Contains(err.Error(), "set together") {
		t.Errorf("cert without key: %v", err)
	}
}

func TestFileErrors(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml"), nil); err == nil {
		t.Error("a missing file is accepted")
	}
	typo := writeFile(t, "kith.yaml", "rate:\n  per_minut: 5\n")
	if _, err := Load(typo, nil); err == nil || !strings.Contains(err.Error(), `"rate.per_minut"`) {
		t.Errorf("unknown key: %v", err)
	}
	broken := writeFile(t, "kith.yaml", "addr: [\n")
	if _, err := Load(broken, nil); err == nil {
		t.Error("broken YAML is accepted")
	}
}

// TestExampleFile keeps config.example.yaml honest: it loads, it names
// every key with its environment variable, and its values are the defaults.
func TestExampleFile(t *testing.T) {
	c, err := Load("../config.example.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := Load("", nil)
	if !reflect.DeepEqual(c, def) {
		t.Errorf("the example's values differ from the defaults:\n got %+v\nwant %+v", c, def)
	}
	raw, _ := os.ReadFile("../config.example.yaml")
	for _, k := range keys {
		leaf := k.name[strings.LastIndex(k.name, ".")+1:]
		if !strings.Contains(string(raw), leaf+":") || !strings.Contains(string(raw), EnvName(k.name)) {
			t.Errorf("config.example.yaml does not show %s with %s", k.name, EnvName(k.name))
		}
	}
}

// TestOIDC: single sign-on is off by default; once an issuer is set, the
// start names whichever key is missing or wrong.
func TestOIDC(t *testing.T) {
	c, err := Load("", nil)
	if err != nil || c.OIDC() || c.OIDCIssuer != "" || c.OIDCName != "SSO" || c.OIDCAutoCreate || !c.OIDCAllowPassword {
		t.Fatalf("off by default: %+v %v", c, err)
	}
	cases := []struct {
		name, issuer, id, secret, allow string
		wantErr                         string
	}{
		{"https with a path", "https://sso.example.org/realms/home", "kith", "s", "false", ""},
		{"https with a port", "https://sso.example.org:8443", "kith", "s", "", ""},
		{"http on 127.0.0.1", "http://127.0.0.1:9000", "kith", "s", "", ""},
		{"http on 127.8.9.10", "http://127.8.9.10:9000/x", "kith", "s", "", ""},
		{"http on ::1", "http://[::1]:9000", "kith", "s", "", ""},
		{"http on localhost", "http://LocalHost:9000", "kith", "s", "", ""},
		{"http elsewhere", "http://sso.example.org", "kith", "s", "",
			`config: oidc.issuer (KITH_OIDC_ISSUER): "http://sso.example.org" is not an https:// URL`},
		{"http on a private address", "http://192.168.1.2", "kith", "s", "", "oidc.issuer (KITH_OIDC_ISSUER)"},
		{"no scheme", "sso.example.org", "kith", "s", "", "oidc.issuer (KITH_OIDC_ISSUER)"},
		{"another scheme", "ftp://sso.example.org", "kith", "s", "", "oidc.issuer (KITH_OIDC_ISSUER)"},
		{"a query", "https://sso.example.org/?realm=home", "kith", "s", "", "oidc.issuer (KITH_OIDC_ISSUER)"},
		{"no client id", "https://sso.example.org", "", "s", "",
			"config: oidc.client_id (KITH_OIDC_CLIENT_ID): must be set when oidc.issuer is"},
		{"no client secret", "https://sso.example.org", "kith", "", "",
			"config: oidc.client_secret (KITH_OIDC_CLIENT_SECRET): must be set when oidc.issuer is"},
		{"passwords off without an issuer", "", "", "", "false",
			"config: oidc.allow_password (KITH_OIDC_ALLOW_PASSWORD): false needs oidc.issuer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KITH_OIDC_ISSUER", tc.issuer)
			t.Setenv("KITH_OIDC_CLIENT_ID", tc.id)
			t.Setenv("KITH_OIDC_CLIENT_SECRET", tc.secret)
			t.Setenv("KITH_OIDC_ALLOW_PASSWORD", tc.allow)
			c, err := Load("", nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.OIDCIssuer != tc.issuer || !c.OIDC() {
				t.Fatalf("%+v %v", c, err)
			}
		})
	}
}

// TestMailIn: mail_in.domain comes from base_url when unset, and without
// either the receiver would hand out addresses of no domain.
func TestMailIn(t *testing.T) {
	cases := []struct {
		name, addr, domain, baseURL string
		want, wantErr               string
	}{
		{"off by default", "", "", "", "", ""},
		{"a domain given", "127.0.0.1:2525", "kith.example.com", "", "kith.example.com", ""},
		{"the domain of base_url", "0.0.0.0:25", "", "https://Kith.Example.org:8443/app", "kith.example.org", ""},
		{"a trailing dot and capitals", "0.0.0.0:25", "Mail.Example.COM.", "", "mail.example.com", ""},
		{"neither domain nor base_url", "0.0.0.0:25", "", "",
			"", "config: mail_in.domain (KITH_MAIL_IN_DOMAIN): mail_in.addr is set: set mail_in.domain (or base_url)"},
		{"an address for a domain", "0.0.0.0:25", "log@example.com", "", "", "config: mail_in.domain (KITH_MAIL_IN_DOMAIN): \"log@example.com\" is not a domain"},
		{"a host and port for a domain", "0.0.0.0:25", "example.com:25", "", "", "config: mail_in.domain (KITH_MAIL_IN_DOMAIN)"},
		{"a bad address", "localhost", "example.com", "", "", "config: mail_in.addr (KITH_MAIL_IN_ADDR): \"localhost\" is not HOST:PORT"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KITH_MAIL_IN_ADDR", tc.addr)
			t.Setenv("KITH_MAIL_IN_DOMAIN", tc.domain)
			t.Setenv("KITH_BASE_URL", tc.baseURL)
			c, err := Load("", nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.MailInDomain != tc.want || c.MailIn() != (tc.addr != "") {
				t.Fatalf("domain %q (%v), want %q", c.MailInDomain, err, tc.want)
			}
		})
	}
}
