package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/rate"
	"kith/server"
	"kith/server/mail"
	"kith/server/web/sso"
	"kith/store"
)

// shutdownTimeout bounds the drain after SIGINT/SIGTERM; tests shorten it.
var shutdownTimeout = 10 * time.Second

// backgroundDelay is how long after listening the reminders' first pass,
// the integrity check and the connection of the database's writer wait.
// Started at once, they ran beside the first requests, and on a server
// given one CPU the first answer waited for them: the check reads every
// page of the database (12 ms of the benchmark's 2 MB file, seconds of a
// large one), most of a start; the writer's connection parses the schema.
var backgroundDelay = time.Second

// after waits d and reports whether it passed before ctx ended.
func after(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// serveFlags: serve has only the flags of every command.
func serveFlags(fs *flag.FlagSet) action {
	return func(ctx context.Context, cfg *config.Config, log zerolog.Logger, stdout io.Writer) error {
		warnExposed(log, cfg.DB, fs.Lookup("config").Value.String())
		return serve(ctx, cfg, log, stdout)
	}
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
		log.Info().Strs("migrations", applied).Str("db", store.Redacted(cfg.DB)).Msg("database migrated")
	}

	logFileLimit(cfg, log)

	// Listen before creating the first user: if the address is taken, the
	// credentials must not be made and lost.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("addr (KITH_ADDR): %w", err)
	}
	var metricsLn net.Listener
	if cfg.MetricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			ln.Close()
			return fmt.Errorf("metrics.addr (KITH_METRICS_ADDR): %w", err)
		}
		defer metricsLn.Close()
	}
	var mailInLn net.Listener
	if cfg.MailIn() {
		if mailInLn, err = net.Listen("tcp", cfg.MailInAddr); err != nil {
			ln.Close()
			return fmt.Errorf("mail_in.addr (KITH_MAIL_IN_ADDR): %w", err)
		}
		defer mailInLn.Close()
	}
	creds, err := st.Bootstrap(ctx, cfg.BootstrapEmail)
	if err != nil {
		ln.Close()
		return err
	}
	if creds != nil {
		printCredentials(stdout, creds, publicURL(cfg, ln.Addr()))
	}

	warnBaseURL(cfg, log)
	o := server.Options{
		Store:          st,
		Limiter:        rate.New(cfg.RatePerMinute),
		PageLimiter:    rate.New(cfg.RatePagesPerMinute),
		Logins:         rate.NewAttempts(5, time.Minute),
		Mailer:         newMailer(cfg, log),
		ReminderSendAt: cfg.ReminderSendAt,
		Logger:         log,
		BaseURL:        cfg.BaseURL,
		TrustedProxies: cfg.TrustedProxies,
		CORSOrigins:    cfg.CORSOrigins,

		MaxConns:        cfg.MaxConnections,
		MaxConnsPerAddr: cfg.MaxConnectionsPerIP,

		RefusePrivateAddresses:   cfg.RefusePrivateAddresses,
		EmailChangeNeedsPassword: cfg.APIEmailChangeNeedsPassword,

		SSOAutoCreate: cfg.OIDCAutoCreate,
		PasswordOff:   !cfg.OIDCAllowPassword,
	}
	if cfg.OIDC() {
		o.SSO = sso.New(sso.Config{Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID,
			ClientSecret: cfg.OIDCClientSecret, Name: cfg.OIDCName, Now: st.Now})
	}
	if cfg.MailIn() {
		o.MailInDomain = cfg.MailInDomain
	}
	if store.IsPostgres(cfg.DB) {
		// Every server on the database counts together: a client does not
		// get N times the limit from N servers.
		o.ShareLimits(st, cfg.RatePerMinute, cfg.RatePagesPerMinute)
	}
	srv := server.New(o)
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopPprof()
	}
	var ms *http.Server
	if metricsLn != nil {
		ms = serveMetrics(metricsLn, srv.MetricsHandler(), log)
		defer ms.Close()
	}
	hs := srv.HTTPServer()
	conns := trackConns(hs)
	limited := srv.Listener(ln, !cfg.TLS())
	var cert tls.Certificate
	if cfg.TLS() {
		if cert, err = tls.LoadX509KeyPair(cfg.TLSCertFile, cfg.TLSKeyFile); err != nil {
			ln.Close()
			return fmt.Errorf("tls.cert_file, tls.key_file: %w", err)
		}
	}
	errc := make(chan error, 1)
	go func() {
		if cfg.TLS() {
			errc <- server.ServeTLS(hs, limited, cert)
		} else {
			errc <- hs.Serve(server.JSONErrors(limited))
		}
	}()
	if mailInLn != nil {
		defer serveMailIn(ctx, mailInLn, st, cfg, cert, log)()
	}
	// The reminders stop before the store closes: the deferred cancel and
	// wait run first.
	remindCtx, stopReminders := context.WithCancel(context.WithoutCancel(ctx))
	var reminders sync.WaitGroup
	reminders.Go(func() {
		if after(remindCtx, backgroundDelay) {
			srv.Reminders().Run(remindCtx)
		}
	})
	reminders.Go(func() {
		if after(remindCtx, backgroundDelay) {
			srv.WatchIntegrity(remindCtx)
		}
	})
	reminders.Go(func() {
		if after(remindCtx, backgroundDelay) {
			if err := st.ConnectWriter(remindCtx); err != nil && remindCtx.Err() == nil {
				log.Warn().Err(err).Msg("the database's writer could not connect: the first write will try again")
			}
		}
	})
	defer reminders.Wait()
	defer stopReminders()
	log.Info().Str("addr", ln.Addr().String()).Bool("tls", cfg.TLS()).Str("db", store.Redacted(cfg.DB)).
		Str("version", versionOf(version, readBuildInfo)).Msg("listening")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("shutdown: %w", err)
		}
		// Still an orderly stop: what outlived the deadline is cut off.
		open, active := conns.count()
		hs.Close()
		log.Warn().Dur("timeout", shutdownTimeout).Int("connections", open).Int("mid_request", active).
			Msg("shutdown deadline passed: closed the connections still open")
	}
	if ms != nil {
		// After the API's drain, so that a scrape sees its last requests;
		// the deferred Close ends what outlives the deadline.
		ms.Shutdown(shutdownCtx)
	}
	if err := srv.WaitForMail(shutdownCtx); err != nil {
		log.Warn().Err(err).Msg("stopped before every verification email was sent")
	}
	log.Info().Msg("stopped")
	return nil
}

