// Package totp computes RFC 6238 codes (HMAC-SHA-1, 6 digits, 30-second
// steps from the Unix epoch) and the recovery codes that stand in for
// them. It is small enough to read whole, which a dependency is not.
package totp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// Period is the length of a step in seconds.
const Period = 30

var encoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewSecret returns 20 random bytes (160 bits, RFC 4226's advice) in
// base32, upper case without padding: 32 characters.
func NewSecret() string {
	b := make([]byte, 20)
	rand.Read(b)
	return encoding.EncodeToString(b)
}

// Step is the step that t falls in.
func Step(t time.Time) int64 { return t.Unix() / Period }

// Code is the 6-digit code of a base32 secret at a step; "" for a secret
// that is not base32.
func Code(secret string, step int64) string {
	key, err := encoding.DecodeString(strings.ToUpper(secret))
	if err != nil {
		return ""
	}
	return code(key, step, 6)
}

func code(key []byte, step int64, digits int) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	m := hmac.New(sha1.New, key)
	m.Write(msg[:])
	sum := m.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, n%mod)
}

// Match returns the step, among the one of now, the one before and the one
// after, whose code is code (compared in constant time), and whether one is.
func Match(secret, code string, now time.Time) (int64, bool) {
	if len(code) != 6 {
		return 0, false
	}
	found, at := false, int64(0)
	for s := Step(now) - 1; s <= Step(now)+1; s++ {
		if hmac.Equal([]byte(Code(secret, s)), []byte(code)) && !found {
			found, at = true, s
		}
	}
	return at, found
}

// OtpauthURL is the URL an authenticator app reads (from a QR code) to
// add the account.
func OtpauthURL(email, secret string) string {
	return "otpauth://totp/Kith:" + strings.ReplaceAll(pathEscape(email), "%40", "@") + "?secret=" + secret + "&issuer=Kith"
}

// pathEscape escapes what a URL path may not hold as is.
func pathEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~@+", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

const recoveryAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// NewRecoveryCodes returns n different codes "xxxxx-xxxxx" (about 51 bits
// each), drawn from a–z and 0–9.
func NewRecoveryCodes(n int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		b := make([]byte, 10)
		for i := range b {
			b[i] = recoveryAlphabet[randIndex(len(recoveryAlphabet))]
		}
		c := string(b[:5]) + "-" + string(b[5:])
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// randIndex is a uniform random index below n (n ≤ 256), by rejection.
func randIndex(n int) int {
	limit := 256 - 256%n
	var b [1]byte
	for {
		rand.Read(b[:])
		if int(b[0]) < limit {
			return int(b[0]) % n
		}
	}
}

// NormalizeRecovery is a typed recovery code as stored: lower case,
// without spaces and dashes.
func NormalizeRecovery(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, code)
}

// HashRecovery is what Kith keeps of a recovery code: random enough that a
// fast hash is enough, as for API keys.
func HashRecovery(code string) []byte {
	h := sha256.Sum256([]byte(NormalizeRecovery(code)))
	return h[:]
}
