package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// router is where a surface's routes go: the server's, which marks each
// route as the surface's, for the error handler and authentication to ask.
type router interface {
	Add(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
}

// pageRoutes adds GET (with HEAD) and POST routes to a router.
type pageRoutes struct{ router }

// get serves GET and HEAD: HEAD runs the same handler, and the server
// drops what it writes.
func (r pageRoutes) get(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodGet, path, h, m...)
	r.Add(http.MethodHead, path, h, m...)
}

func (r pageRoutes) post(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodPost, path, h, m...)
}

// routes is the pages' route table: pages, signed in by a session cookie
// that only they read, and files (the stylesheet and script), which need
// nobody. Every POST carries a CSRF token (requireWebUser checks it).
func (a *App) Routes(pages, files router) {
	static := http.FileServer(http.FS(Static()))
	pageRoutes{files}.get("/static/*", func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
		http.StripPrefix("/static/", static).ServeHTTP(c.Response(), c.Request())
		return nil
	})
	r := pageRoutes{pages}
	page, user, key := webSecurity, a.requireWebUser, a.requireWebKey
	r.get("/login", a.handleWebLoginPage, page)
	r.post("/login", a.handleWebLogin, page)
	r.post("/logout", a.handleWebLogout, page, key)
	r.post("/verification", a.handleWebResend, page, key)
	r.get("/", a.handleWebDashboard, page, user)
	r.post("/tasks/:task/toggle", a.handleWebTaskToggle, page, user)
	r.get("/people", a.handleWebPeople, page, user)
	r.get("/people/new", a.handleWebPersonNew, page, user)
	r.post("/people", a.handleWebPersonCreate, page, user)
	r.get("/people/:person", a.handleWebPerson, page, user)
	r.get("/people/:person/edit", a.handleWebPersonEdit, page, user)
	r.post("/people/:person", a.handleWebPersonUpdate, page, user)
	r.post("/people/:person/delete", a.handleWebPersonDelete, page, user)
	r.post("/people/:person/age", a.handleWebAge, page, user)
	r.post("/people/:person/appearance", a.handleWebAppearance, page, user)
	r.post("/people/:person/stay-in-touch", a.handleWebStayInTouch, page, user)
	r.post("/people/:person/:kind", a.handleWebThingCreate, page, user)
	r.get("/people/:person/:kind/:item/edit", a.handleWebThingEdit, page, user)
	r.post("/people/:person/:kind/:item", a.handleWebThingUpdate, page, user)
	r.post("/people/:person/:kind/:item/delete", a.handleWebThingDelete, page, user)
	r.post("/people/:person/:kind/:item/toggle", a.handleWebTaskToggle, page, user)
	r.get("/journals", a.handleWebJournals, page, user)
	r.post("/journals", a.handleWebJournalCreate, page, user)
	r.get("/journals/:journal", a.handleWebJournal, page, user)
	r.post("/journals/:journal", a.handleWebJournalRename, page, user)
	r.post("/journals/:journal/delete", a.handleWebJournalDelete, page, user)
	r.post("/journals/:journal/entries", a.handleWebEntryOpen, page, user)
	r.get("/settings", a.handleWebSettings, page, user)
	r.post("/settings/profile", a.handleWebProfile, page, user)
	r.post("/settings/timezone", a.handleWebTimezone, page, user)
	r.post("/settings/reminders", a.handleWebReminders, page, user)
	r.post("/settings/keys", a.handleWebKeyCreate, page, user)
	r.post("/settings/keys/:key/delete", a.handleWebKeyDelete, page, user)
	r.post("/settings/channels", a.handleWebChannelCreate, page, user)
	r.post("/settings/channels/:channel/toggle", a.handleWebChannelToggle, page, user)
	r.post("/settings/channels/:channel/test", a.handleWebChannelTest, page, user)
	r.post("/settings/channels/:channel/delete", a.handleWebChannelDelete, page, user)
	r.get("/settings/channels/:channel/edit", a.handleWebChannelEdit, page, user)
	r.post("/settings/channels/:channel", a.handleWebChannelUpdate, page, user)
	r.post("/settings/categories", a.handleWebCategoryCreate, page, user)
	r.get("/settings/categories/:category/edit", a.handleWebCategoryEdit, page, user)
	r.post("/settings/categories/:category", a.handleWebCategoryUpdate, page, user)
	r.post("/settings/categories/:category/delete", a.handleWebCategoryDelete, page, user)
	r.post("/settings/genders", a.handleWebGenderCreate, page, user)
	r.get("/settings/genders/:gender/edit", a.handleWebGenderEdit, page, user)
	r.post("/settings/genders/:gender", a.handleWebGenderUpdate, page, user)
	r.post("/settings/genders/:gender/delete", a.handleWebGenderDelete, page, user)
	r.post("/settings/calendar", a.handleWebFeedCreate, page, user)
	r.post("/settings/calendar/delete", a.handleWebFeedDelete, page, user)
	r.get("/settings/export.json", a.o.Export, page, user)
	r.get("/settings/export.vcf", a.o.VCardExport, page, user)
	r.post("/settings/import", a.handleWebImport, page, user)
	r.post("/settings/import/vcard", a.handleWebVCardImport, page, user)
}
