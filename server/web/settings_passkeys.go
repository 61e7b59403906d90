package web

import (
	"errors"
	"net/http"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// The Security page's passkeys: the user's, each with a Remove button,
// and the form that adds one. Registration asks for a discoverable
// credential with user verification, and excludes those saved already.

// passkeyRow is a passkey as the Security page lists it.
type passkeyRow struct {
	ID                      int64
	Name, Created, LastUsed string
}

// passkeysView is the Security page's Passkeys section.
type passkeysView struct {
	Passkeys []passkeyRow
	Add      Form
}

func passkeyForm(csrf string) Form {
	return Form{ID: "passkey", Action: "/settings/security/passkeys", Submit: "Add a passkey", CSRF: csrf, Fields: []Field{
		{Name: "name", Label: "Passkey name", Type: "text", Required: true, Auto: "off",
			Hint: "Which device or password manager keeps it: “Laptop”, “Phone”."},
	}}
}

func (a *App) fillPasskeys(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	keys, err := a.store.Passkeys(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	d := a.datesOf(c)
	p := &v.PasskeysPart
	p.Passkeys = make([]passkeyRow, len(keys))
	for i, k := range keys {
		p.Passkeys[i] = passkeyRow{ID: k.ID, Name: k.Name, Created: d.moment(k.CreatedAt)}
		if k.LastUsedAt != nil {
			p.Passkeys[i].LastUsed = d.moment(*k.LastUsedAt)
		}
	}
	p.Add = passkeyForm(csrf(c)).Fill(formOr(st.failed, "passkey", nil))
	return nil
}

// passkeyUserOf is the signed-in user with their handle and passkeys.
func (a *App) passkeyUserOf(c echo.Context) (passkeyUser, error) {
	sess, _ := input.Session(c)
	ctx := c.Request().Context()
	handle, err := a.store.PasskeyHandle(ctx, sess.UserID)
	if err != nil {
		return passkeyUser{}, err
	}
	keys, err := a.store.Passkeys(ctx, sess.UserID)
	if err != nil {
		return passkeyUser{}, err
	}
	u := passkeyUser{handle: handle, name: sess.Email}
	for _, k := range keys {
		u.creds = append(u.creds, credentialOf(k))
	}
	return u, nil
}

// handlePasskeyOptions issues a registration challenge to the user.
func (a *App) handlePasskeyOptions(c echo.Context) error {
	sess, _ := input.Session(c)
	rp, err := a.relyingParty(c)
	if err != nil {
		return err
	}
	u, err := a.passkeyUserOf(c)
	if err != nil {
		return err
	}
	creation, sd, err := rp.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationRequired}),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation),
		webauthn.WithCredentialParameters(passkeyParams),
		webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		return err
	}
	if err := a.store.IssuePasskeyChallenge(c.Request().Context(), store.PasskeyRegister, sess.UserID, challengeBytes(sd.Challenge)); err != nil {
		return err
	}
	return passkeyOptions(c, creation)
}

// handlePasskeyAdd checks the browser's new credential and saves it
// under its name.
func (a *App) handlePasskeyAdd(c echo.Context) error {
	p := input.FormParams(c)
	name := p.RequiredText("name", 255)
	err := p.Err()
	if err == nil && c.Request().PostForm.Get("credential") == "" {
		err = input.Invalid("name", passkeyNeedsJS)
	}
	if err != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, "security", failedForm(c, "passkey", err))
	}
	cred, why, err := a.checkAttestation(c, []byte(c.Request().PostForm.Get("credential")))
	if err != nil {
		return err
	}
	if why != "" {
		a.log.Info().Str("why", why).Str("request_id", a.o.RequestID(c)).Msg("passkey refused")
		return a.seeOther(c, "/settings/security#passkeys", "The passkey was not added: it could not be verified. Try again.")
	}
	sess, _ := input.Session(c)
	pk := store.Passkey{UserID: sess.UserID, CredentialID: cred.ID, PublicKey: cred.PublicKey,
		SignCount: cred.Authenticator.SignCount, Flags: cred.Flags.MsgpByte(), AAGUID: cred.Authenticator.AAGUID, Name: name}
	for _, t := range cred.Transport {
		pk.Transports = append(pk.Transports, string(t))
	}
	_, err = a.store.AddPasskey(c.Request().Context(), pk)
	if errors.Is(err, store.ErrPasskeyTaken) {
		return a.seeOther(c, "/settings/security#passkeys", "That passkey is saved already.")
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/security#passkeys", "Passkey “"+remind.Clip(name, 80)+"” added.")
}

// checkAttestation verifies a new credential against a registration
// challenge of the user's. A refusal is why, in a few words.
func (a *App) checkAttestation(c echo.Context, raw []byte) (*webauthn.Credential, string, error) {
	sess, _ := input.Session(c)
	parsed, err := protocol.ParseCredentialCreationResponseBytes(raw)
	if err != nil {
		return nil, whyRefused(err), nil
	}
	cd := parsed.Response.CollectedClientData
	ok, err := a.store.ConsumePasskeyChallenge(c.Request().Context(), store.PasskeyRegister, sess.UserID, challengeBytes(cd.Challenge))
	if err != nil || !ok {
		return nil, "challenge not issued, used or expired", err
	}
	rp, err := a.relyingParty(c)
	if err != nil {
		return nil, "", err
	}
	u, err := a.passkeyUserOf(c)
	if err != nil {
		return nil, "", err
	}
	sd := webauthn.SessionData{Challenge: cd.Challenge, RelyingPartyID: rp.Config.RPID, UserID: u.handle,
		UserVerification: protocol.VerificationRequired, CredParams: passkeyParams}
	cred, err := rp.CreateCredential(u, sd, parsed)
	if err != nil {
		return nil, whyRefused(err), nil
	}
	return cred, "", nil
}

func (a *App) handlePasskeyDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "passkey", store.ErrPasskeyNotFound)
	if err != nil {
		return err
	}
	if err := a.store.DeletePasskey(c.Request().Context(), sess.UserID, id); err != nil {
		return err
	}
	return a.seeOther(c, "/settings/security#passkeys", "Passkey removed.")
}
