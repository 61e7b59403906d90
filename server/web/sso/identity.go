package sso

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
)

// Identity is who the provider vouches for: a verified email, and the
// names it gave, which a new user takes.
type Identity struct {
	Email                       string
	GivenName, FamilyName, Name string
}

// unreachableKey marks a verification whose keys could not be fetched.
type unreachableKey struct{}

// watchedKeys is go-oidc's key set, telling a provider whose keys cannot
// be fetched (a 502) from a token that does not verify (a 403): go-oidc
// words both as one error.
type watchedKeys struct{ keys oidc.KeySet }

func (w watchedKeys) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := w.keys.VerifySignature(ctx, jwt)
	if err != nil && strings.HasPrefix(err.Error(), "fetching keys") {
		if down, ok := ctx.Value(unreachableKey{}).(*bool); ok {
			*down = true
		}
	}
	return payload, err
}

// verify checks the ID token raw and reads its identity.
func (c *Client) verify(ctx context.Context, p *provider, raw, nonce string) (Identity, error) {
	down := false
	tok, err := p.verifier.Verify(context.WithValue(ctx, unreachableKey{}, &down), raw)
	if down {
		return Identity{}, fmt.Errorf("%w: jwks_uri: %v", ErrUnreachable, err)
	}
	var expired *oidc.TokenExpiredError
	switch {
	case errors.As(err, &expired):
		return Identity{}, fmt.Errorf("%w: expired at %s", ErrToken, expired.Expiry.UTC().Format("15:04:05"))
	case err != nil:
		return Identity{}, fmt.Errorf("%w: %.200v", ErrToken, err)
	case subtle.ConstantTimeCompare([]byte(tok.Nonce), []byte(nonce)) != 1:
		return Identity{}, fmt.Errorf("%w: the nonce is not this sign-in's", ErrToken)
	}
	var claims struct {
		Email         *string         `json:"email"`
		EmailVerified json.RawMessage `json:"email_verified"`
		GivenName     any             `json:"given_name"`
		FamilyName    any             `json:"family_name"`
		Name          any             `json:"name"`
	}
	if err := tok.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: claims: %v", ErrToken, err)
	}
	switch {
	case claims.Email == nil || strings.TrimSpace(*claims.Email) == "":
		return Identity{}, fmt.Errorf("%w: the ID token has no email", ErrUnverified)
	case !bytes.Equal(claims.EmailVerified, []byte("true")):
		// Only JSON true: a provider whose email_verified is missing,
		// false or the string "true" has not said plainly that it checked.
		return Identity{}, fmt.Errorf("%w: email_verified is %.20q, not true", ErrUnverified, claims.EmailVerified)
	}
	return Identity{Email: strings.ToLower(strings.TrimSpace(*claims.Email)), GivenName: text(claims.GivenName),
		FamilyName: text(claims.FamilyName), Name: text(claims.Name)}, nil
}

// text is a claim that should be a string, trimmed; anything else is none.
func text(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}
