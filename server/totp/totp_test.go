package totp

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// RFC 6238 Appendix B's SHA-1 vectors, whose 8 digits end in our 6.
func TestRFC6238Vectors(t *testing.T) {
	key := []byte("12345678901234567890")
	secret := encoding.EncodeToString(key)
	for _, v := range []struct {
		unix int64
		want string
	}{
		{59, "94287082"}, {1111111109, "07081804"}, {1111111111, "14050471"},
		{1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
	} {
		step := Step(time.Unix(v.unix, 0))
		if got := code(key, step, 8); got != v.want {
			t.Errorf("%d: 8 digits %s, want %s", v.unix, got, v.want)
		}
		if got := Code(secret, step); got != v.want[2:] {
			t.Errorf("%d: %s, want %s", v.unix, got, v.want[2:])
		}
	}
}

func TestMatchWindow(t *testing.T) {
	s := NewSecret()
	if len(s) != 32 || strings.ToUpper(s) != s || strings.Contains(s, "=") {
		t.Fatalf("secret %q", s)
	}
	now := time.Unix(1_800_000_000, 0)
	for d, ok := range map[int64]bool{-2: false, -1: true, 0: true, 1: true, 2: false} {
		step, got := Match(s, Code(s, Step(now)+d), now)
		if got != ok || ok && step != Step(now)+d {
			t.Errorf("step %+d: %d %v", d, step, got)
		}
	}
	if _, ok := Match(s, "12345", now); ok {
		t.Error("5 digits matched")
	}
}

func TestRecoveryCodes(t *testing.T) {
	codes := NewRecoveryCodes(10)
	seen := map[string]bool{}
	for _, c := range codes {
		if len(c) != 11 || c[5] != '-' || strings.Trim(c[:5]+c[6:], recoveryAlphabet) != "" || seen[c] {
			t.Errorf("code %q", c)
		}
		seen[c] = true
	}
	if len(codes) != 10 {
		t.Fatal(len(codes))
	}
	if string(HashRecovery("ABCDE 12345")) != string(HashRecovery("abcde-12345")) {
		t.Error("case, spaces and dashes count")
	}
}

func TestOtpauthURL(t *testing.T) {
	u, err := url.Parse(OtpauthURL("a b@example.com", "ABC"))
	if err != nil || u.Scheme != "otpauth" || u.Host != "totp" || u.Path != "/Kith:a b@example.com" ||
		u.Query().Get("secret") != "ABC" || u.Query().Get("issuer") != "Kith" {
		t.Fatalf("%v %v", u, err)
	}
}
