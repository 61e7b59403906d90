package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"kith/server/web"
)

// routes is the whole route table.
func (s *Server) routes(corsOrigins []string) {
	e := s.echo
	// Order matters: the id and the log see everything; bodiless wraps the
	// log, which writes errors, so that no HEAD answer carries a body; CORS
	// answers preflights before any limit; the limiter needs to know the
	// user.
	e.Use(withRequestID, privateAnswer, bodiless, s.accessLog, recoverPanic,
		middleware.CORSWithConfig(middleware.CORSConfig{
			// CardDAV's OPTIONS are no preflights: go-webdav answers them.
			Skipper:       isDAVPath,
			AllowOrigins:  corsOrigins,
			AllowMethods:  []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
			AllowHeaders:  []string{echo.HeaderAuthorization, echo.HeaderContentType, echo.HeaderAccept, echo.HeaderXRequestID},
			ExposeHeaders: []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", echo.HeaderRetryAfter, echo.HeaderXRequestID},
			MaxAge:        86400,
		}),
		limitBody, s.authenticate, s.limitRate, wholeSegments)

	// get serves GET and HEAD, which echo does not add by itself: HEAD
	// runs the same handler and bodiless drops what it writes. Two GETs
	// are GET alone, since they change something that a HEAD (a mail
	// system's link checker, a prefetch) must not: verify-email spends a
	// single-use link, and a journal's entry by date is made by the first
	// GET that asks for it.
	get := func(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		e.GET(path, h, m...)
		e.HEAD(path, h, m...)
	}

	// No key needed.
	get("/api/health", s.handleHealth)
	get("/api/openapi.json", s.handleOpenAPI)
	// A calendar feed: its secret is in the path, since calendar apps
	// send no header. Limited per client address like the rest.
	get("/ical/:feed", s.handleCalendarFeed)
	e.POST("/api/login", s.handleLogin)
	e.GET("/api/verify-email", s.handleVerifyEmail)
	e.POST("/api/invitations/accept", s.handleInvitationAccept)

	// A valid key needed. requireUser goes on each route rather than on a
	// group, because echo answers a group's unknown paths through the
	// group's middleware: an unknown route must be 404, not 401.
	// An unverified user may only log out or ask for a new link.
	e.DELETE("/api/logout", s.handleLogout, requireKey)
	e.POST("/api/me/verification", s.handleVerificationResend, requireKey)

	auth := requireUser

	get("/api/me", s.handleMeShow, auth)
	e.PUT("/api/me", s.handleMeUpdate, auth)
	get("/api/me/timezone", s.handleTimezoneShow, auth)
	e.PUT("/api/me/timezone", s.handleTimezoneUpdate, auth)
	get("/api/me/calendar-feed", s.handleCalendarFeedShow, auth)
	e.POST("/api/me/calendar-feed", s.handleCalendarFeedCreate, auth)
	e.DELETE("/api/me/calendar-feed", s.handleCalendarFeedDelete, auth)

	get("/api/persons", s.handlePersonList, auth)
	e.POST("/api/persons", s.handlePersonCreate, auth)
	get("/api/persons/:person", s.handlePersonShow, auth)
	e.PUT("/api/persons/:person", s.handlePersonUpdate, auth)
	e.DELETE("/api/persons/:person", s.handlePersonDelete, auth)
	e.PATCH("/api/persons/:person/physical-appearance", s.handleAppearanceUpdate, auth)
	e.PATCH("/api/persons/:person/age", s.handleAgeUpdate, auth)
	get("/api/persons/:person/vcard", s.handlePersonVCard, auth)
	get("/api/export/vcard", s.handleVCardExport, auth)
	e.POST("/api/import/vcard", s.handleVCardImport, auth)
	s.davRoutes()

	get("/api/persons/:person/tasks", s.handleTaskList, auth)
	e.POST("/api/persons/:person/tasks", s.handleTaskCreate, auth)
	get("/api/persons/:person/tasks/:task", s.handleTaskShow, auth)
	e.PUT("/api/persons/:person/tasks/:task", s.handleTaskUpdate, auth)
	e.DELETE("/api/persons/:person/tasks/:task", s.handleTaskDelete, auth)
	e.PUT("/api/tasks/:task/toggle", s.handleTaskToggle, auth)
	get("/api/tasks", s.handleAccountTaskList, auth)

	get("/api/persons/:person/notes", s.handleNoteList, auth)
	e.POST("/api/persons/:person/notes", s.handleNoteCreate, auth)
	get("/api/persons/:person/notes/:note", s.handleNoteShow, auth)
	e.PUT("/api/persons/:person/notes/:note", s.handleNoteUpdate, auth)
	e.DELETE("/api/persons/:person/notes/:note", s.handleNoteDelete, auth)

	get("/api/persons/:person/gifts", s.handleGiftList, auth)
	e.POST("/api/persons/:person/gifts", s.handleGiftCreate, auth)
	get("/api/persons/:person/gifts/:gift", s.handleGiftShow, auth)
	e.PUT("/api/persons/:person/gifts/:gift", s.handleGiftUpdate, auth)
	e.DELETE("/api/persons/:person/gifts/:gift", s.handleGiftDelete, auth)

	get("/api/administration/task-categories", s.handleCategoryList, auth)
	e.POST("/api/administration/task-categories", s.handleCategoryCreate, auth)
	get("/api/administration/task-categories/:id", s.handleCategoryShow, auth)
	e.PUT("/api/administration/task-categories/:id", s.handleCategoryUpdate, auth)
	e.DELETE("/api/administration/task-categories/:id", s.handleCategoryDelete, auth)

	get("/api/administration/api", s.handleKeyList, auth)
	e.POST("/api/administration/api", s.handleKeyCreate, auth)
	get("/api/administration/api/:id", s.handleKeyShow, auth)
	e.DELETE("/api/administration/api/:id", s.handleKeyDelete, auth)

	get("/api/persons/:person/life-events", s.handleLifeEventList, auth)
	e.POST("/api/persons/:person/life-events", s.handleLifeEventCreate, auth)
	get("/api/persons/:person/life-events/:event", s.handleLifeEventShow, auth)
	e.PUT("/api/persons/:person/life-events/:event", s.handleLifeEventUpdate, auth)
	e.DELETE("/api/persons/:person/life-events/:event", s.handleLifeEventDelete, auth)

	get("/api/persons/:person/work-history", s.handleWorkHistoryList, auth)
	e.POST("/api/persons/:person/work-history", s.handleWorkEntryCreate, auth)
	get("/api/persons/:person/work-history/:entry", s.handleWorkEntryShow, auth)
	e.PUT("/api/persons/:person/work-history/:entry", s.handleWorkEntryUpdate, auth)
	e.DELETE("/api/persons/:person/work-history/:entry", s.handleWorkEntryDelete, auth)

	get("/api/persons/:person/contact-details", s.handleContactDetailList, auth)
	e.POST("/api/persons/:person/contact-details", s.handleContactDetailCreate, auth)
	get("/api/persons/:person/contact-details/:detail", s.handleContactDetailShow, auth)
	e.PUT("/api/persons/:person/contact-details/:detail", s.handleContactDetailUpdate, auth)
	e.DELETE("/api/persons/:person/contact-details/:detail", s.handleContactDetailDelete, auth)
	get("/api/persons/:person/important-dates", s.handleImportantDateList, auth)
	e.POST("/api/persons/:person/important-dates", s.handleImportantDateCreate, auth)
	get("/api/persons/:person/important-dates/:date", s.handleImportantDateShow, auth)
	e.PUT("/api/persons/:person/important-dates/:date", s.handleImportantDateUpdate, auth)
	e.DELETE("/api/persons/:person/important-dates/:date", s.handleImportantDateDelete, auth)

	get("/api/persons/:person/stay-in-touch", s.handleStayInTouchShow, auth)
	e.PUT("/api/persons/:person/stay-in-touch", s.handleStayInTouchUpdate, auth)
	get("/api/persons/:person/interactions", s.handleInteractionList, auth)
	e.POST("/api/persons/:person/interactions", s.handleInteractionCreate, auth)
	get("/api/persons/:person/interactions/:interaction", s.handleInteractionShow, auth)
	e.PUT("/api/persons/:person/interactions/:interaction", s.handleInteractionUpdate, auth)
	e.DELETE("/api/persons/:person/interactions/:interaction", s.handleInteractionDelete, auth)

	get("/api/administration/genders", s.handleGenderList, auth)
	e.POST("/api/administration/genders", s.handleGenderCreate, auth)
	get("/api/administration/genders/:gender", s.handleGenderShow, auth)
	e.PUT("/api/administration/genders/:gender", s.handleGenderUpdate, auth)
	e.DELETE("/api/administration/genders/:gender", s.handleGenderDelete, auth)

	get("/api/journals", s.handleJournalList, auth)
	e.POST("/api/journals", s.handleJournalCreate, auth)
	get("/api/journals/:journal", s.handleJournalShow, auth)
	e.PUT("/api/journals/:journal", s.handleJournalUpdate, auth)
	e.DELETE("/api/journals/:journal", s.handleJournalDelete, auth)
	e.GET("/api/journals/:journal/:year/:month/:day", s.handleEntryByDate, auth)
	e.GET("/api/journals/:journal/entries/:year/:month/:day", s.handleEntryByDate, auth)

	get("/api/administration/logs", s.handleLogList, auth)
	get("/api/administration/logs/:log", s.handleLogShow, auth)

	get("/api/me/reminders", s.handleReminderSettingsShow, auth)
	e.PUT("/api/me/reminders", s.handleReminderSettingsUpdate, auth)
	get("/api/reminders/upcoming", s.handleRemindersUpcoming, auth)
	get("/api/me/channels", s.handleChannelList, auth)
	e.POST("/api/me/channels", s.handleChannelCreate, auth)
	get("/api/me/channels/:channel", s.handleChannelShow, auth)
	e.PUT("/api/me/channels/:channel", s.handleChannelUpdate, auth)
	e.DELETE("/api/me/channels/:channel", s.handleChannelDelete, auth)
	e.POST("/api/me/channels/:channel/test", s.handleChannelTest, auth)

	get("/api/export", s.handleExport, auth)
	e.POST("/api/import", s.handleImport, auth)

	e.PUT("/api/administration/prune", s.handlePrune, auth)
	e.POST("/api/administration/users", s.handleUserInvite, auth)
	e.PUT("/api/administration/users/:user/invite", s.handleInvitationResend, auth)

	// The web app: pages for people, signed in by a session cookie that
	// only these routes read. Every POST carries a CSRF token
	// (requireWebUser checks it).
	static := http.FileServer(http.FS(web.Static()))
	get("/static/*", func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
		http.StripPrefix("/static/", static).ServeHTTP(c.Response(), c.Request())
		return nil
	})
	page, user, key := webSecurity, s.requireWebUser, s.requireWebKey
	get("/login", s.handleWebLoginPage, page)
	e.POST("/login", s.handleWebLogin, page)
	e.POST("/logout", s.handleWebLogout, page, key)
	e.POST("/verification", s.handleWebResend, page, key)
	get("/", s.handleWebDashboard, page, user)
	e.POST("/tasks/:task/toggle", s.handleWebTaskToggle, page, user)
	get("/people", s.handleWebPeople, page, user)
	get("/people/new", s.handleWebPersonNew, page, user)
	e.POST("/people", s.handleWebPersonCreate, page, user)
	get("/people/:person", s.handleWebPerson, page, user)
	get("/people/:person/edit", s.handleWebPersonEdit, page, user)
	e.POST("/people/:person", s.handleWebPersonUpdate, page, user)
	e.POST("/people/:person/delete", s.handleWebPersonDelete, page, user)
	e.POST("/people/:person/age", s.handleWebAge, page, user)
	e.POST("/people/:person/appearance", s.handleWebAppearance, page, user)
	e.POST("/people/:person/stay-in-touch", s.handleWebStayInTouch, page, user)
	e.POST("/people/:person/:kind", s.handleWebThingCreate, page, user)
	get("/people/:person/:kind/:item/edit", s.handleWebThingEdit, page, user)
	e.POST("/people/:person/:kind/:item", s.handleWebThingUpdate, page, user)
	e.POST("/people/:person/:kind/:item/delete", s.handleWebThingDelete, page, user)
	e.POST("/people/:person/:kind/:item/toggle", s.handleWebTaskToggle, page, user)
	get("/journals", s.handleWebJournals, page, user)
	e.POST("/journals", s.handleWebJournalCreate, page, user)
	get("/journals/:journal", s.handleWebJournal, page, user)
	e.POST("/journals/:journal", s.handleWebJournalRename, page, user)
	e.POST("/journals/:journal/delete", s.handleWebJournalDelete, page, user)
	e.POST("/journals/:journal/entries", s.handleWebEntryOpen, page, user)
	get("/settings", s.handleWebSettings, page, user)
	e.POST("/settings/profile", s.handleWebProfile, page, user)
	e.POST("/settings/timezone", s.handleWebTimezone, page, user)
	e.POST("/settings/reminders", s.handleWebReminders, page, user)
	e.POST("/settings/keys", s.handleWebKeyCreate, page, user)
	e.POST("/settings/keys/:key/delete", s.handleWebKeyDelete, page, user)
	e.POST("/settings/channels", s.handleWebChannelCreate, page, user)
	e.POST("/settings/channels/:channel/toggle", s.handleWebChannelToggle, page, user)
	e.POST("/settings/channels/:channel/test", s.handleWebChannelTest, page, user)
	e.POST("/settings/channels/:channel/delete", s.handleWebChannelDelete, page, user)
	get("/settings/channels/:channel/edit", s.handleWebChannelEdit, page, user)
	e.POST("/settings/channels/:channel", s.handleWebChannelUpdate, page, user)
	e.POST("/settings/categories", s.handleWebCategoryCreate, page, user)
	get("/settings/categories/:category/edit", s.handleWebCategoryEdit, page, user)
	e.POST("/settings/categories/:category", s.handleWebCategoryUpdate, page, user)
	e.POST("/settings/categories/:category/delete", s.handleWebCategoryDelete, page, user)
	e.POST("/settings/genders", s.handleWebGenderCreate, page, user)
	get("/settings/genders/:gender/edit", s.handleWebGenderEdit, page, user)
	e.POST("/settings/genders/:gender", s.handleWebGenderUpdate, page, user)
	e.POST("/settings/genders/:gender/delete", s.handleWebGenderDelete, page, user)
	e.POST("/settings/calendar", s.handleWebFeedCreate, page, user)
	e.POST("/settings/calendar/delete", s.handleWebFeedDelete, page, user)
	get("/settings/export.json", s.handleExport, page, user)
	get("/settings/export.vcf", s.handleVCardExport, page, user)
	e.POST("/settings/import", s.handleWebImport, page, user)
	e.POST("/settings/import/vcard", s.handleWebVCardImport, page, user)
}
