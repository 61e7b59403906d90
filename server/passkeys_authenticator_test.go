package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// softAuthenticator is a passkey authenticator in the test: an ECDSA P-256
// key, a credential id, and the user handle it was registered with. It
// answers a ceremony's options as a browser would post them, and each of
// its answers can be spoiled one way to see Kith refuse it.
type softAuthenticator struct {
	key    *ecdsa.PrivateKey
	credID []byte
	handle []byte
	count  uint32
}

func newSoftAuthenticator(t testing.TB) *softAuthenticator {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softAuthenticator{key: key, credID: id}
}

// The authenticator data's flags.
const (
	flagUP = 0x01 // user present
	flagUV = 0x04 // user verified
	flagAT = 0x40 // attested credential data follows
)

// ceremony is what a test changes in an answer: the origin the browser
// saw, the RP id hashed into it, the flags, the challenge, the user
// handle, and whether the signature is spoiled.
type ceremony struct {
	origin, rpID string
	flags        byte
	challenge    string // base64url; "" takes the options'
	handle       []byte // nil takes the registered one
	badSignature bool
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func unb64(t testing.TB, s string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64url %q: %v", s, err)
	}
	return b
}

// publicOptions is the part of a ceremony's options the authenticator reads.
type publicOptions struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		RPID      string `json:"rpId"`
		RP        struct {
			ID string `json:"id"`
		} `json:"rp"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func parseOptions(t testing.TB, body string) publicOptions {
	t.Helper()
	var o publicOptions
	if err := json.Unmarshal([]byte(body), &o); err != nil || o.PublicKey.Challenge == "" {
		t.Fatalf("options %q: %v", body, err)
	}
	return o
}

func (a *softAuthenticator) authData(rpID string, flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(rpID))
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.count)
	return append(out, attested...)
}

func clientData(t testing.TB, kind, challenge, origin string) []byte {
	b, err := json.Marshal(map[string]any{"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// register answers registration options with a new credential, attestation "none".
func (a *softAuthenticator) register(t testing.TB, options string, c ceremony) string {
	t.Helper()
	o := parseOptions(t, options)
	a.handle = unb64(t, o.PublicKey.User.ID)
	if c.challenge == "" {
		c.challenge = o.PublicKey.Challenge
	}
	enc, _ := cbor.CoreDetEncOptions().EncMode()
	pub, err := enc.Marshal(map[int]any{1: 2, 3: -7, -1: 1,
		-2: a.key.X.FillBytes(make([]byte, 32)), -3: a.key.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		t.Fatal(err)
	}
	attested := append(make([]byte, 16), byte(len(a.credID)>>8), byte(len(a.credID)))
	attested = append(append(attested, a.credID...), pub...)
	obj, err := enc.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(c.rpID, c.flags|flagAT, attested)})
	if err != nil {
		t.Fatal(err)
	}
	return a.answer(t, map[string]any{"clientDataJSON": b64url(clientData(t, "webauthn.create", c.challenge, c.origin)),
		"attestationObject": b64url(obj), "transports": []string{"internal"}})
}

// assert answers sign-in options with a signed assertion.
func (a *softAuthenticator) assert(t testing.TB, options string, c ceremony) string {
	t.Helper()
	o := parseOptions(t, options)
	if c.challenge == "" {
		c.challenge = o.PublicKey.Challenge
	}
	if c.handle == nil {
		c.handle = a.handle
	}
	a.count++
	data := a.authData(c.rpID, c.flags, nil)
	cd := clientData(t, "webauthn.get", c.challenge, c.origin)
	digest := sha256.Sum256(cd)
	signed := sha256.Sum256(append(append([]byte{}, data...), digest[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, signed[:])
	if err != nil {
		t.Fatal(err)
	}
	if c.badSignature {
		sig[len(sig)-1] ^= 0xff
	}
	return a.answer(t, map[string]any{"clientDataJSON": b64url(cd), "authenticatorData": b64url(data),
		"signature": b64url(sig), "userHandle": b64url(c.handle)})
}

func (a *softAuthenticator) answer(t testing.TB, response map[string]any) string {
	b, err := json.Marshal(map[string]any{"id": b64url(a.credID), "rawId": b64url(a.credID), "type": "public-key",
		"response": response, "clientExtensionResults": map[string]any{}, "authenticatorAttachment": "platform"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
