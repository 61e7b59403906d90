// Package config loads Kith's configuration from defaults, a YAML file,
// KITH_* environment variables and command-line flags, in rising order of
// precedence, and validates it before anything starts.
package config

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// Config is the whole configuration of one Kith process. It holds plain
// values only, so no other package needs to know about viper.
type Config struct {
	Addr    string
	DB      string
	BaseURL string

	RatePerMinute int
	// RatePagesPerMinute is the web app's own limit, apart from the API's:
	// pages (and their files) a minute per user or client address.
	RatePagesPerMinute int
	TrustedProxies     []string

	// MaxConnections caps open connections overall, MaxConnectionsPerIP
	// those from one client address (an IPv6 /64); 0 is no cap.
	MaxConnections      int
	MaxConnectionsPerIP int

	CORSOrigins []string

	LogLevel  string
	LogFormat string

	TLSCertFile string
	TLSKeyFile  string

	BootstrapEmail string

	// SMTP sends verification emails; with no host, links go to the log.
	SMTPHost     string
	SMTPPort     int
	SMTPUsername string
	SMTPPassword string
	SMTPFrom     string
	// SMTPTLS is starttls, tls (from the first byte) or none; Validate
	// fills in the default: tls on port 465, else starttls.
	SMTPTLS string

	// ReminderSendAt is when the daily digests go out, "HH:MM" in each
	// user's time zone, for users who have not chosen their own.
	ReminderSendAt string
	// RefusePrivateAddresses keeps ntfy, Gotify and webhook channels from
	// reaching loopback, private and link-local addresses: on for a server
	// on the internet, whose users should not reach its own network.
	RefusePrivateAddresses bool

	// APIEmailChangeNeedsPassword makes PUT /api/me ask for the current
	// password when it changes the email, as the web app always does. Off
	// by default: PeopleOS's clients change it with a key alone.
	APIEmailChangeNeedsPassword bool

	// PprofAddr, when set, serves Go's profiler there (debug.pprof_addr).
	PprofAddr string

	// MetricsAddr, when set, serves Prometheus metrics there (metrics.addr).
	MetricsAddr string

	// OIDCIssuer turns single sign-on on: the OpenID provider's issuer URL,
	// as its discovery document spells it. OIDCClientID and
	// OIDCClientSecret are Kith's client at the provider; OIDCName is shown
	// on the sign-in page's link.
	OIDCIssuer       string
	OIDCClientID     string
	OIDCClientSecret string
	OIDCName         string
	// OIDCAutoCreate makes a user, in a new account, for a verified email
	// Kith does not know.
	OIDCAutoCreate bool
	// OIDCAllowPassword false refuses every sign-in by password.
	OIDCAllowPassword bool
	// MailInAddr, when set, is where the SMTP receiver of mail-in listens
	// (mail_in.addr); MailInDomain is the domain of its addresses, which
	// Validate takes from base_url when unset.
	MailInAddr   string
	MailInDomain string
}

// key describes one configuration key: its name in the YAML file, its
// default, and how a raw value from any source becomes part of Config.
type key struct {
	name  string
	def   any
	apply func(c *Config, raw any) error
}

// keys lists every key Kith knows. viper only consults the environment for
// keys it has a default for, so each one is registered from this table; the
// environment variable is KITH_ + the name upper-cased with dots as underscores.
var keys = []key{
	{"addr", "127.0.0.1:8080", func(c *Config, v any) error { return asString(v, &c.Addr) }},
	{"db", "kith.db", func(c *Config, v any) error { return asString(v, &c.DB) }},
	{"base_url", "", func(c *Config, v any) error { return asString(v, &c.BaseURL) }},
	{"rate.per_minute", 60, func(c *Config, v any) error { return asInt(v, &c.RatePerMinute) }},
	{"rate.pages_per_minute", 600, func(c *Config, v any) error { return asInt(v, &c.RatePagesPerMinute) }},
	{"limits.max_connections", 1024, func(c *Config, v any) error { return asInt(v, &c.MaxConnections) }},
	{"limits.max_connections_per_ip", 64, func(c *Config, v any) error { return asInt(v, &c.MaxConnectionsPerIP) }},
	{"trusted_proxies", []string{}, func(c *Config, v any) error { return asList(v, &c.TrustedProxies) }},
	{"cors.allowed_origins", []string{"*"}, func(c *Config, v any) error { return asList(v, &c.CORSOrigins) }},
	{"log.level", "info", func(c *Config, v any) error { return asString(v, &c.LogLevel) }},
	{"log.format", "json", func(c *Config, v any) error { return asString(v, &c.LogFormat) }},
	{"tls.cert_file", "", func(c *Config, v any) error { return asString(v, &c.TLSCertFile) }},
	{"tls.key_file", "", func(c *Config, v any) error { return asString(v, &c.TLSKeyFile) }},
	{"bootstrap.email", "admin@example.com", func(c *Config, v any) error { return asString(v, &c.BootstrapEmail) }},
	{"smtp.host", "", func(c *Config, v any) error { return asString(v, &c.SMTPHost) }},
	{"smtp.port", 587, func(c *Config, v any) error { return asInt(v, &c.SMTPPort) }},
	{"smtp.username", "", func(c *Config, v any) error { return asString(v, &c.SMTPUsername) }},
	{"smtp.password", "", func(c *Config, v any) error { return asSecret(v, &c.SMTPPassword) }},
	{"smtp.from", "", func(c *Config, v any) error { return asString(v, &c.SMTPFrom) }},
	{"smtp.tls", "", func(c *Config, v any) error { return asString(v, &c.SMTPTLS) }},
	{"reminders.send_at", "08:00", func(c *Config, v any) error { return asString(v, &c.ReminderSendAt) }},
	{"reminders.refuse_private_addresses", false, func(c *Config, v any) error { return asBool(v, &c.RefusePrivateAddresses) }},
	{"api.email_change_needs_password", false, func(c *Config, v any) error { return asBool(v, &c.APIEmailChangeNeedsPassword) }},
	{"debug.pprof_addr", "", func(c *Config, v any) error { return asString(v, &c.PprofAddr) }},
	{"metrics.addr", "", func(c *Config, v any) error { return asString(v, &c.MetricsAddr) }},
	{"oidc.issuer", "", func(c *Config, v any) error { return asString(v, &c.OIDCIssuer) }},
	{"oidc.client_id", "", func(c *Config, v any) error { return asString(v, &c.OIDCClientID) }},
	{"oidc.client_secret", "", func(c *Config, v any) error { return asSecret(v, &c.OIDCClientSecret) }},
	{"oidc.name", "SSO", func(c *Config, v any) error { return asString(v, &c.OIDCName) }},
	{"oidc.auto_create", false, func(c *Config, v any) error { return asBool(v, &c.OIDCAutoCreate) }},
	{"oidc.allow_password", true, func(c *Config, v any) error { return asBool(v, &c.OIDCAllowPassword) }},
	{"mail_in.addr", "", func(c *Config, v any) error { return asString(v, &c.MailInAddr) }},
	{"mail_in.domain", "", func(c *Config, v any) error { return asString(v, &c.MailInDomain) }},
}

