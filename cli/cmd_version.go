package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"kith/config"
)

// versionFlags: version takes the flags of every command and ignores them;
// it loads no configuration, so a broken one does not hide the version.
func versionFlags(*flag.FlagSet) action {
	return func(_ context.Context, _ *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		_, err := fmt.Fprintln(stdout, "kith", version)
		return err
	}
}
