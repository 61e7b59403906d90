package web

import (
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// Passkeys (contract-signin.md §6). Each ceremony is two requests: the
// script asks for options (POST …/options, answered in JSON, its
// challenge kept in the database), hands them to the browser, and posts
// the browser's answer in the form's hidden field credential, which the
// second request checks and answers with a page. The challenge is taken
// back from the answer's client data and spent there: it is single use
// whichever server of a shared database gets the answer.

// passkeyParams are the algorithms Kith accepts: ES256, which every
// authenticator offers, and RS256, which Windows Hello uses.
var passkeyParams = []protocol.CredentialParameter{
	{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgES256},
	{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgRS256},
}

// passkeyNeedsJS answers a passkey form sent without its ceremony: the
// script did not run, or the browser has no WebAuthn.
const passkeyNeedsJS = "Passkeys need JavaScript and a browser that supports them. Turn JavaScript on, or use another browser."

var errPasskeyOnIP = &input.Error{Status: http.StatusBadRequest,
	Message: "Passkeys need a host name, not an IP address: open Kith at its domain name, or at localhost."}

// passkeyUser is a user as the WebAuthn library sees them: their random
// handle and their credentials.
type passkeyUser struct {
	handle []byte
	name   string
	creds  []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return u.handle }
func (u passkeyUser) WebAuthnName() string                       { return u.name }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.name }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func credentialOf(p store.Passkey) webauthn.Credential {
	c := webauthn.Credential{ID: p.CredentialID, PublicKey: p.PublicKey,
		Flags:         webauthn.CredentialFlagsFromMsgpByte(p.Flags),
		Authenticator: webauthn.Authenticator{AAGUID: p.AAGUID, SignCount: p.SignCount}}
	for _, t := range p.Transports {
		c.Transport = append(c.Transport, protocol.AuthenticatorTransport(t))
	}
	return c
}

// relyingParty is Kith as this request's WebAuthn relying party: its id is
// the host of base_url (else the request's) without the port, its origin
// base_url's scheme, host and port. Browsers refuse an IP address.
func (a *App) relyingParty(c echo.Context) (*webauthn.WebAuthn, error) {
	u, err := url.Parse(a.o.Base(c))
	if err != nil || u.Host == "" {
		return nil, errPasskeyOnIP
	}
	if net.ParseIP(u.Hostname()) != nil {
		return nil, errPasskeyOnIP
	}
	return webauthn.New(&webauthn.Config{RPID: u.Hostname(), RPDisplayName: "Kith",
		RPOrigins: []string{u.Scheme + "://" + u.Host}, AttestationPreference: protocol.PreferNoAttestation})
}

// passkeyOptions answers a ceremony's options as JSON, never cached.
func passkeyOptions(c echo.Context, options any) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.JSON(http.StatusOK, options)
}

// challengeBytes is a challenge as the library words it (base64url) as
// bytes, the store's key; nil for one that is not base64url, which no
// issued challenge matches.
func challengeBytes(challenge string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(challenge)
	if err != nil {
		return nil
	}
	return b
}

// whyRefused is a refused ceremony's reason in a few words for the log:
// the innermost of the library's descriptions, which hold no key or
// signature (an RP id's hash at most).
func whyRefused(err error) string {
	why := "invalid answer"
	for ; err != nil; err = errors.Unwrap(err) {
		pe, ok := err.(*protocol.Error)
		switch {
		case !ok:
		case pe.DevInfo != "" && !strings.Contains(pe.DevInfo, "<nil>"):
			why = pe.DevInfo
		case pe.Details != "":
			why = pe.Details
		}
	}
	if len(why) > 200 {
		why = why[:200]
	}
	return why
}
