package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSystemdUnit checks the hardening the unit promises, and has
// systemd-analyze verify it where this machine has systemd; any warning
// (an unknown key, say) fails.
func TestSystemdUnit(t *testing.T) {
	unit, err := os.ReadFile("../contrib/kith.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"DynamicUser=yes", "StateDirectory=kith", "ProtectSystem=strict", "NoNewPrivileges=yes",
		"ProtectHome=yes", "PrivateTmp=yes", "CapabilityBoundingSet=\n", "ExecStart=/usr/local/bin/kith serve\n",
		"Environment=KITH_DB=/var/lib/kith/kith.db",
	} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("kith.service lacks %q", want)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze here: the unit's lines were checked, not verified")
	}
	// verify wants the binary the unit runs to exist: a built one stands in
	// for /usr/local/bin/kith (the line the README says to change).
	bin := kithBinary(t)
	if n := bytes.Count(unit, []byte("/usr/local/bin/kith ")); n != 1 {
		t.Fatalf("/usr/local/bin/kith appears %d times in the unit's lines, want once (ExecStart)", n)
	}
	path := filepath.Join(t.TempDir(), "kith.service")
	if err := os.WriteFile(path, bytes.ReplaceAll(unit, []byte("ExecStart=/usr/local/bin/kith "), []byte("ExecStart="+bin+" ")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", "--man=no", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestDockerfile checks what the image promises: pinned base images, a
// non-root user, the tests run in the build, once, on the building machine's
// platform, and a binary cross-compiled for each platform the image is built
// for. No Docker daemon runs here (and images cannot be pulled), so the build
// itself is not tried.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../contrib/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)); n != 2 {
		t.Errorf("%d stages, want a build stage and a runtime stage", n)
	}
	for _, want := range []string{
		"go build -trimpath", `-X kith/cli.version=${VERSION}`,
		"FROM gcr.io/distroless/static", "USER 65532:65532", `VOLUME ["/data"]`, "KITH_DB=/data/kith.db",
		"KITH_ADDR=0.0.0.0:8080", `HEALTHCHECK`, `CMD ["/kith", "healthcheck"]`, `ENTRYPOINT ["/kith"]`,
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`FROM (?:--platform=\S+ )?golang:(\d+\.\d+)`).FindStringSubmatch(df); m == nil || !strings.Contains(goModVersion(t), m[1]) {
		t.Errorf("the build stage's Go (%v) is not go.mod's (%s)", m, goModVersion(t))
	}
	// Base images pinned to a Go minor and a Debian release, not :latest;
	// the build stage on the building machine's platform (BuildKit's
	// BUILDPLATFORM; the classic builder sets none, and "linux" is the
	// machine's own).
	for _, base := range []string{"FROM --platform=${BUILDPLATFORM:-linux} golang:1.26-bookworm AS build", "FROM gcr.io/distroless/static-debian12:nonroot"} {
		if !strings.Contains(df, base+"\n") {
			t.Errorf("Dockerfile lacks %q", base)
		}
	}
	// The build runs the tests, before the binary is built, and does not set
	// CI (which makes the tests that need PostgreSQL or Chromium fail).
	test, build := strings.Index(df, "\nRUN go test "), strings.Index(df, "\nRUN CGO_ENABLED=0 ")
	if test < 0 || build < 0 || test > build {
		t.Errorf("the build stage does not run go test before go build (test at %d, build at %d)", test, build)
	}
	// The build is for the target platform (buildx's TARGETOS, TARGETARCH,
	// TARGETVARIANT: linux/arm/v7 is GOARM=7), or the machine's own when
	// they are empty (the classic builder). They are declared after the
	// tests, which then run once for all platforms, not once per platform.
	if build >= 0 {
		run := df[build:]
		run = run[:strings.Index(run+"\n\n", "\n\n")]
		for _, want := range []string{`GOOS="${TARGETOS:-$(go env GOOS)}"`, `GOARCH="${TARGETARCH:-$(go env GOARCH)}"`, `GOARM="${TARGETVARIANT#v}"`} {
			if !strings.Contains(run, want) {
				t.Errorf("the go build does not set %s", want)
			}
		}
	}
	for _, arg := range []string{"TARGETOS", "TARGETARCH", "TARGETVARIANT"} {
		if at := strings.Index(df, "\nARG "+arg+"\n"); at < test || at > build {
			t.Errorf("ARG %s is not declared between the tests and the build (at %d; tests at %d, build at %d)", arg, at, test, build)
		}
	}
	// Nothing runs in the runtime stage (distroless has no shell): the
	// image is cross-built for arm64 and armv7 without emulation.
	if stages := regexp.MustCompile(`(?m)^FROM `).Split(df, -1); regexp.MustCompile(`(?m)^RUN `).MatchString(stages[len(stages)-1]) {
		t.Error("the runtime stage RUNs something: distroless has no shell, and the multi-platform build has no emulation")
	}
	if regexp.MustCompile(`(?m)^(ENV|ARG)\b.*\bCI=`).MatchString(df) {
		t.Error("the Dockerfile sets CI: the tests needing PostgreSQL or Chromium would fail instead of skipping")
	}
	// The last USER is not root, and docs/operations.md says which it is.
	users := regexp.MustCompile(`(?m)^USER (\S+)`).FindAllStringSubmatch(df, -1)
	if len(users) == 0 || strings.HasPrefix(users[len(users)-1][1], "0") || strings.HasPrefix(users[len(users)-1][1], "root") {
		t.Errorf("the image runs as %v, want a non-root USER", users)
	}
	ops, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"golang:1.26-bookworm", "gcr.io/distroless/static-debian12:nonroot", "65532"} {
		if !bytes.Contains(ops, []byte(want)) {
			t.Errorf("docs/operations.md does not say %q (the base images and the user)", want)
		}
	}
}

func goModVersion(t *testing.T) string {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^go (\S+)`).FindStringSubmatch(string(b))[1]
}

// TestREADMENamesGoModsGo: the README's prerequisite is the exact Go that
// go.mod asks for: an older toolchain of the same minor version tries to
// download it, which fails offline (issue 28).
func TestREADMENamesGoModsGo(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "[Go](https://go.dev/dl/) " + goModVersion(t) + " or later"
	if !strings.Contains(string(b), want) {
		t.Errorf("the README's prerequisite does not say %q", want)
	}
}
