package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"kith/config"
)

// command is one entry of the commands table.
type command struct {
	name     string                     // one or two words: "backup", "user create"
	summary  string                     // one line, lower case, for usage and help
	flags    func(*flag.FlagSet) action // declares the command's own flags
	noConfig bool                       // runs without loading the configuration
}

// action runs a command once its flags are parsed; cfg is nil for a
// noConfig command.
type action func(ctx context.Context, cfg *config.Config, log zerolog.Logger, stdout io.Writer) error

// commonFlags declares the flags of every command and returns where
// --config lands; --db and --addr reach the configuration as overrides.
func commonFlags(fs *flag.FlagSet) *string {
	path := fs.String("config", config.ConfigFileFromEnv(), "read the configuration from the YAML `FILE` (or KITH_CONFIG)")
	fs.String("db", "", "use the database at `PATH` (KITH_DB, default kith.db)")
	fs.String("addr", "", "the server's address, `HOST:PORT` (KITH_ADDR, default 127.0.0.1:8080)")
	return path
}

var isCommon = map[string]bool{"config": true, "db": true, "addr": true}

// given reports whether the flag name was set on the command line, for a
// flag whose zero value is also a value (--account 0, --id 0).
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// overrides are the --db and --addr given on the command line, which win
// over the file and the environment.
func overrides(fs *flag.FlagSet) map[string]string {
	o := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "db" || f.Name == "addr" {
			o[f.Name] = f.Value.String()
		}
	})
	return o
}

// splitCommand returns the command ("serve" when none is given) and the
// arguments after it.
func splitCommand(args []string) (string, []string) {
	switch {
	case len(args) == 0:
		return "serve", nil
	case args[0] == "--version" || args[0] == "-version":
		return "version", args[1:]
	case isHelp(args[0]):
		return "help", args[1:]
	case strings.HasPrefix(args[0], "-"):
		return "serve", args
	case len(args) > 2 && findCommand(args[0]+" "+args[1]+" "+args[2]) != nil:
		return args[0] + " " + args[1] + " " + args[2], args[3:]
	case len(args) > 1 && findCommand(args[0]+" "+args[1]) != nil:
		return args[0] + " " + args[1], args[2:]
	}
	return args[0], args[1:]
}

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "--help" || a == "-help" }

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// help answers "kith help [COMMAND]": the usage, one command's help, or
// the commands of a group ("kith help user").
func help(args []string, stdout, stderr io.Writer) int {
	name := strings.Join(args, " ")
	if name == "" {
		printUsage(stdout)
		return 0
	}
	if cmd := findCommand(name); cmd != nil {
		fs := flag.NewFlagSet("kith "+cmd.name, flag.ContinueOnError)
		commonFlags(fs)
		cmd.flags(fs)
		cmd.printHelp(stdout, fs)
		return 0
	}
	var group []command
	for _, c := range commands {
		if strings.HasPrefix(c.name, name+" ") {
			group = append(group, c)
		}
	}
	if len(group) == 0 {
		fmt.Fprintf(stderr, "kith: unknown command %q\n\n", name)
		printUsage(stderr)
		return 2
	}
	printCommands(stdout, group)
	fmt.Fprintf(stdout, "\nRun \"kith help %s COMMAND\" for its flags.\n", name)
	return 0
}

// printUsage writes kith's usage, from the commands table.
func printUsage(w io.Writer) {
	fmt.Fprint(w, "Usage: kith [command] [flags]\n\nCommands:\n")
	printCommands(w, append(commands[:len(commands):len(commands)],
		command{name: "help", summary: "print this, or a command's flags: help COMMAND (also -h on any command)"}))
	fmt.Fprint(w, "\nFlags of every command:\n")
	fs := flag.NewFlagSet("kith", flag.ContinueOnError)
	commonFlags(fs)
	printFlags(w, fs, isCommon)
	fmt.Fprint(w, "\nRun \"kith help COMMAND\" for a command's own flags.\n")
}

func printCommands(w io.Writer, cmds []command) {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, c := range cmds {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
}

// printHelp writes the command's usage and flags, its own first.
func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: kith %s [flags]\n\n%s\n", c.name, c.summary)
	own := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { own[f.Name] = !isCommon[f.Name] })
	if len(own) > len(isCommon) {
		fmt.Fprint(w, "\nFlags:\n")
		printFlags(w, fs, own)
	}
	fmt.Fprint(w, "\nFlags of every command:\n")
	printFlags(w, fs, isCommon)
}

// printFlags lists the flags of fs that are in names, in order, with the
// argument a backquoted word of their usage names ("--out FILE").
func printFlags(w io.Writer, fs *flag.FlagSet, names map[string]bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		if !names[f.Name] {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(tw, "  --%s %s\t%s\n", f.Name, arg, usage)
	})
	tw.Flush()
}
