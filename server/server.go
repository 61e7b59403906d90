// Package server is Kith's HTTP API: routes, middleware, parameters, the
// error handler and one file of handlers per resource.
package server

import (
	"context"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"

	"kith/rate"
	"kith/server/input"
	"kith/server/mail"
	"kith/server/remind"
	"kith/server/web"
	"kith/server/web/sso"
	"kith/store"
)

// Options are what the server is built from: plain values, wired in main.
type Options struct {
	Store   *store.Store
	Limiter RequestLimiter // API requests per user or client address
	// PageLimiter counts the web app's pages (and their files) per user or
	// client address, in a budget of their own: a person clicking through
	// pages spends none of their API clients' requests, nor they the
	// pages'. nil does not limit pages.
	PageLimiter RequestLimiter
	Logins      Throttle // failed logins per email and client address
	// Accounts backs off failed logins per email from any address; nil
	// allows 10, then blocks for 1 s doubling up to a minute, and forgets
	// after 15 minutes without a failure.
	Accounts Throttle
	// PasswordChecks is how many logins may compare a password hash at
	// once; 0 is one per CPU. A login waits up to PasswordWait (0: 1 s)
	// for a turn, then gets 429.
	PasswordChecks int
	PasswordWait   time.Duration
	// MaxConns caps open connections (Listener), MaxConnsPerAddr those
	// from one client address; 0 is no cap.
	MaxConns        int
	MaxConnsPerAddr int
	// Resends counts verification emails per user; nil allows 3 in 15
	// minutes.
	Resends Throttle
	// Invitations counts the invitations each user sends; nil allows 10 a
	// day.
	Invitations Throttle
	// Mailer sends verification emails; nil writes the links to the log.
	Mailer mail.Mailer
	// ReminderSendAt is when digests go out, "HH:MM" in each user's zone,
	// for users who have not chosen; empty is 08:00.
	ReminderSendAt string
	// Notify makes the requests to ntfy, Gotify and webhooks; nil is
	// remind.NewClient(RefusePrivateAddresses).
	Notify *http.Client
	// RefusePrivateAddresses keeps channels from reaching loopback,
	// private and link-local addresses: the server's own network.
	RefusePrivateAddresses bool
	// EmailChangeNeedsPassword makes PUT /api/me ask for current_password
	// when it changes the email (api.email_change_needs_password).
	EmailChangeNeedsPassword bool

	Logger zerolog.Logger

	// BaseURL prefixes links in responses; empty takes the request's own.
	BaseURL string
	// TrustedProxies are CIDRs whose X-Forwarded-For and
	// X-Forwarded-Proto are believed.
	TrustedProxies []string
	CORSOrigins    []string

	// SSO is the OpenID provider's client (oidc.*); nil leaves single
	// sign-on off. SSOAutoCreate makes a user for a verified email Kith
	// does not know (oidc.auto_create).
	SSO           *sso.Client
	SSOAutoCreate bool
	// PasswordOff refuses sign-in by password, on the web and at
	// POST /api/login (oidc.allow_password: false).
	PasswordOff bool
	// MailInDomain is the domain of the users' mail-in addresses; empty
	// when mail-in is off (no mail_in.addr).
	MailInDomain string
}

// Server is the HTTP API.
type Server struct {
	echo    *echo.Echo
	store   *store.Store
	limiter RequestLimiter
	pages   RequestLimiter // the pages' limiter: see Options.PageLimiter
	logins  Throttle
	// accounts, checks, checkWait and login: see Options and checkPassword.
	accounts  Throttle
	checks    chan struct{}
	checkWait time.Duration
	login     func(ctx context.Context, email, password string) (store.User, error)
	resends   Throttle
	invites   Throttle
	conns     *connLimiter
	mailer    mail.Mailer
	mail      sync.WaitGroup // emails being sent
	sendAt    string
	// emailNeedsPassword: see Options.EmailChangeNeedsPassword.
	emailNeedsPassword bool
	reminders          *remind.Scheduler
	log                zerolog.Logger
	baseURL            string
	proxies            []*net.IPNet
	metrics            *serverMetrics
	web                *web.App
	// damage is what the last integrity check found (WatchIntegrity).
	damage atomic.Pointer[string]
	// surfaces are the routes' surfaces, by method and path.
	surfaces map[string]surface
	// passwordOff: see Options.PasswordOff.
	passwordOff bool
	// mailInDomain: see Options.MailInDomain.
	mailInDomain string
}

