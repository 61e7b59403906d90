package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"kith/config"
)

// userTwoFactorDisableFlags is the operator's way back in for a user who
// lost their phone and their recovery codes. The server reads the
// two-factor state on every sign-in, so the next one needs no code.
func userTwoFactorDisableFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return disableTwoFactor(ctx, cfg, *email, stdout)
	}
}

func disableTwoFactor(ctx context.Context, cfg *config.Config, email string, stdout io.Writer) error {
	if email == "" {
		return errors.New("user two-factor disable needs --email")
	}
	st, u, err := openUser(ctx, cfg, email)
	if err != nil {
		return err
	}
	defer st.Close()
	was, err := st.DisableTwoFactor(ctx, u.ID)
	if err != nil {
		return err
	}
	if !was {
		fmt.Fprintf(stdout, "Two-factor authentication was already off for %s.\n", u.Email)
		return nil
	}
	fmt.Fprintf(stdout, "Two-factor authentication is off for %s: their next sign-in needs only the password.\n", u.Email)
	return nil
}
