package web

import (
	"errors"
	"net/http"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// Signing in with a passkey: a discoverable request, so no email is asked.
// Both requests carry the sign-in form's CSRF value, checked against its
// cookie as the password form's is.

// checkLoginCSRF refuses a post without the sign-in cookie's value.
func checkLoginCSRF(c echo.Context) error {
	if err := input.ParseForm(c); err != nil {
		return err
	}
	ck, err := c.Cookie(LoginCookie)
	if err != nil || !sameToken(c.Request().PostForm.Get("csrf"), ck.Value) {
		return errCSRF
	}
	return nil
}

// handlePasskeyLoginOptions issues a sign-in challenge.
func (a *App) handlePasskeyLoginOptions(c echo.Context) error {
	if err := checkLoginCSRF(c); err != nil {
		return err
	}
	rp, err := a.relyingParty(c)
	if err != nil {
		return err
	}
	assertion, sd, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return err
	}
	if err := a.store.IssuePasskeyChallenge(c.Request().Context(), store.PasskeyLogin, 0, challengeBytes(sd.Challenge)); err != nil {
		return err
	}
	return passkeyOptions(c, assertion)
}

// handlePasskeyLogin checks the browser's assertion and signs its user in,
// with no Code step: a passkey with user verification is two factors.
func (a *App) handlePasskeyLogin(c echo.Context) error {
	if err := checkLoginCSRF(c); err != nil {
		return err
	}
	raw := c.Request().PostForm.Get("credential")
	if raw == "" {
		return a.loginPage(c, http.StatusBadRequest, "", nil, passkeyNeedsJS)
	}
	u, why, err := a.checkAssertion(c, []byte(raw))
	if err != nil {
		return err
	}
	if why != "" {
		a.o.SignInRefused(c, ViaPasskey, why)
		return a.loginPage(c, http.StatusUnauthorized, "", nil, "That passkey did not sign you in. Try again, or use your password.")
	}
	if err := a.startSession(c, u, ViaPasskey); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: LoginCookie, Path: "/login", MaxAge: -1})
	return c.Redirect(http.StatusSeeOther, "/")
}

// checkAssertion verifies an assertion and records the passkey's use. A
// refusal is why, in a few words; err is Kith's own failure.
func (a *App) checkAssertion(c echo.Context, raw []byte) (store.User, string, error) {
	ctx := c.Request().Context()
	parsed, err := protocol.ParseCredentialRequestResponseBytes(raw)
	if err != nil {
		return store.User{}, whyRefused(err), nil
	}
	ok, err := a.store.ConsumePasskeyChallenge(ctx, store.PasskeyLogin, 0, challengeBytes(parsed.Response.CollectedClientData.Challenge))
	if err != nil || !ok {
		return store.User{}, "challenge not issued, used or expired", err
	}
	pk, handle, err := a.store.PasskeyByCredential(ctx, parsed.RawID)
	if errors.Is(err, store.ErrPasskeyNotFound) {
		return store.User{}, "unknown credential", nil
	}
	if err != nil {
		return store.User{}, "", err
	}
	rp, err := a.relyingParty(c)
	if err != nil {
		return store.User{}, "", err
	}
	sd := webauthn.SessionData{Challenge: parsed.Response.CollectedClientData.Challenge,
		RelyingPartyID: rp.Config.RPID, UserVerification: protocol.VerificationRequired}
	// The credential's owner, found above; the library then refuses a user
	// handle that is not theirs.
	owner := func(rawID, userHandle []byte) (webauthn.User, error) {
		return passkeyUser{handle: handle, creds: []webauthn.Credential{credentialOf(pk)}}, nil
	}
	_, cred, err := rp.ValidatePasskeyLogin(owner, sd, parsed)
	if err != nil {
		return store.User{}, whyRefused(err), nil
	}
	// A counter that went back is a cloned authenticator's (synced
	// passkeys keep theirs at 0, which never warns).
	if cred.Authenticator.CloneWarning {
		return store.User{}, "signature counter went back", nil
	}
	if err := a.store.UsePasskey(ctx, pk.ID, cred.Authenticator.SignCount, cred.Flags.MsgpByte()); err != nil {
		return store.User{}, "", err
	}
	u, err := a.store.User(ctx, pk.UserID)
	return u, "", err
}
