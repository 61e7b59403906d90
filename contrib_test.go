package main

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
	unit, err := os.ReadFile("contrib/kith.service")
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
	// verify wants the binary the unit runs to exist.
	bin := kithBinary(t)
	path := filepath.Join(t.TempDir(), "kith.service")
	os.WriteFile(path, bytes.ReplaceAll(unit, []byte("/usr/local/bin/kith"), []byte(bin)), 0o644)
	out, err := exec.Command(analyze, "verify", "--man=no", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestDockerfile checks what the image promises. No Docker daemon runs
// here, so the build itself is not tried.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("contrib/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)); n != 2 {
		t.Errorf("%d stages, want a build stage and a runtime stage", n)
	}
	for _, want := range []string{
		"CGO_ENABLED=0 go build -trimpath", `-X main.version=${VERSION}`,
		"FROM gcr.io/distroless/static", "USER 65532:65532", `VOLUME ["/data"]`, "KITH_DB=/data/kith.db",
		"KITH_ADDR=0.0.0.0:8080", `HEALTHCHECK`, `CMD ["/kith", "healthcheck"]`, `ENTRYPOINT ["/kith"]`,
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`FROM golang:(\d+\.\d+)`).FindStringSubmatch(df); m == nil || !strings.Contains(goModVersion(t), m[1]) {
		t.Errorf("the build stage's Go (%v) is not go.mod's (%s)", m, goModVersion(t))
	}
}

func goModVersion(t *testing.T) string {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^go (\S+)`).FindStringSubmatch(string(b))[1]
}
