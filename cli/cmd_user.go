package cli

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

// newUserFlags are the flags of "user create".
type newUserFlags struct {
	email, firstName, lastName, password string
	account                              int64
	accountSet                           bool // --account 0 names no account; without the flag, a new one is made
}

func userCreateFlags(fs *flag.FlagSet) action {
	var nu newUserFlags
	fs.StringVar(&nu.email, "email", "", "the user's `EMAIL` (required)")
	fs.StringVar(&nu.firstName, "first-name", "", "the user's first `NAME` (required)")
	fs.StringVar(&nu.lastName, "last-name", "", "the user's last `NAME` (required)")
	fs.StringVar(&nu.password, "password", "", "the `PASSWORD`, 8 to 72 bytes; without it one is made and printed")
	fs.Int64Var(&nu.account, "account", 0, "the `ID` of an existing account to join, sharing its persons, tasks and categories")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		nu.accountSet = given(fs, "account")
		return createUser(ctx, cfg, nu, stdout)
	}
}

func userVerifyFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return verifyUser(ctx, cfg, *email, stdout)
	}
}

func createUser(ctx context.Context, cfg *config.Config, nu newUserFlags, stdout io.Writer) error {
	var missing []string
	for _, f := range [][2]string{{"--email", nu.email}, {"--first-name", nu.firstName}, {"--last-name", nu.lastName}} {
		if strings.TrimSpace(f[1]) == "" {
			missing = append(missing, f[0])
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("user create needs %s", strings.Join(missing, ", "))
	}
	if nu.accountSet && nu.account <= 0 {
		return fmt.Errorf("--account %d: no such account", nu.account)
	}
	generated := nu.password == ""
	if generated {
		nu.password = rand.Text()
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, store.NewUser{
		FirstName: strings.TrimSpace(nu.firstName), LastName: strings.TrimSpace(nu.lastName),
		Email: nu.email, Password: nu.password, AccountID: nu.account, ReplaceInvitation: true,
	})
	switch {
	case errors.Is(err, store.ErrEmailTaken):
		return fmt.Errorf("a user with the email %s already exists", strings.ToLower(nu.email))
	case errors.Is(err, store.ErrInvalidEmail):
		return fmt.Errorf("--email %q is not an email address", nu.email)
	case errors.Is(err, store.ErrPasswordLength):
		return errors.New("--password must be 8 to 72 bytes long")
	case errors.Is(err, store.ErrAccountNotFound):
		return fmt.Errorf("--account %d: no such account", nu.account)
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "id: %d\naccount: %d\nemail: %s\n", u.ID, u.AccountID, u.Email)
	if generated {
		fmt.Fprintf(stdout, "password: %s\n", nu.password)
	}
	return nil
}

// verifyUser unlocks a user whose changed email was never verified. It
// is safe while the server runs: SQLite serialises the write, and the
// server reads the user afresh on every request.
func verifyUser(ctx context.Context, cfg *config.Config, email string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" {
		return errors.New("user verify needs --email")
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.MarkVerified(ctx, email)
	if err != nil {
		return emailErr(err, email)
	}
	fmt.Fprintf(stdout, "id: %d\nemail: %s\nverified\n", u.ID, u.Email)
	return nil
}

func userSetEmailFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` now (required)")
	to := fs.String("new-email", "", "the `EMAIL` they get, verified (required)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return setEmail(ctx, cfg, *email, *to, stdout)
	}
}

// setEmail gives a user another email address, verified: the operator's
// way to change it, since the web app asks for the current password.
func setEmail(ctx context.Context, cfg *config.Config, email, to string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" || strings.TrimSpace(to) == "" {
		return errors.New("user set-email needs --email and --new-email")
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.SetEmail(ctx, email, to)
	switch {
	case errors.Is(err, store.ErrEmailTaken):
		return fmt.Errorf("a user with the email %s already exists", strings.ToLower(strings.TrimSpace(to)))
	case errors.Is(err, store.ErrInvalidEmail):
		return fmt.Errorf("--new-email %q is not an email address", to)
	case err != nil:
		return emailErr(err, email)
	}
	fmt.Fprintf(stdout, "id: %d\nemail: %s\nverified\n", u.ID, u.Email)
	return nil
}
