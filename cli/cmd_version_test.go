package cli

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	if code, out, _ := runKith("version"); code != 0 || out != "kith dev\n" {
		t.Errorf("version: %d %q", code, out)
	}
	if code, out, _ := runKith("--version"); code != 0 || out != "kith dev\n" {
		t.Errorf("--version: %d %q", code, out)
	}
	t.Setenv("KITH_LOG_LEVEL", "loud")
	if code, out, errOut := runKith("version"); code != 0 || out != "kith dev\n" {
		t.Errorf("version with a broken configuration: %d %q %q", code, out, errOut)
	}
}

// TestVersionFromTheBuild: a binary built from a checkout says what Go
// stamped (the module's version, or the VCS revision), not "dev"; a
// release's stamp wins (issue 28).
func TestVersionFromTheBuild(t *testing.T) {
	info := func(version string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "kith", Version: version}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	for _, c := range []struct {
		name, stamped string
		info          func() (*debug.BuildInfo, bool)
		want          string
	}{
		{"a release's stamp", "v1.2.0", info("v0.0.0-20261128103500-0594d17abcde"), "v1.2.0"},
		{"a module version Go stamped", "dev", info("v0.0.0-20261128103500-0594d17abcde+dirty"), "v0.0.0-20261128103500-0594d17abcde+dirty"},
		{"a revision without a version", "dev", info("(devel)", "vcs.revision", "0594d17abcdef0123456789", "vcs.modified", "true"), "dev-0594d17abcde+dirty"},
		{"a clean revision", "dev", info("(devel)", "vcs.revision", "0594d17abcdef0123456789", "vcs.modified", "false"), "dev-0594d17abcde"},
		{"nothing stamped (go run, tests)", "dev", info("(devel)"), "dev"},
		{"no build information", "dev", none, "dev"},
	} {
		if got := versionOf(c.stamped, c.info); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// The real thing: kith built from this checkout as go build does by
	// default (-buildvcs=auto; this machine's GOFLAGS turns it off, hence
	// the flag), when git is there to ask.
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: go build stamps no revision")
	}
	bin := filepath.Join(t.TempDir(), "kith")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "kith").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if v := strings.TrimSpace(string(out)); v == "kith dev" || !strings.HasPrefix(v, "kith ") {
		t.Errorf("a build from the checkout says %q", v)
	}
}
