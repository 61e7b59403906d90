package cli

import (
	"context"
	"crypto/tls"
	"net"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/server/mailin"
	"kith/store"
)

// serveMailIn runs the SMTP receiver of mail-in on ln, with STARTTLS on
// Kith's own certificate when it has one, until ctx ends: then it lets
// the sessions under way finish for up to the shutdown timeout, beside the
// HTTP server's drain, and cuts off the rest. wait stops it (if ctx has
// not) and returns once it has stopped: serve calls it before the store
// closes.
func serveMailIn(ctx context.Context, ln net.Listener, st *store.Store, cfg *config.Config, cert tls.Certificate, log zerolog.Logger) (wait func()) {
	o := mailin.Options{Store: st, Domain: cfg.MailInDomain, Log: log}
	if cfg.TLS() {
		o.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	r := mailin.New(o)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := r.Serve(ln); err != nil {
			log.Error().Err(err).Str("addr", ln.Addr().String()).Msg("mail-in stopped")
		}
	}()
	log.Info().Str("addr", ln.Addr().String()).Str("domain", cfg.MailInDomain).Bool("starttls", cfg.TLS()).
		Msg("mail-in listening (mail_in.addr): SMTP for log-…@" + cfg.MailInDomain)
	// stop also ends it when serve returns for another reason than ctx.
	ctx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
		case <-done: // Serve failed: nothing to drain
		}
		drain, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		r.Shutdown(drain)
		<-done
	}()
	return func() {
		stop()
		<-stopped
	}
}
