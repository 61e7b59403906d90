package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

func restoreFlags(fs *flag.FlagSet) action {
	from := fs.String("from", "", "restore the backup in `FILE` (required)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return restore(ctx, cfg, *from, stdout)
	}
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
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w: stop it before restoring", err)
	}
	if err != nil {
		return err
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
