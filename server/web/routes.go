package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// Router is where the pages' routes go: the server's, which marks each
// route as a page's (or a file's), for its error handler and its
// authentication to ask.
type Router interface {
	Add(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
}

// pageRoutes adds GET (with HEAD) and POST routes to a Router.
type pageRoutes struct{ Router }

// get serves GET and HEAD: HEAD runs the same handler, and the server
// drops what it writes.
func (r pageRoutes) get(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodGet, path, h, m...)
	r.Add(http.MethodHead, path, h, m...)
}

func (r pageRoutes) post(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodPost, path, h, m...)
}

// Routes is the pages' route table: pages, signed in by a session cookie
// that only they read, and files (the stylesheet and script), which need
// nobody. Every POST carries a CSRF token (requireWebUser checks it).
func (a *App) Routes(pages, files Router) {
	static := http.FileServer(http.FS(Static()))
	pageRoutes{files}.get("/static/*", func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
		http.StripPrefix("/static/", static).ServeHTTP(c.Response(), c.Request())
		return nil
	})
	pageRoutes{files}.get("/manifest.webmanifest", handleManifest)
	r := pageRoutes{pages}
	page, user, key := webSecurity, a.requireWebUser, a.requireWebKey
	r.get("/login", a.handleLoginPage, page)
	r.post("/login", a.handleLogin, page)
	r.post("/login/code", a.handleLoginCode, page)
	if a.o.SSO != nil {
		r.get("/auth/oidc/login", a.handleSSOLogin, page)
		r.get("/auth/oidc/callback", a.handleSSOCallback, page)
	}
	r.post("/login/passkey/options", a.handlePasskeyLoginOptions, page)
	r.post("/login/passkey", a.handlePasskeyLogin, page)
	r.get("/api/invitations/accept", a.handleJoinPage, page)
	r.post("/join", a.handleJoin, page)
	r.get("/actions/:link", a.handleActionPage, page)
	r.post("/actions/:link", a.handleAction, page)
	r.post("/logout", a.handleLogout, page, key)
	r.post("/verification", a.handleResend, page, key)
	r.get("/", a.handleDashboard, page, user)
	r.post("/tasks/:task/toggle", a.handleTaskToggle, page, user)
	r.get("/people", a.handlePeople, page, user)
	r.get("/people/new", a.handlePersonNew, page, user)
	r.get("/people/duplicates", a.handleDuplicates, page, user)
	r.post("/people", a.handlePersonCreate, page, user)
	r.get("/people/:person", a.handlePerson, page, user)
	r.get("/people/:person/edit", a.handlePersonEdit, page, user)
	r.post("/people/:person", a.handlePersonUpdate, page, user)
	r.post("/people/:person/delete", a.handlePersonDelete, page, user)
	r.post("/people/:person/merge", a.handleMerge, page, user)
	r.post("/people/:person/call", a.handleLogCall, page, user)
	r.post("/people/:person/age", a.handleAge, page, user)
	r.post("/people/:person/appearance", a.handleAppearance, page, user)
	r.post("/people/:person/stay-in-touch", a.handleStayInTouch, page, user)
	r.post("/people/:person/tags", a.handlePersonTags, page, user)
	r.get("/people/:person/photo", a.o.Photo, page, user)
	r.post("/people/:person/photo", a.handlePhotoSave, page, user)
	r.post("/people/:person/photo/delete", a.handlePhotoDelete, page, user)
	r.post("/people/:person/relationships", a.handleRelationshipCreate, page, user)
	r.post("/people/:person/relationships/:relationship/delete", a.handleRelationshipDelete, page, user)
	r.post("/people/:person/:kind", a.handleChildCreate, page, user)
	r.get("/people/:person/:kind/:item/edit", a.handleChildEdit, page, user)
	r.post("/people/:person/:kind/:item", a.handleChildUpdate, page, user)
	r.post("/people/:person/:kind/:item/delete", a.handleChildDelete, page, user)
	r.post("/people/:person/:kind/:item/toggle", a.handleTaskToggle, page, user)
	r.get("/journals", a.handleJournals, page, user)
	r.post("/journals", a.handleJournalCreate, page, user)
	r.get("/journals/:journal", a.handleJournal, page, user)
	r.post("/journals/:journal", a.handleJournalRename, page, user)
	r.post("/journals/:journal/delete", a.handleJournalDelete, page, user)
	r.post("/journals/:journal/entries", a.handleEntryOpen, page, user)
	r.get("/journals/:journal/:year/:month/:day", a.handleEntry, page, user)
	r.post("/journals/:journal/:year/:month/:day", a.handleEntrySave, page, user)
	r.get("/settings", a.handleSettings, page, user)
	for _, s := range sections {
		r.get("/settings/"+s.Slug, a.settingsSection(s.Slug), page, user)
	}
	r.post("/settings/users", a.handleInvite, page, user)
	r.post("/settings/users/:user/invite", a.handleReinvite, page, user)
	r.post("/settings/profile", a.handleProfile, page, user)
	r.post("/settings/timezone", a.handleTimezone, page, user)
	r.post("/settings/password", a.handlePassword, page, user)
	r.post("/settings/reminders", a.handleReminders, page, user)
	r.post("/settings/keys", a.handleKeyCreate, page, user)
	r.post("/settings/keys/:key/delete", a.handleKeyDelete, page, user)
	r.post("/settings/two-factor", a.handleTwoFactorSetUp, page, user)
	r.post("/settings/two-factor/confirm", a.handleTwoFactorConfirm, page, user)
	r.post("/settings/two-factor/delete", a.handleTwoFactorOff, page, user)
	r.post("/settings/sessions/others/delete", a.handleSessionsSignOutOthers, page, user)
	r.post("/settings/sessions/:session/delete", a.handleSessionSignOut, page, user)
	r.post("/settings/security/passkeys/options", a.handlePasskeyOptions, page, user)
	r.post("/settings/security/passkeys", a.handlePasskeyAdd, page, user)
	r.post("/settings/security/passkeys/:passkey/delete", a.handlePasskeyDelete, page, user)
	r.post("/settings/channels", a.handleChannelCreate, page, user)
	r.post("/settings/channels/:channel/toggle", a.handleChannelToggle, page, user)
	r.post("/settings/channels/:channel/test", a.handleChannelTest, page, user)
	r.post("/settings/channels/:channel/delete", a.handleChannelDelete, page, user)
	r.get("/settings/channels/:channel/edit", a.handleChannelEdit, page, user)
	r.post("/settings/channels/:channel", a.handleChannelUpdate, page, user)
	r.post("/settings/categories", a.handleCategoryCreate, page, user)
	r.get("/settings/categories/:category/edit", a.handleCategoryEdit, page, user)
	r.post("/settings/categories/:category", a.handleCategoryUpdate, page, user)
	r.post("/settings/categories/:category/delete", a.handleCategoryDelete, page, user)
	r.post("/settings/genders", a.handleGenderCreate, page, user)
	r.get("/settings/genders/:gender/edit", a.handleGenderEdit, page, user)
	r.post("/settings/genders/:gender", a.handleGenderUpdate, page, user)
	r.post("/settings/genders/:gender/delete", a.handleGenderDelete, page, user)
	r.post("/settings/relationship-types", a.handleRelationshipTypeCreate, page, user)
	r.get("/settings/relationship-types/:type/edit", a.handleRelationshipTypeEdit, page, user)
	r.post("/settings/relationship-types/:type", a.handleRelationshipTypeUpdate, page, user)
	r.post("/settings/relationship-types/:type/delete", a.handleRelationshipTypeDelete, page, user)
	r.post("/settings/calendar", a.handleFeedCreate, page, user)
	r.post("/settings/calendar/delete", a.handleFeedDelete, page, user)
	r.post("/settings/mail-in", a.handleMailInRotate, page, user)
	r.get("/settings/export.json", a.o.Export, page, user)
	r.get("/settings/export.vcf", a.o.VCardExport, page, user)
	r.post("/settings/import", a.handleImport, page, user)
	r.post("/settings/import/vcard", a.handleVCardImport, page, user)
	for _, kind := range peopleImportKinds {
		r.post("/settings/import/"+kind, a.handlePeopleImportCheck(kind), page, longImport, user)
		r.get("/settings/import/"+kind+"/:token", a.handlePeopleImportShow(kind), page, user)
		r.post("/settings/import/"+kind+"/:token", a.handlePeopleImportRun(kind), page, longImport, user)
		r.post("/settings/import/"+kind+"/:token/cancel", a.handlePeopleImportCancel(kind), page, user)
	}
	r.get("/settings/import/csv/:token/columns", a.handleCSVColumns, page, user)
	r.post("/settings/import/csv/:token/columns", a.handleCSVColumnsSave, page, longImport, user)
}
