package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"

	"kith/server/input"
	"kith/server/remind"
	"kith/server/web/sso"
	"kith/store"
)

// Options are what the pages need from the rest of Kith: the store,
// and what the server does alike for every surface (signing in under its
// throttles, mailing a link, testing a channel), as functions, so that the
// pages never import the server.
type Options struct {
	Store *store.Store
	Log   zerolog.Logger
	// BaseURL is the configured address links start with, if any: a
	// https:// one makes every cookie Secure.
	BaseURL string
	// Base is the scheme and host links start with, for this request.
	Base func(c echo.Context) string
	// OverHTTPS reports whether the client reached the server over HTTPS,
	// its own or a trusted proxy's.
	OverHTTPS func(r *http.Request) bool
	// RequestID is the request's id, for log lines.
	RequestID func(c echo.Context) string
	// Login checks an email and password as the API's login does, under
	// the same throttles; a refusal is an *input.Error (401 or 429).
	// With two-factor on, a right password is ErrCodeNeeded, with the
	// user: the Code step comes next, and the throttles are not cleared.
	Login func(c echo.Context, email, password string) (store.User, error)
	// SecondFactor checks the Code step's code (a TOTP code or a recovery
	// code) for the user under the login throttles, counting a wrong one
	// as a failed login; a refusal is an *input.Error (401 or 429).
	SecondFactor func(c echo.Context, userID int64, code string) (store.User, error)
	// SignedIn counts and logs a web sign-in by its way in: ViaPassword,
	// ViaInvitation, and the others the server's metrics name.
	SignedIn func(c echo.Context, userID int64, via string)
	// SignInRefused counts and logs a refused sign-in by its way in, with
	// why in a few words that hold no secret.
	SignInRefused func(c echo.Context, via, why string)
	// SetUpTwoFactor makes the user a new pending secret; false while
	// two-factor is on.
	SetUpTwoFactor func(ctx context.Context, userID int64) (string, bool, error)
	// ConfirmTwoFactor turns two-factor on with a code of the pending
	// secret, signs out the user's web sessions but keep, and returns the
	// recovery codes.
	ConfirmTwoFactor func(ctx context.Context, userID int64, code string, keep int64) ([]string, error)
	// DisableTwoFactor turns two-factor off behind the password and a
	// code, as DELETE /api/me/two-factor does.
	DisableTwoFactor func(c echo.Context, email string, userID int64, password, code string) error
	// ChangePassword gives the user a new password and signs out their
	// other web sessions (keep stays), hashing it in one of the server's
	// password slots; every slot busy is a validation error on
	// current_password.
	ChangePassword func(ctx context.Context, userID int64, password string, keep int64) error
	// ResendWait is how long the user must wait for another verification
	// email, and whether they must: the budget SendVerification spends.
	ResendWait func(userID int64) (time.Duration, bool)
	// SendVerification mails a new link for secret to the user.
	SendVerification func(c echo.Context, u store.User, secret string)
	// UpdateProfile changes the caller's name and email as PUT /api/me
	// does, mailing a link when the email changed.
	UpdateProfile func(c echo.Context, p *input.Params) (store.User, error)
	// TestChannel sends a sample digest through ch.
	TestChannel func(c echo.Context, ch store.Channel) error
	// Upcoming reads what the account's reminders need for days from
	// today, and the user's snoozes.
	Upcoming func(ctx context.Context, acct, user int64, today time.Time, days int, loc *time.Location) (remind.Source, error)
	// SendAt is when digests go out for a user who has not chosen.
	SendAt string
	// Export and VCardExport answer the settings page's downloads, as
	// GET /api/export and GET /api/export/vcard do.
	Export, VCardExport echo.HandlerFunc
	// Invite sends inviterID's invitation to in, as POST
	// /api/administration/users does, under the same budget: a taken email
	// is a validation error on email, a spent budget input.ErrTooManyAttempts.
	Invite func(c echo.Context, inviterID int64, in store.Invitee) (store.User, error)
	// Reinvite sends the signed-in user's account's user id a new
	// invitation, as PUT /api/administration/users/{user}/invite does,
	// under the same budgets: another account's user is
	// store.ErrUserNotFound, a refusal an *input.Error (409, 429).
	Reinvite func(c echo.Context, id int64) (store.User, error)
	// AcceptInvitation spends an invitation link's token, giving its user
	// password, as POST /api/invitations/accept does: a link that no longer
	// works is an *input.Error (403), every password slot busy
	// input.ErrTooManyAttempts.
	AcceptInvitation func(c echo.Context, token, password string) (store.User, error)
	// Photo answers a person's photo to the pages that show it, as
	// GET /api/persons/{person}/photo does: the session's account's
	// person only, with its ETag, and a 304 to a browser that has it.
	Photo echo.HandlerFunc
	// SSO is the OpenID provider's client; nil when single sign-on is off.
	SSO *sso.Client
	// SSOAutoCreate makes a user in a new account for a verified email
	// Kith does not know (oidc.auto_create); nil refuses such an email.
	SSOAutoCreate func(ctx context.Context, nu store.NewUser) (store.User, error)
	// PasswordOff refuses every sign-in by password
	// (oidc.allow_password: false).
	PasswordOff bool
	// MailInDomain is the domain of the users' mail-in addresses, shown
	// on the Data page; empty when mail-in is off.
	MailInDomain string
}

// App is the web app: the pages' handlers, their routes and their
// middleware.
type App struct {
	o     Options
	store *store.Store
	log   zerolog.Logger
	// spool keeps the files of people imports between their check and
	// their import.
	spool *spool
}

// New makes the web app of o.
func New(o Options) *App {
	return &App{o: o, store: o.Store, log: o.Log, spool: newSpool()}
}

// base is the scheme and host that links start with.
func (a *App) base(c echo.Context) string { return a.o.Base(c) }

// secure reports whether the browser reached us over HTTPS, whose cookies
// must never travel over plain HTTP.
func (a *App) secure(c echo.Context) bool {
	return strings.HasPrefix(a.o.BaseURL, "https://") || a.o.OverHTTPS(c.Request())
}

// userDay is the caller's date and time zone.
func (a *App) userDay(c echo.Context) (time.Time, *time.Location) {
	return input.Today(c, a.store.Now())
}

// today is the caller's date, without its zone.
func (a *App) today(c echo.Context) time.Time {
	t, _ := a.userDay(c)
	return t
}

// parsedPages are the web app's templates, parsed once per process when
// the first page is asked for: parsing them at start took a sixth of the
// page faults before the first answer, which a server used through its API
// alone never needs. They are embedded, so a failure is a bug that every
// web test shows (and TestPagesParse by name).
var parsedPages = sync.OnceValues(Parse)

// askToWait says how long a refused client should wait.
func askToWait(c echo.Context, d time.Duration) {
	c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(int(d/time.Second)))
}