// New builds the server and its routes.
func New(o Options) *Server {
	s := &Server{
		echo:    echo.New(),
		store:   o.Store,
		limiter: o.Limiter,
		pages:   o.PageLimiter,
		logins:  o.Logins,
		resends: o.Resends,
		invites: o.Invitations,

		accounts:  o.Accounts,
		checkWait: o.PasswordWait,
		login:     o.Store.Login,
		mailer:    o.Mailer,
		sendAt:    o.ReminderSendAt,

		emailNeedsPassword: o.EmailChangeNeedsPassword,
		log:                o.Logger,
		baseURL:            o.BaseURL,
		metrics:            newServerMetrics(o.Store),
		surfaces:           make(map[string]surface),
		passwordOff:        o.PasswordOff,
		mailInDomain:       o.MailInDomain,
	}
	if s.pages == nil {
		s.pages = rate.New(0)
	}
	if s.accounts == nil {
		s.accounts = rate.NewBackoff(accountFree, accountBase, accountCeiling, accountForget)
	}
	checks := o.PasswordChecks
	if checks <= 0 {
		checks = runtime.NumCPU()
	}
	s.checks = make(chan struct{}, checks)
	if s.checkWait <= 0 {
		s.checkWait = time.Second
	}
	if s.sendAt == "" {
		s.sendAt = "08:00"
	}
	notify := o.Notify
	if notify == nil {
		notify = remind.NewClient(o.RefusePrivateAddresses)
	}
	s.reminders = &remind.Scheduler{Store: o.Store, Mailer: o.Mailer, Sender: remind.Sender{Client: notify}, BaseURL: strings.TrimSuffix(o.BaseURL, "/"),
		SendAt: s.sendAt, Log: o.Logger, Count: s.metrics.reminder}
	if s.resends == nil {
		s.resends = rate.NewAttempts(resendMax, resendWindow)
	}
	if s.invites == nil {
		s.invites = rate.NewAttempts(inviteMax, inviteWindow)
	}
	trust := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, cidr := range o.TrustedProxies {
		if _, n, err := net.ParseCIDR(cidr); err == nil {
			s.proxies = append(s.proxies, n)
			trust = append(trust, echo.TrustIPRange(n))
		}
	}
	// echo's default believes any client's X-Forwarded-For; with nothing
	// trusted this is the TCP peer, so nobody picks their own rate bucket.
	s.conns = newConnLimiter(o.MaxConns, o.MaxConnsPerAddr, s.proxies)
	s.echo.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.JSONSerializer = jsonSerializer{}
	s.web = web.New(web.Options{
		Store: o.Store, Log: o.Logger, BaseURL: o.BaseURL, Base: s.base, OverHTTPS: s.overHTTPS, RequestID: requestID,
		Login: s.webLogin, SecondFactor: s.webSecondFactor, SignedIn: s.signedIn, SignInRefused: s.signInRefused,
		SetUpTwoFactor: s.setUpTwoFactor, ConfirmTwoFactor: s.confirmTwoFactor,
		DisableTwoFactor: func(c echo.Context, email string, userID int64, password, code string) error {
			return s.disableTwoFactor(c, email, userID, password, code, viaWeb)
		},
		ChangePassword: s.changePassword,
		ResendWait:     s.resendWait, SendVerification: s.sendVerification, UpdateProfile: s.updateProfile,
		TestChannel: s.testChannel, SendAt: s.sendAt,
		Invite: s.invite, Reinvite: s.reinvite, AcceptInvitation: s.acceptInvitation,
		Upcoming: func(ctx context.Context, acct, user int64, today time.Time, days int, loc *time.Location) (remind.Source, error) {
			return remind.ReadSource(ctx, s.store, acct, user, today, days, loc)
		},
		Export: s.handleExport, VCardExport: s.handleVCardExport, Photo: s.handlePhotoShow,
		SSO: o.SSO, SSOAutoCreate: s.ssoAutoCreate(o.SSOAutoCreate), PasswordOff: o.PasswordOff,
		MailInDomain: o.MailInDomain,
	})
	s.routes(o.CORSOrigins)
	for _, r := range s.echo.Routes() {
		s.metrics.knowRoutes(r.Path)
	}
	return s
}

// ServeHTTP makes the server an http.Handler, for tests and for HTTPServer.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	withTLSState(r)
	s.echo.ServeHTTP(w, r)
}

// Reminders is the scheduler of the daily digests, which serve runs
// beside the server until it shuts down.
func (s *Server) Reminders() *remind.Scheduler { return s.reminders }

// Routes lists the registered routes.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }

// HTTPServer wraps the API in an http.Server with timeouts: without them
// (echo.New sets none) a client that sends slowly holds a connection for
// ever. An idle keep-alive connection is closed after 30 s: each costs a
// file descriptor and some 30 KB, and a client that comes back later
// opens a new one in a round trip.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(s.log.With().Str("component", "http").Logger(), "", 0),
		ConnState:         s.conns.connState,

		// OPTIONS * reaches the API (204 with its headers), not net/http's bare 200.
		DisableGeneralOptionsHandler: true,
	}
}

// base is the scheme and host that links start with.
func (s *Server) base(c echo.Context) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	r := c.Request()
	if s.overHTTPS(r) {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// overHTTPS reports whether the client reached us over HTTPS: ours, or a
// trusted proxy's, which says so in X-Forwarded-Proto. Links, cookies and
// Strict-Transport-Security all ask this one question.
func (s *Server) overHTTPS(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get(echo.HeaderXForwardedProto) == "https" && s.fromProxy(r)
}

// fromProxy reports whether the TCP peer is a trusted proxy.
func (s *Server) fromProxy(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	ip := net.ParseIP(host)
	if err != nil || ip == nil {
		return false
	}
	for _, n := range s.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// The caller's calendar: ages and "today" are counted in the user's own
// time zone, by persons, ages and the profile alike.

// userDay returns the requesting user's time zone and today's date in it.
func (s *Server) userDay(c echo.Context) (time.Time, *time.Location) {
	return input.Today(c, s.store.Now())
}

// today is the caller's date, without its zone.
func (s *Server) today(c echo.Context) time.Time {
	t, _ := s.userDay(c)
	return t
}
