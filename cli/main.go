// Package cli is kith's command line: the commands, their flags and help,
// and the wiring of config, store, rate and server that each of them does.
// The kith binary (main.go at the module root) is cli.Main.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // time zones work on a host without a zoneinfo database

	"github.com/rs/zerolog"

	"kith/config"
)

// version is stamped at build time with -ldflags "-X kith/cli.version=…".
var version = "dev"

// commands is every command of kith, in the order the usage lists them:
// usage, help and dispatch all come from this table. Each flags function
// declares the command's own flags and returns what runs it; a new command
// is one line here and a cmd_<name>.go of its own.
var commands = []command{
	{name: "serve", summary: "run the server (the default)", flags: serveFlags},
	{name: "user create", summary: "create a user, in a new account or (--account ID) an existing one", flags: userCreateFlags},
	{name: "user verify", summary: "mark a user's email verified (also while the server runs)", flags: userVerifyFlags},
	{name: "user set-email", summary: "give a user another email address, verified (also while the server runs)", flags: userSetEmailFlags},
	{name: "user list", summary: "list the users: id, email, account, verified, created, last seen, two-factor", flags: userListFlags},
	{name: "user password", summary: "set a user's password and sign them out everywhere (also while the server runs)", flags: userPasswordFlags},
	{name: "user two-factor disable", summary: "turn a user's two-factor sign-in off when they lost their phone (also while the server runs)", flags: userTwoFactorDisableFlags},
	{name: "user delete", summary: "delete a user, and their account with its data when they are its last user (--yes)", flags: userDeleteFlags},
	{name: "key list", summary: "list a user's API keys: id, name, created, last used", flags: keyListFlags},
	{name: "key revoke", summary: "revoke one of a user's API keys (also while the server runs)", flags: keyRevokeFlags},
	{name: "migrate", summary: "apply pending database migrations and exit", flags: migrateFlags},
	{name: "backup", summary: "write a checked copy of the live database", flags: backupFlags},
	{name: "restore", summary: "put a checked backup in place of the database (server stopped)", flags: restoreFlags},
	{name: "export", summary: "write a user's account as an export document (as GET /api/export)", flags: exportFlags},
	{name: "import", summary: "restore an export document into a user's account without persons (as POST /api/import)", flags: importFlags},
	{name: "copy", summary: "copy every row into a new, empty database: SQLite to PostgreSQL or back", flags: copyFlags, noConfig: true},
	{name: "healthcheck", summary: "exit 0 if the server at addr answers GET /api/health with 200, else 1", flags: healthcheckFlags},
	{name: "version", summary: "print the version (also kith --version)", flags: versionFlags, noConfig: true},
}

// Main runs kith with the process's arguments until it is done or gets
// SIGINT or SIGTERM, and returns the exit code for os.Exit.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}

// run is the whole program, minus process exit, so tests can call it.
// It returns the exit code: 0 ok, 1 failure, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name, rest := splitCommand(args)
	if name == "help" {
		return help(rest, stdout, stderr)
	}
	cmd := findCommand(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "kith: unknown command %q\n\n", name)
		printUsage(stderr)
		return 2
	}

	fs := flag.NewFlagSet("kith "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(stderr) // for the flag package's own parse errors
	fs.Usage = func() {}
	configPath := commonFlags(fs)
	act := cmd.flags(fs)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cmd.printHelp(stdout, fs)
			return 0
		}
		fmt.Fprintln(stderr)
		cmd.printHelp(stderr, fs)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kith: unexpected argument %q\n\n", fs.Arg(0))
		cmd.printHelp(stderr, fs)
		return 2
	}

	cfg, log := (*config.Config)(nil), zerolog.Nop()
	var logs *logBuffer
	if !cmd.noConfig {
		var err error
		if cfg, err = config.Load(*configPath, overrides(fs)); err != nil {
			fmt.Fprintln(stderr, "kith:", err)
			return 1
		}
		log, logs = newLogger(cfg, stderr)
	}
	err := act(ctx, cfg, log, stdout)
	if logs != nil {
		logs.Close() // its lines before the error's
	}
	if err != nil {
		fmt.Fprintln(stderr, "kith:", err)
		return 1
	}
	return 0
}
