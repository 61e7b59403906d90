package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

// The administrator's key commands: a user's API keys, listed (never
// their secrets, which the database does not hold) or revoked. A revoked
// key stops working at the server's next request, which reads keys afresh.

func keyListFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return listKeys(ctx, cfg, *email, stdout)
	}
}

func keyRevokeFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	id := fs.Int64("id", 0, "the key's `ID` (required), as key list shows it")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		if strings.TrimSpace(*email) == "" || !given(fs, "id") {
			return errors.New("key revoke needs --email EMAIL and --id ID")
		}
		return revokeKey(ctx, cfg, *email, *id, stdout)
	}
}

func listKeys(ctx context.Context, cfg *config.Config, email string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" {
		return errors.New("key list needs --email")
	}
	st, u, err := openUser(ctx, cfg, email)
	if err != nil {
		return err
	}
	defer st.Close()
	keys, err := st.APIKeys(ctx, u.ID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tCREATED\tLAST USED")
	for _, k := range keys {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", k.ID, k.Name, timeOf(&k.CreatedAt), timeOf(k.LastUsedAt))
	}
	return tw.Flush()
}

func revokeKey(ctx context.Context, cfg *config.Config, email string, id int64, stdout io.Writer) error {
	st, u, err := openUser(ctx, cfg, email)
	if err != nil {
		return err
	}
	defer st.Close()
	// Another user's key is not found, as a key that never was.
	err = st.DeleteAPIKey(ctx, u.ID, id)
	if errors.Is(err, store.ErrAPIKeyNotFound) {
		return fmt.Errorf("no key %d for %s", id, u.Email)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "revoked key %d of %s\n", id, u.Email)
	return nil
}
