// Command kith is a self-hosted personal relationship manager's API server:
// one binary, one SQLite file.
package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // time zones work on a host without a zoneinfo database

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"kith/config"
	"kith/rate"
	"kith/server"
	"kith/store"
)

// version is stamped at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `Usage: kith [command] [flags]

Commands:
  serve         run the server (the default)
  user create   create a user, in a new account or (--account ID) an existing one:
                  --email E --first-name F --last-name L [--password P] [--account ID]
  user verify   mark a user's email verified: --email E
  migrate       apply pending database migrations and exit
  backup        write a checked copy of the live database: --out FILE (must not exist)
  restore       put a checked backup in place of the database (server stopped): --from FILE
  healthcheck   exit 0 if the server at addr answers GET /api/health with 200, else 1
  version       print the version

Flags of every command:
  --config FILE   YAML configuration file (or KITH_CONFIG)
  --db PATH       database file (KITH_DB, default kith.db)
  --addr H:P      listen address (KITH_ADDR, default 127.0.0.1:8080)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// newUserFlags are the flags of "user create".
type newUserFlags struct {
	email, firstName, lastName, password string
	account                              int64
}

// run is the whole program, minus process exit, so tests can call it.
// It returns the exit code: 0 ok, 1 failure, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, rest := splitCommand(args)
	switch cmd {
	case "version":
		fmt.Fprintln(stdout, "kith", version)
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "serve", "user create", "user verify", "migrate", "healthcheck", "backup", "restore":
	default:
		fmt.Fprintf(stderr, "kith: unknown command %q\n\n%s", cmd, usage)
		return 2
	}

	fs := flag.NewFlagSet("kith "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	configPath := fs.String("config", config.ConfigFileFromEnv(), "")
	fs.String("db", "", "")
	fs.String("addr", "", "")
	var nu newUserFlags
	if cmd == "user create" || cmd == "user verify" {
		fs.StringVar(&nu.email, "email", "", "")
	}
	var file string
	switch cmd {
	case "backup":
		fs.StringVar(&file, "out", "", "")
	case "restore":
		fs.StringVar(&file, "from", "", "")
	}
	if cmd == "user create" {
		fs.StringVar(&nu.firstName, "first-name", "", "")
		fs.StringVar(&nu.lastName, "last-name", "", "")
		fs.StringVar(&nu.password, "password", "", "")
		fs.Int64Var(&nu.account, "account", 0, "")
	}
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kith: unexpected argument %q\n\n%s", fs.Arg(0), usage)
		return 2
	}
	overrides := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "db" || f.Name == "addr" {
			overrides[f.Name] = f.Value.String()
		}
	})
	cfg, err := config.Load(*configPath, overrides)
	if err != nil {
		fmt.Fprintln(stderr, "kith:", err)
		return 1
	}
	log := newLogger(cfg, stderr)

	switch cmd {
	case "user create":
		err = createUser(ctx, cfg, nu, stdout)
	case "user verify":
		err = verifyUser(ctx, cfg, nu.email, stdout)
	case "migrate":
		err = migrate(ctx, cfg, stdout)
	case "healthcheck":
		err = healthcheck(ctx, cfg, stdout)
	case "backup":
		err = backup(ctx, cfg, file, stdout)
	case "restore":
		err = restore(ctx, cfg, file, stdout)
	default:
		err = serve(ctx, cfg, log, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "kith:", err)
		return 1
	}
	return 0
}

// splitCommand returns the command ("serve" when none is given) and the
// arguments after it.
func splitCommand(args []string) (string, []string) {
	switch {
	case len(args) > 0 && isHelp(args[0]):
		return "help", nil
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		return "serve", args
	case args[0] == "user" && len(args) > 1 && (args[1] == "create" || args[1] == "verify"):
		return "user " + args[1], args[2:]
	}
	return args[0], args[1:]
}

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "--help" || a == "-help" }