// fdReserve is how many open files serve keeps for itself beside
// connections: the database and its companions, the listeners, the log.
const fdReserve = 64

// logFileLimit raises the open file limit as far as the system allows and
// says what it is, with a warning when the connection cap does not fit in
// it: past the limit, accept fails with "too many open files" and
// everyone waits, whatever the caps.
func logFileLimit(cfg *config.Config, log zerolog.Logger) {
	soft, hard, err := raiseFileLimit()
	if errors.Is(err, errors.ErrUnsupported) {
		return
	}
	if err != nil {
		log.Warn().Err(err).Uint64("soft", soft).Uint64("hard", hard).Msg("could not raise the open file limit")
	} else {
		log.Info().Uint64("soft", soft).Uint64("hard", hard).Msg("open file limit")
	}
	if soft > 0 && (cfg.MaxConnections == 0 || uint64(cfg.MaxConnections)+fdReserve > soft) {
		log.Warn().Int("max_connections", cfg.MaxConnections).Uint64("open_file_limit", soft).
			Msgf("limits.max_connections does not fit the open file limit with %d to spare: lower it, or raise the limit (LimitNOFILE= in a systemd unit)", fdReserve)
	}
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
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		log.Warn().Str("addr", ln.Addr().String()).Msg("debug.pprof_addr is not a loopback address: " +
			"anyone who reaches it can profile the server and read its command line, with no key; use 127.0.0.1")
	}
	log.Warn().Str("addr", ln.Addr().String()).Msg("profiler listening (debug.pprof_addr): keep it on loopback")
	return func() { hs.Close() }, nil
}

// serveMetrics serves Prometheus's scrapes at /metrics on their own
// listener, apart from the API: they need no key, and the API's limits
// must not refuse them.
func serveMetrics(ln net.Listener, h http.Handler, log zerolog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute, // Prometheus keeps its connection between scrapes
		MaxHeaderBytes:    16 << 10,
	}
	go hs.Serve(ln)
	log.Info().Str("addr", ln.Addr().String()).Msg("metrics listening (metrics.addr): GET /metrics")
	return hs
}

// warnBaseURL warns when links take their host from the request's Host
// header, which the client chooses: a verification link is made with or
// without SMTP (without, it goes to the log), and responses carry links too.
func warnBaseURL(cfg *config.Config, log zerolog.Logger) {
	if cfg.BaseURL != "" {
		return
	}
	where := "verification and invitation links written to this log"
	if cfg.SMTP() {
		where = "verification and invitation links in emails"
	}
	log.Warn().Msg("base_url is not set: links in responses and " + where +
		" take their host from each request's Host header, which the client chooses; set base_url")
}

// newMailer returns the SMTP mailer, or nil (links to the log) when no
// smtp.host is set.
func newMailer(cfg *config.Config, log zerolog.Logger) mail.Mailer {
	if !cfg.SMTP() {
		log.Info().Msg("smtp.host is not set: verification and invitation links will be written to this log")
		return nil
	}
	return mail.NewSMTP(mail.SMTPOptions{
		Host: cfg.SMTPHost, Port: cfg.SMTPPort, Username: cfg.SMTPUsername, Password: cfg.SMTPPassword, From: cfg.SMTPFrom,
		TLS: cfg.SMTPTLS,
	})
}

// openConns follows the HTTP server's connections, so that a shutdown cut
// short by its deadline can say how many it cut off.
type openConns struct {
	mu    sync.Mutex
	state map[net.Conn]http.ConnState
}

// trackConns hooks hs's ConnState, keeping any hook already there.
func trackConns(hs *http.Server) *openConns {
	oc := &openConns{state: make(map[net.Conn]http.ConnState)}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		oc.mu.Lock()
		if st == http.StateClosed || st == http.StateHijacked {
			delete(oc.state, c)
		} else {
			oc.state[c] = st
		}
		oc.mu.Unlock()
		if prev != nil {
			prev(c, st)
		}
	}
	return oc
}

// count returns the connections still open, and how many of them are in
// the middle of a request.
func (oc *openConns) count() (open, active int) {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	for _, st := range oc.state {
		if st == http.StateActive {
			active++
		}
	}
	return len(oc.state), active
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
