// Command kith is a self-hosted personal relationship manager's API server:
// one binary, one SQLite file. The command line is package kith/cli.
package main

import (
	"os"

	"kith/cli"
)

func main() { os.Exit(cli.Main()) }
