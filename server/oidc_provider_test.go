package server

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"kith/server/web/sso"
)

// idp is a fake OpenID provider on 127.0.0.1: discovery, JWKS, an
// authorization endpoint that checks what Kith asks and sends the browser
// straight back with a code, and a token endpoint that checks the client,
// the redirect and the PKCE verifier, then signs an ID token with its RSA
// key. Its knobs make it misbehave one way at a time.
type idp struct {
	t        testing.TB
	srv      *httptest.Server
	key      *rsa.PrivateKey
	now      func() time.Time
	clientID string
	secret   string
	redirect string

	mu sync.Mutex
	// codes are the codes given out and not yet exchanged.
	codes map[string]grant
	// down makes discovery answer 503; authMethods is discovery's
	// token_endpoint_auth_methods_supported.
	down        bool
	authMethods []string
	// refuse makes the token endpoint refuse every code.
	refuse bool
	// claims are the ID token's claims beyond iss, aud, sub, exp, iat and
	// nonce, which edit may change last; sign, when set, signs instead of
	// the provider's key.
	claims map[string]any
	edit   func(claims map[string]any)
	sign   func(payload []byte) string
	// issued is every ID token given out, to look for in pages and logs.
	issued []string
}

type grant struct{ challenge, nonce, redirect string }

const idpKeyID = "key-1"

// newIdP starts a provider whose client is Kith's at redirect, with the
// clock now.
func newIdP(t testing.TB, now func() time.Time) *idp {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &idp{t: t, key: key, now: now, clientID: "kith-client", secret: "s3cret:with&odd chars+and/enough=bytes for HS256",
		redirect: "http://example.com/auth/oidc/callback", codes: map[string]grant{},
		claims: map[string]any{"email": "Ada@Example.com", "email_verified": true, "given_name": "Ada", "family_name": "Lovelace"}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// client is Kith's client of the provider, on the test's clock.
func (p *idp) client() *sso.Client {
	return sso.New(sso.Config{Issuer: p.srv.URL, ClientID: p.clientID, ClientSecret: p.secret, Name: "Home SSO", Now: p.now})
}

// set changes the provider under its lock.
func (p *idp) set(f func(p *idp)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p)
}

func (p *idp) discovery(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	down, methods := p.down, p.authMethods
	p.mu.Unlock()
	if down {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	doc := map[string]any{"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/authorize",
		"token_endpoint": p.srv.URL + "/token", "jwks_uri": p.srv.URL + "/jwks",
		"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"}}
	if methods != nil {
		doc["token_endpoint_auth_methods_supported"] = methods
	}
	json.NewEncoder(w).Encode(doc)
}

func (p *idp) jwks(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &p.key.PublicKey, KeyID: idpKeyID, Algorithm: "RS256", Use: "sig"}}})
}

// authorize checks the request of §7.2 and sends the browser back.
func (p *idp) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	scopes := strings.Fields(q.Get("scope"))
	p.mu.Lock()
	redirect := p.redirect
	p.mu.Unlock()
	switch {
	case q.Get("response_type") != "code", q.Get("client_id") != p.clientID, q.Get("redirect_uri") != redirect,
		!slices.Contains(scopes, "openid"), !slices.Contains(scopes, "email"),
		len(q.Get("state")) < 22, len(q.Get("nonce")) < 22, q.Get("state") == q.Get("nonce"),
		q.Get("code_challenge_method") != "S256", len(q.Get("code_challenge")) != 43:
		p.t.Errorf("authorization request %s", r.URL.RawQuery)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	code := rand.Text()
	p.set(func(p *idp) { p.codes[code] = grant{q.Get("code_challenge"), q.Get("nonce"), q.Get("redirect_uri")} })
	back := url.Values{"code": {code}, "state": {q.Get("state")}}
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
}

// token checks the exchange: the grant, the code (once), the redirect,
// the client's secret (Basic, or in the form when discovery says only
// that) and the PKCE verifier against the challenge.
func (p *idp) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	p.mu.Lock()
	defer p.mu.Unlock()
	g, known := p.codes[r.PostForm.Get("code")]
	delete(p.codes, r.PostForm.Get("code"))
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	}
	if slices.Equal(p.authMethods, []string{"client_secret_post"}) {
		basic = false
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case p.refuse:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":"invalid_grant","error_description":"the code is no good"}`))
		return
	case r.PostForm.Get("grant_type") != "authorization_code", !known, r.PostForm.Get("redirect_uri") != g.redirect,
		id != p.clientID, secret != p.secret, base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		p.t.Errorf("token request %v, basic %v", r.PostForm, basic)
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	now := p.now()
	claims := map[string]any{"iss": p.srv.URL, "aud": p.clientID, "sub": "user-1", "iat": now.Unix(),
		"exp": now.Add(5 * time.Minute).Unix(), "nonce": g.nonce}
	maps.Copy(claims, p.claims)
	if p.edit != nil {
		p.edit(claims)
	}
	payload, _ := json.Marshal(claims)
	raw := p.signed(payload)
	p.issued = append(p.issued, raw)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": "at-" + rand.Text(), "token_type": "Bearer",
		"expires_in": 300, "id_token": raw})
}

// signed is payload as a JWS: by the provider's key unless sign says otherwise.
func (p *idp) signed(payload []byte) string {
	if p.sign != nil {
		return p.sign(payload)
	}
	return signJWT(p.t, jose.RS256, p.key, payload)
}

// signJWT signs payload with key in alg, naming the provider's key id.
func signJWT(t testing.TB, alg jose.SignatureAlgorithm, key any, payload []byte) string {
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", idpKeyID))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// unsignedJWT is payload with alg none.
func unsignedJWT(payload []byte) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT","kid":"`+idpKeyID+`"}`)) + "." + enc(payload) + "."
}

// ssoTo follows Kith's redirect to the provider, as a browser would, and
// returns the provider's redirect back: the callback's path and query.
func (p *idp) ssoTo(t testing.TB, pg page) string {
	t.Helper()
	if pg.code != http.StatusFound && pg.code != http.StatusSeeOther {
		t.Fatalf("login: %d, want a redirect to the provider:\n%.2000s", pg.code, pg.body)
	}
	to := pg.header.Get("Location")
	if !strings.HasPrefix(to, p.srv.URL+"/authorize?") {
		t.Fatalf("login redirects to %q", to)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(to)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	p.mu.Lock()
	redirect := p.redirect
	p.mu.Unlock()
	if res.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(back.String(), redirect+"?") {
		t.Fatalf("provider: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	return back.RequestURI()
}
