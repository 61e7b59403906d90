package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/rate"
	"kith/store"
	"kith/store/storetest"
)

// clock is a fixed clock that tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is one server over one fresh database file.
type env struct {
	t     testing.TB
	srv   *Server
	st    *store.Store
	clock *clock
	logs  *lockedLog
	where string // the database's db value: a file, or a PostgreSQL URL
}

// newEnv starts a server with rate limiting off unless opts turn it on.
func newEnv(t testing.TB, opts ...func(*Options)) *env {
	t.Helper()
	db := storetest.Open(t)
	st := db.Store
	clk := &clock{t: time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)}
	st.Now = clk.Now
	st.PasswordCost = 4 // bcrypt's minimum: the tests test logic, not bcrypt
	logs := &lockedLog{}
	o := Options{
		Store:       st,
		Limiter:     rate.New(0),
		Logins:      rate.NewAttempts(5, time.Minute),
		Logger:      zerolog.New(logs),
		CORSOrigins: []string{"*"},
	}
	for _, f := range opts {
		f(&o)
	}
	srv := New(o)
	// The in-memory limits read the test's clock; the shared ones read the
	// store's, which is the same.
	for _, l := range []any{srv.limiter, srv.pages, srv.logins, srv.accounts, srv.resends} {
		switch l := l.(type) {
		case *rate.Limiter:
			l.Now = clk.Now
		case *rate.Attempts:
			l.Now = clk.Now
		case *rate.Backoff:
			l.Now = clk.Now
		}
	}
	return &env{t: t, srv: srv, st: st, clock: clk, logs: logs, where: db.Where}
}

// lockedLog is a server's log that a test reads while the server may
// still write to it (a browser's requests go on in the background): both
// under one lock.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// user creates a user in a new account and returns it with a key.
func (e *env) user(email string) (store.User, string) {
	e.t.Helper()
	return e.userIn(0, email)
}

// userIn creates a user in the account (0: a new one) and returns it with
// a key.
func (e *env) userIn(accountID int64, email string) (store.User, string) {
	e.t.Helper()
	ctx := context.Background()
	u, err := e.st.CreateUser(ctx, store.NewUser{FirstName: "Ada", LastName: "Lovelace", Email: email, Password: "correct horse", AccountID: accountID})
	if err != nil {
		e.t.Fatal(err)
	}
	_, token, err := e.st.CreateAPIKey(ctx, u.ID, "test key")
	if err != nil {
		e.t.Fatal(err)
	}
	return u, token
}

// req is one request; a body that starts with { or [ is sent as JSON
// unless ctype says otherwise.
type req struct {
	method, path, key, body, ctype string
	header                         map[string]string
	remote                         string
}

type resp struct {
	code   int
	header http.Header
	body   string
}

// json decodes the body into a generic value.
func (r resp) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %q", err, r.body)
	}
	return m
}

// do sends r through the real router. A 5xx fails the test unless the
// test asked for one with allow5xx: no client mistake may cause one. Every
// exchange is also checked against the OpenAPI document (checkOpenAPI).
func (e *env) do(r req) resp {
	e.t.Helper()
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, r.httpRequest())
	out := resp{code: rec.Code, header: rec.Result().Header, body: rec.Body.String()}
	if out.code >= 500 && !allow5xx[e.t.Name()] {
		e.t.Errorf("%s %s: unexpected %d: %s", r.method, r.path, out.code, out.body)
	}
	ct := out.header.Get("Content-Type")
	calendar := strings.HasPrefix(ct, "text/calendar") || strings.HasPrefix(ct, "text/vcard") || // checked by their tests
		ct == "image/jpeg" // a photo
	redirect := out.code >= 300 && out.code < 400 && out.header.Get("Location") != ""
	if out.code != http.StatusNoContent && out.code != http.StatusNotModified && r.method != http.MethodHead && !calendar && !redirect &&
		!json.Valid([]byte(out.body)) {
		e.t.Errorf("%s %s: %d body is not JSON: %q", r.method, r.path, out.code, out.body)
	}
	checkOpenAPI(e.t, r, out)
	return out
}

// httpRequest builds the request r describes; a body that starts with {
// or [ is JSON unless r.ctype says otherwise.
func (r req) httpRequest() *http.Request {
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	if r.remote != "" {
		hr.RemoteAddr = r.remote
	}
	ctype := r.ctype
	if ctype == "" && (strings.HasPrefix(r.body, "{") || strings.HasPrefix(r.body, "[")) {
		ctype = "application/json"
	}
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	hr.Header.Set("Accept", "application/json")
	if r.key != "" {
		hr.Header.Set("Authorization", "Bearer "+r.key)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	if h, ok := r.header["Host"]; ok {
		hr.Host = h // net/http reads the Host header into Request.Host
	}
	return hr
}

// allow5xx names the tests that provoke a 5xx on purpose.
var allow5xx = map[string]bool{}

// scenario is one row of an HTTP test table.
type scenario struct {
	name       string
	req        req
	wantStatus int
	wantBody   []string // fragments the body must contain
}

func (e *env) run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			old := e.t
			e.t = t
			defer func() { e.t = old }()
			got := e.do(sc.req)
			if got.code != sc.wantStatus {
				t.Fatalf("%s %s: status %d, want %d: %s", sc.req.method, sc.req.path, got.code, sc.wantStatus, got.body)
			}
			for _, frag := range sc.wantBody {
				if !strings.Contains(got.body, frag) {
					t.Errorf("body %s\n lacks %s", got.body, frag)
				}
			}
		})
	}
}

// keysOf fails unless obj has exactly the keys want: a leaked or missing
// field fails the shape.
func keysOf(t *testing.T, obj any, want ...string) map[string]any {
	t.Helper()
	m, ok := obj.(map[string]any)
	if !ok {
		t.Fatalf("want an object, got %T %v", obj, obj)
	}
	if len(m) != len(want) {
		t.Errorf("object has keys %v, want exactly %v", mapKeys(m), want)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("object %v lacks %q", m, k)
		}
	}
	return m
}

func mapKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// errBody is the fragments of an error body with this status and message.
func errBody(status int, message string) []string {
	b, _ := json.Marshal(map[string]any{"message": message})
	return []string{strings.TrimSuffix(string(b), "}"), `"status":` + strconv.Itoa(status)}
}

// count runs a count query on the database itself, beside the store.
func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	return storetest.Count(e.t, e.where, query, args...)
}

// TestMain runs the HTTP tests on SQLite and, with KITH_TEST_POSTGRES_URL
// set, again on PostgreSQL: bad input must get the same answers on both.
func TestMain(m *testing.M) { storetest.Main(m) }
