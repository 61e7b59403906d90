package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/rs/zerolog"

	"kith/config"
)

// versionFlags: version takes the flags of every command and ignores them;
// it loads no configuration, so a broken one does not hide the version.
func versionFlags(*flag.FlagSet) action {
	return func(_ context.Context, _ *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		_, err := fmt.Fprintln(stdout, "kith", versionOf(version, readBuildInfo))
		return err
	}
}

// readBuildInfo is debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

// versionOf is the version kith says: the one a release stamps (-X
// kith/cli.version=…), else what Go stamped when it built from a checkout
// (the module's version, or the VCS revision, +dirty with uncommitted
// changes), else "dev" (go run, a test binary).
func versionOf(stamped string, info func() (*debug.BuildInfo, bool)) string {
	if stamped != "dev" {
		return stamped
	}
	bi, ok := info()
	if !ok {
		return stamped
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev == "" {
		return stamped
	}
	return "dev-" + rev[:min(12, len(rev))] + dirty
}
