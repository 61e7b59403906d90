package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

func backupFlags(fs *flag.FlagSet) action {
	out := fs.String("out", "", "write the copy to `FILE` (required), which must not exist")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return backup(ctx, cfg, *out, stdout)
	}
}

func backup(ctx context.Context, cfg *config.Config, out string, stdout io.Writer) error {
	if out == "" {
		return errors.New("backup needs --out FILE")
	}
	if err := store.Backup(ctx, cfg.DB, out); err != nil {
		return fmt.Errorf("backup of %s: %w", store.Redacted(cfg.DB), err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup of %s written to %s (%d bytes), integrity ok\n", cfg.DB, out, fi.Size())
	return nil
}
