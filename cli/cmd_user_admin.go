package cli

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

// The administrator's user commands: list, password, delete. Each is one
// store transaction, so they run beside a server: SQLite serialises the
// writes, and the server reads users, sessions and keys afresh on every
// request, so a revoked session or key stops working at once.

func userListFlags(fs *flag.FlagSet) action {
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return listUsers(ctx, cfg, stdout)
	}
}

func userPasswordFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	fromStdin := fs.Bool("password-stdin", false, "read the new password, 8 to 72 bytes, from the first line of standard input; without it one is made and printed")
	revokeKeys := fs.Bool("revoke-keys", false, "a credential reset: also revoke the user's API keys and calendar feed, and disable their channels but email (their web sessions always are)")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return setPassword(ctx, cfg, *email, *fromStdin, *revokeKeys, os.Stdin, stdout)
	}
}

func userDeleteFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "the user's `EMAIL` (required)")
	yes := fs.Bool("yes", false, "delete; without it, print what would be deleted and delete nothing")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return deleteUser(ctx, cfg, *email, *yes, stdout)
	}
}

// timeOf prints a Unix time for the command line: UTC, RFC 3339, or "-"
// for none.
func timeOf(t *int64) string {
	if t == nil {
		return "-"
	}
	return time.Unix(*t, 0).UTC().Format(time.RFC3339)
}

// emailErr turns the store's ErrUserNotFound for the user that --email
// names into the command line's error; other errors pass unchanged.
func emailErr(err error, email string) error {
	if errors.Is(err, store.ErrUserNotFound) {
		return fmt.Errorf("no user has the email %s", strings.ToLower(strings.TrimSpace(email)))
	}
	return err
}

// openUser opens the database and finds the user that --email names, for
// the commands that act on one user's data. The caller closes the store.
func openUser(ctx context.Context, cfg *config.Config, email string) (*store.Store, store.User, error) {
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return nil, store.User{}, err
	}
	u, err := st.UserByEmail(ctx, email)
	if err != nil {
		st.Close()
		return nil, store.User{}, emailErr(err, email)
	}
	return st, u, nil
}

func listUsers(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	users, err := st.Users(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tACCOUNT\tVERIFIED\tCREATED\tLAST SEEN\tTWO-FACTOR\tPASSKEYS")
	for _, u := range users {
		verified := "no"
		switch {
		case !u.Joined():
			verified = "invited" // has not chosen a password yet
		case u.Verified():
			verified = "yes"
		}
		twoFactor := "off"
		if u.TwoFactor {
			twoFactor = "on"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%d\n", u.ID, u.Email, u.AccountID, verified, timeOf(&u.CreatedAt), timeOf(u.LastSeenAt), twoFactor, u.Passkeys)
	}
	return tw.Flush()
}

// setPassword gives a user a new password, made here and printed once, or
// read from the first line of stdin, which keeps it out of the process
// list and the shell's history.
func setPassword(ctx context.Context, cfg *config.Config, email string, fromStdin, revokeKeys bool, stdin io.Reader, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" {
		return errors.New("user password needs --email")
	}
	password := rand.Text()
	if fromStdin {
		var err error
		if password, err = readLine(stdin); err != nil {
			return fmt.Errorf("--password-stdin: %w", err)
		}
		if password == "" {
			return errors.New("--password-stdin: standard input holds no password")
		}
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	pc, err := st.SetPassword(ctx, email, password, revokeKeys)
	if errors.Is(err, store.ErrPasswordLength) {
		return errors.New("--password-stdin: the password must be 8 to 72 bytes long")
	}
	if err != nil {
		return emailErr(err, email)
	}
	fmt.Fprintf(stdout, "id: %d\nemail: %s\n", pc.User.ID, pc.User.Email)
	if !fromStdin {
		fmt.Fprintf(stdout, "password: %s\n", password)
	}
	fmt.Fprintf(stdout, "web sessions revoked: %d\n", pc.Sessions)
	if revokeKeys {
		fmt.Fprintf(stdout, "api keys revoked: %d\n", pc.Keys)
		fmt.Fprintf(stdout, "calendar feeds revoked: %d\n", pc.Feeds)
		fmt.Fprintf(stdout, "channels disabled: %d\n", len(pc.Channels))
		for _, ch := range pc.Channels {
			fmt.Fprintf(stdout, "  channel %d: %s%s%s (the user can enable it again in Settings)\n",
				ch.ID, ch.Kind, channelName(ch), channelHost(ch))
		}
	}
	if pc.Invitations > 0 {
		fmt.Fprintf(stdout, "invitations revoked: %d\n", pc.Invitations)
	}
	return nil
}

// readLine reads the first line of r, without its line ending.
func readLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// deleteUser deletes a user and, when they are its last, their account
// with all its data. Without yes it prints what would go, and deletes
// nothing.
func deleteUser(ctx context.Context, cfg *config.Config, email string, yes bool, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" {
		return errors.New("user delete needs --email")
	}
	st, _, err := openStore(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	var d store.UserDeletion
	if yes {
		d, err = st.DeleteUser(ctx, email)
	} else {
		d, err = st.UserDeletionOf(ctx, email)
	}
	if err != nil {
		return emailErr(err, email)
	}
	verb := "deleted"
	if !yes {
		verb = "would delete"
	}
	if d.AccountDeleted() {
		fmt.Fprintf(stdout, "%s user %d (%s) and account %d, whose last user they are, with its data:\n", verb, d.User.ID, d.User.Email, d.User.AccountID)
	} else {
		fmt.Fprintf(stdout, "%s user %d (%s); account %d stays with its %d other user(s). With the user:\n", verb, d.User.ID, d.User.Email, d.User.AccountID, d.OtherUsers)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, r := range d.Rows {
		if r.Rows > 0 {
			fmt.Fprintf(tw, "  %s:\t%d\n", r.Table, r.Rows)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !yes {
		return errors.New("nothing deleted: run again with --yes to delete")
	}
	return nil
}

// channelName is a channel's name, as ` "Name"`, when it has one.
func channelName(ch store.Channel) string {
	if ch.Name == nil || *ch.Name == "" {
		return ""
	}
	return " " + strconv.Quote(*ch.Name)
}

// channelHost is where a channel sends, as ` to host`: the host alone,
// since the path or a user part of its URL may carry a secret.
func channelHost(ch store.Channel) string {
	if ch.URL == nil {
		return ""
	}
	u, err := url.Parse(*ch.URL)
	if err != nil || u.Host == "" {
		return ""
	}
	return " to " + u.Host
}
