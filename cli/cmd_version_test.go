package cli

import "testing"

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
