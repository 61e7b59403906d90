package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/server/transfer"
)

func exportFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "export the account of the user with this `EMAIL` (required), with their settings")
	out := fs.String("out", "", "write the document to `FILE` (required), which must not exist; - writes it to standard output")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return exportAccount(ctx, cfg, *email, *out, stdout)
	}
}

// exportAccount writes what GET /api/export answers the user to a file.
// It reads one snapshot of the account, so a server may run beside it.
func exportAccount(ctx context.Context, cfg *config.Config, email, out string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" || out == "" {
		return errors.New("export needs --email EMAIL and --out FILE")
	}
	st, u, err := openUser(ctx, cfg, email)
	if err != nil {
		return err
	}
	defer st.Close()
	if out == "-" {
		_, err := transfer.WriteExport(ctx, st, u.AccountID, u.ID, stdout, nil)
		return err
	}
	// The people of someone's life: readable by its owner only.
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("--out %s already exists: an export does not overwrite a file", out)
	}
	if err != nil {
		return err
	}
	persons, err := transfer.WriteExport(ctx, st, u.AccountID, u.ID, f, nil)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out) // half a document must not pass for one
		return fmt.Errorf("export to %s: %w", out, err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "account %d of %s exported to %s: %d persons, %d bytes\n", u.AccountID, u.Email, out, persons, fi.Size())
	return nil
}
