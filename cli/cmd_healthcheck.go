package cli

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"kith/config"
)

// healthcheckFlags: healthcheck has only the flags of every command; it
// asks the server at --addr.
func healthcheckFlags(*flag.FlagSet) action {
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return healthcheck(ctx, cfg, stdout)
	}
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
