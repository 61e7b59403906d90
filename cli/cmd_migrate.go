package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

// migrateFlags: migrate has only the flags of every command.
func migrateFlags(*flag.FlagSet) action {
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return migrate(ctx, cfg, stdout)
	}
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
	fmt.Fprintf(stdout, "%s is at schema version %d\n", store.Redacted(cfg.DB), v)
	return nil
}