// EnvName returns the environment variable that sets the key name.
func EnvName(name string) string {
	return "KITH_" + strings.ToUpper(strings.ReplaceAll(name, ".", "_"))
}

// Load builds the configuration. path is the YAML file ("" for none);
// overrides holds the values of command-line flags that were given, by key
// name, and beats every other source. The result is validated.
func Load(path string, overrides map[string]string) (*Config, error) {
	v := viper.New()
	v.SetEnvPrefix("KITH")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	known := make(map[string]bool, len(keys))
	for _, k := range keys {
		v.SetDefault(k.name, k.def)
		known[k.name] = true
	}
	if path != "" {
		v.SetConfigFile(path)
		v.SetConfigType("yaml")
		if err := v.ReadInConfig(); err != nil {
			return nil, fmt.Errorf("config: read %s: %w", path, err)
		}
		if err := checkFileKeys(path, known); err != nil {
			return nil, err
		}
	}
	for name, val := range overrides {
		if !known[name] {
			return nil, fmt.Errorf("config: unknown key %q", name)
		}
		v.Set(name, val)
	}

	c := &Config{}
	for _, k := range keys {
		if err := k.apply(c, v.Get(k.name)); err != nil {
			return nil, fmt.Errorf("config: %s (%s): %w", k.name, EnvName(k.name), err)
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// checkFileKeys refuses keys in the file that Kith does not know: a typo
// such as "rate.per_minut" would otherwise be ignored without a word.
func checkFileKeys(path string, known map[string]bool) error {
	f := viper.New()
	f.SetConfigFile(path)
	f.SetConfigType("yaml")
	if err := f.ReadInConfig(); err != nil {
		return fmt.Errorf("config: read %s: %w", path, err)
	}
	var unknown []string
	for _, name := range f.AllKeys() {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("config: %s: unknown key %q", path, unknown[0])
	}
	return nil
}

func asString(v any, dst *string) error {
	switch t := v.(type) {
	case nil:
		*dst = ""
	case string:
		*dst = strings.TrimSpace(t)
	case int, int64, float64, bool:
		*dst = fmt.Sprint(t)
	default:
		return fmt.Errorf("want a string, got %T", v)
	}
	return nil
}

// asSecret is asString without the trimming: a password's spaces are its own.
func asSecret(v any, dst *string) error {
	if t, ok := v.(string); ok {
		*dst = t
		return nil
	}
	return asString(v, dst)
}

func asInt(v any, dst *int) error {
	switch t := v.(type) {
	case int:
		*dst = t
	case int64:
		*dst = int(t)
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", t)
		}
		*dst = n
	default:
		return fmt.Errorf("want a whole number, got %v", v)
	}
	return nil
}

// asBool accepts a YAML boolean, or true/false, 1/0, yes/no, on/off as an
// environment variable or a flag gives it.
func asBool(v any, dst *bool) error {
	switch t := v.(type) {
	case bool:
		*dst = t
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "1", "yes", "on":
			*dst = true
		case "false", "0", "no", "off", "":
			*dst = false
		default:
			return fmt.Errorf("want true or false, got %q", t)
		}
	default:
		return fmt.Errorf("want true or false, got %v", v)
	}
	return nil
}

// asList accepts a YAML list, or a string of items separated by commas or
// spaces, as an environment variable or a flag gives it.
func asList(v any, dst *[]string) error {
	var items []string
	switch t := v.(type) {
	case nil:
	case string:
		items = strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	case []string:
		items = t
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("want a list of strings, got an item %v", e)
			}
			items = append(items, s)
		}
	default:
		return errors.New("want a list of strings")
	}
	out := make([]string, 0, len(items))
	for _, s := range items {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	*dst = out
	return nil
}

// ConfigFileFromEnv returns the configuration file named by KITH_CONFIG, for
// when no --config flag is given.
func ConfigFileFromEnv() string {
	return os.Getenv("KITH_CONFIG")
}
