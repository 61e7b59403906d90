package sso

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
)

// Pending is a sign-in between Start and Finish: what the browser's
// cookie carries, sealed.
type Pending struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	Expires  int64  `json:"e"` // Unix seconds
}

// sealer encrypts and authenticates the cookie (AES-256-GCM), so that a
// browser can neither forge a state nor read the PKCE verifier. Its key
// comes from the client secret rather than from the process: every server
// on one database has it, so a sign-in begun on one ends on another, and
// a restart loses no sign-in under way.
type sealer struct{ aead cipher.AEAD }

func newSealer(secret string) sealer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("kith oidc state cookie v1"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return sealer{aead}
}

func (s sealer) seal(pd Pending) string {
	plain, _ := json.Marshal(pd)
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, nil))
}

func (s sealer) open(v string) (Pending, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return Pending{}, false
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], nil)
	if err != nil {
		return Pending{}, false
	}
	var pd Pending
	if json.Unmarshal(plain, &pd) != nil || pd.State == "" || pd.Nonce == "" || pd.Verifier == "" {
		return Pending{}, false
	}
	return pd, true
}

// random is 256 random bits, base64url: a state or a nonce.
func random() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
