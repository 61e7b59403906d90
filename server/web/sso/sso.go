// Package sso is Kith's client of an OpenID provider (single sign-on):
// the authorization code flow with PKCE, state and nonce, over go-oidc and
// x/oauth2. It knows neither echo nor the store: the web app keeps the
// cookie, spends the state and finds the user.
package sso

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Leeway is how far past its exp an ID token is still taken: the clocks
// of Kith and the provider may differ by that much.
const Leeway = 2 * time.Minute

// Config is what the client is made of.
type Config struct {
	Issuer, ClientID, ClientSecret string
	// Name is shown on the sign-in page's link.
	Name string
	// HTTP talks to the provider; nil is a client that waits 10 s at most.
	HTTP *http.Client
	// Now is the clock tokens are checked with; nil is time.Now.
	Now func() time.Time
}

// The ways a sign-in fails, each wrapped with what went wrong (never a
// token): the web app answers 502, 400 or 403 by them.
var (
	ErrUnreachable = errors.New("sso: the provider cannot be reached")
	ErrRefused     = errors.New("sso: the provider refused the code")
	ErrToken       = errors.New("sso: the ID token is not valid")
	ErrUnverified  = errors.New("sso: no verified email")
)

// algorithms are the ID token signatures Kith takes: the asymmetric ones
// whose key the provider publishes. none and HMAC (keyed with the client
// secret, which Kith holds too) are refused.
var algorithms = []string{oidc.RS256, oidc.RS384, oidc.RS512, oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.ES256, oidc.ES384, oidc.ES512, oidc.EdDSA}

// Client is the provider's client. Its discovery happens on first need
// and is kept once it worked; the keys are go-oidc's, fetched and cached
// by key id.
type Client struct {
	cfg  Config
	seal sealer

	mu sync.Mutex
	p  *provider // nil until discovery works
}

// provider is what discovery found.
type provider struct {
	endpoint oauth2.Endpoint
	verifier *oidc.IDTokenVerifier
}

// New makes the client of cfg; it does not contact the provider.
func New(cfg Config) *Client {
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Client{cfg: cfg, seal: newSealer(cfg.ClientSecret)}
}

// Name is shown on the sign-in link: "Sign in with <Name>".
func (c *Client) Name() string { return c.cfg.Name }

// discover fetches the discovery document, once it works: a provider that
// was down at the first sign-in is asked again at the next.
func (c *Client) discover(ctx context.Context) (*provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != nil {
		return c.p, nil
	}
	ctx = oidc.ClientContext(ctx, c.cfg.HTTP)
	p, err := oidc.NewProvider(ctx, c.cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("%w: discovery: %v", ErrUnreachable, err)
	}
	var doc struct {
		JWKS        string   `json:"jwks_uri"`
		AuthMethods []string `json:"token_endpoint_auth_methods_supported"`
	}
	if err := p.Claims(&doc); err != nil || doc.JWKS == "" {
		return nil, fmt.Errorf("%w: discovery: no jwks_uri", ErrUnreachable)
	}
	endpoint := p.Endpoint()
	endpoint.AuthStyle = oauth2.AuthStyleInHeader
	if len(doc.AuthMethods) > 0 && !slices.Contains(doc.AuthMethods, "client_secret_basic") &&
		slices.Contains(doc.AuthMethods, "client_secret_post") {
		endpoint.AuthStyle = oauth2.AuthStyleInParams
	}
	keys := watchedKeys{oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), c.cfg.HTTP), doc.JWKS)}
	c.p = &provider{endpoint: endpoint, verifier: oidc.NewVerifier(c.cfg.Issuer, keys, &oidc.Config{
		ClientID:             c.cfg.ClientID,
		SupportedSigningAlgs: algorithms,
		// go-oidc takes no token past its exp: a clock Leeway behind
		// takes those that expired less than Leeway ago.
		Now: func() time.Time { return c.cfg.Now().Add(-Leeway) },
	})}
	return c.p, nil
}

// oauth is the code flow's configuration for redirectURI.
func (c *Client) oauth(p *provider, redirectURI string) *oauth2.Config {
	return &oauth2.Config{ClientID: c.cfg.ClientID, ClientSecret: c.cfg.ClientSecret, Endpoint: p.endpoint,
		RedirectURL: redirectURI, Scopes: []string{oidc.ScopeOpenID, "email", "profile"}}
}

// Start begins a sign-in: the provider's authorization URL, and the
// cookie that binds its state, nonce and PKCE verifier to this browser
// until life has passed.
func (c *Client) Start(ctx context.Context, redirectURI string, life time.Duration) (authURL, cookie string, err error) {
	p, err := c.discover(ctx)
	if err != nil {
		return "", "", err
	}
	pd := Pending{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(),
		Expires: c.cfg.Now().Add(life).Unix()}
	authURL = c.oauth(p, redirectURI).AuthCodeURL(pd.State, oidc.Nonce(pd.Nonce), oauth2.S256ChallengeOption(pd.Verifier))
	return authURL, c.seal.seal(pd), nil
}

// Open reads a cookie Start made; false for one that is not Kith's, was
// altered, or has expired.
func (c *Client) Open(cookie string) (Pending, bool) {
	pd, ok := c.seal.open(cookie)
	if !ok || c.cfg.Now().Unix() >= pd.Expires {
		return Pending{}, false
	}
	return pd, true
}

// Finish exchanges the code for tokens at the provider and checks the ID
// token against the sign-in pd began: signature, issuer, audience, expiry,
// nonce, then a verified email.
func (c *Client) Finish(ctx context.Context, pd Pending, code, redirectURI string) (Identity, error) {
	p, err := c.discover(ctx)
	if err != nil {
		return Identity{}, err
	}
	tok, err := c.oauth(p, redirectURI).Exchange(context.WithValue(ctx, oauth2.HTTPClient, c.cfg.HTTP), code,
		oauth2.VerifierOption(pd.Verifier))
	var ue *url.Error
	switch {
	case errors.As(err, &ue):
		return Identity{}, fmt.Errorf("%w: token endpoint: %v", ErrUnreachable, ue.Err)
	case err != nil:
		return Identity{}, fmt.Errorf("%w: %v", ErrRefused, exchangeWhy(err))
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, fmt.Errorf("%w: the token response has no id_token", ErrToken)
	}
	return c.verify(ctx, p, raw, pd.Nonce)
}

// exchangeWhy is a refused exchange in a few words: the provider's error
// code, never its whole answer.
func exchangeWhy(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			return fmt.Sprintf("token endpoint answered %d %.64s", re.Response.StatusCode, re.ErrorCode)
		}
		return fmt.Sprintf("token endpoint answered %d", re.Response.StatusCode)
	}
	return "token endpoint's answer unreadable"
}