func newLogger(cfg *config.Config, w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.LogLevel)
	if err != nil {
		level = zerolog.InfoLevel // unreachable: the config was validated
	}
	if cfg.LogFormat == "console" {
		w = zerolog.ConsoleWriter{Out: w, NoColor: !isTerminal(w), TimeFormat: time.DateTime}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// isTerminal reports whether w is a terminal, where colours help; a file,
// a pipe, the journal or /dev/null (a character device too) get none.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// openStore opens the database and brings its schema up to date.
func openStore(ctx context.Context, path string) (*store.Store, []string, error) {
	st, err := store.Open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	applied, err := st.Migrate(ctx)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, applied, nil
}

// lockDatabase takes the database's lock (store.Lock), which a server holds
// while it runs and a restore while it works; the other commands go on
// beside a server under SQLite's own locking.
func lockDatabase(db string) (release func() error, err error) {
	release, err = store.Lock(db)
	var locked *store.LockedError
	if errors.As(err, &locked) {
		if locked.PID == 0 {
			return nil, fmt.Errorf("another kith server has %s open", db)
		}
		return nil, fmt.Errorf("another kith server (pid %d) has %s open", locked.PID, db)
	}
	return release, err
}

func migrate(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	st, applied, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, name := range applied {
		fmt.Fprintln(stdout, "applied", name)
	}
	v, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s is at schema version %d\n", cfg.DB, v)
	return nil
}

func createUser(ctx context.Context, cfg *config.Config, nu newUserFlags, stdout io.Writer) error {
	var missing []string
	for _, f := range [][2]string{{"--email", nu.email}, {"--first-name", nu.firstName}, {"--last-name", nu.lastName}} {
		if strings.TrimSpace(f[1]) == "" {
			missing = append(missing, f[0])
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("user create needs %s", strings.Join(missing, ", "))
	}
	generated := nu.password == ""
	if generated {
		nu.password = rand.Text()
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, store.NewUser{
		FirstName: strings.TrimSpace(nu.firstName), LastName: strings.TrimSpace(nu.lastName),
		Email: nu.email, Password: nu.password, AccountID: nu.account,
	})
	switch {
	case errors.Is(err, store.ErrEmailTaken):
		return fmt.Errorf("a user with the email %s already exists", strings.ToLower(nu.email))
	case errors.Is(err, store.ErrInvalidEmail):
		return fmt.Errorf("--email %q is not an email address", nu.email)
	case errors.Is(err, store.ErrPasswordLength):
		return errors.New("--password must be 8 to 72 bytes long")
	case errors.Is(err, store.ErrAccountNotFound):
		return fmt.Errorf("--account %d: no such account", nu.account)
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "id: %d\naccount: %d\nemail: %s\n", u.ID, u.AccountID, u.Email)
	if generated {
		fmt.Fprintf(stdout, "password: %s\n", nu.password)
	}
	return nil
}

// healthcheck asks the server this configuration describes for its
// health, for a container's HEALTHCHECK (a distroless image has no curl).
// It talks to the server on its own host, so a self-signed certificate is
// accepted: nothing secret is sent, and only the answer's status counts.
func healthcheck(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	addr, err := net.ResolveTCPAddr("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("addr (KITH_ADDR): %w", err)
	}
	url := localURL(cfg.TLS(), addr) + "/api/health"
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d", url, res.StatusCode)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}

func backup(ctx context.Context, cfg *config.Config, out string, stdout io.Writer) error {
	if out == "" {
		return errors.New("backup needs --out FILE")
	}
	if err := store.Backup(ctx, cfg.DB, out); err != nil {
		return fmt.Errorf("backup of %s: %w", cfg.DB, err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup of %s written to %s (%d bytes), integrity ok\n", cfg.DB, out, fi.Size())
	return nil
}

// restore refuses while a server has the database open, on whatever
// address or protocol: the file would be swapped under it, and its
// acknowledged writes lost. It holds the server's lock while it works, so
// no server starts meanwhile.
func restore(ctx context.Context, cfg *config.Config, from string, stdout io.Writer) error {
	if from == "" {
		return errors.New("restore needs --from FILE")
	}
	release, err := lockDatabase(cfg.DB)
	if err != nil {
		return fmt.Errorf("%w: stop it before restoring", err)
	}
	defer release()
	// A server of a Kith from before the lock holds none: the configured
	// address is asked as well.
	if healthcheck(ctx, cfg, io.Discard) == nil {
		return fmt.Errorf("a server answers on %s: stop it before restoring", cfg.Addr)
	}
	kept, err := store.Restore(ctx, from, cfg.DB, time.Now().UTC().Format("20060102-150405"))
	if err != nil {
		return fmt.Errorf("restore of %s: %w", from, err)
	}
	fmt.Fprintf(stdout, "%s restored to %s\n", from, cfg.DB)
	if kept != "" {
		fmt.Fprintf(stdout, "the database it replaced is kept as %s\n", kept)
	}
	return nil
}

// verifyUser unlocks a user whose changed email was never verified. It
// is safe while the server runs: SQLite serialises the write, and the
// server reads the user afresh on every request.
func verifyUser(ctx context.Context, cfg *config.Config, email string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" {
		return errors.New("user verify needs --email")
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.MarkVerified(ctx, email)
	if errors.Is(err, store.ErrUserNotFound) {
		return fmt.Errorf("no user has the email %s", strings.ToLower(strings.TrimSpace(email)))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "id: %d\nemail: %s\nverified\n", u.ID, u.Email)
	return nil
}

func serve(ctx context.Context, cfg *config.Config, log zerolog.Logger, stdout io.Writer) error {
	// The lock is held until the process ends, after the store is closed.
	release, err := lockDatabase(cfg.DB)
	if err != nil {
		return err
	}
	defer release()
	st, applied, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(applied) > 0 {
		log.Info().Strs("migrations", applied).Str("db", cfg.DB).Msg("database migrated")
	}

	// Listen before creating the first user: if the address is taken, the
	// credentials must not be made and lost.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("addr (KITH_ADDR): %w", err)
	}
	creds, err := st.Bootstrap(ctx, cfg.BootstrapEmail)
	if err != nil {
		ln.Close()
		return err
	}
	if creds != nil {
		printCredentials(stdout, creds, publicURL(cfg, ln.Addr()))
	}

	srv := server.New(server.Options{
		Store:          st,
		Limiter:        rate.New(cfg.RatePerMinute),
		Logins:         rate.NewAttempts(5, time.Minute),
		Mailer:         newMailer(cfg, log),
		Logger:         log,
		BaseURL:        cfg.BaseURL,
		TrustedProxies: cfg.TrustedProxies,
		CORSOrigins:    cfg.CORSOrigins,
	})
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopPprof()
	}
	hs := srv.HTTPServer()
	errc := make(chan error, 1)
	go func() {
		if cfg.TLS() {
			errc <- hs.ServeTLS(ln, cfg.TLSCertFile, cfg.TLSKeyFile)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	log.Info().Str("addr", ln.Addr().String()).Bool("tls", cfg.TLS()).Str("db", cfg.DB).
		Str("version", version).Msg("listening")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := srv.WaitForMail(shutdownCtx); err != nil {
		log.Warn().Err(err).Msg("stopped before every verification email was sent")
	}
	log.Info().Msg("stopped")
	return nil
}

// servePprof serves Go's profiler on its own listener, apart from the API:
// it needs no key, so it belongs on loopback.
func servePprof(addr string, log zerolog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug.pprof_addr (KITH_DEBUG_PPROF_ADDR): %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	log.Warn().Str("addr", ln.Addr().String()).Msg("profiler listening (debug.pprof_addr): keep it on loopback")
	return func() { hs.Close() }, nil
}

// newMailer returns the SMTP mailer, or nil (links to the log) when no
// smtp.host is set.
func newMailer(cfg *config.Config, log zerolog.Logger) server.Mailer {
	if !cfg.SMTP() {
		log.Info().Msg("smtp.host is not set: verification links will be written to this log")
		return nil
	}
	if cfg.BaseURL == "" {
		// The link would take its host from the request's Host header,
		// which the client chooses.
		log.Warn().Msg("smtp.host is set but base_url is not: verification links will use the Host header of each request; set base_url")
	}
	return server.NewSMTP(server.SMTPOptions{
		Host: cfg.SMTPHost, Port: cfg.SMTPPort, Username: cfg.SMTPUsername, Password: cfg.SMTPPassword, From: cfg.SMTPFrom,
	})
}

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

func printCredentials(w io.Writer, c *store.Credentials, url string) {
	fmt.Fprintf(w, `
Kith created its first user. This is shown once: keep it somewhere safe.

  email:    %s
  password: %s
  API key:  %s

Try it:
  curl -H 'Authorization: Bearer %s' %s/api/me

`, c.User.Email, c.Password, c.Token, c.Token, url)
}
