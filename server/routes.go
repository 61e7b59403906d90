package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the whole route table.
func (s *Server) routes(corsOrigins []string) {
	e := s.echo
	// Order matters: the id and the log see everything; bodiless wraps the
	// log, which writes errors, so that no HEAD answer carries a body; CORS
	// answers preflights before any limit; the limiter needs to know the
	// user.
	e.Use(s.markSurface, withRequestID, privateAnswer, s.strictTransport, bodiless, s.accessLog, recoverPanic,
		middleware.CORSWithConfig(middleware.CORSConfig{
			// CardDAV's OPTIONS are no preflights: go-webdav answers them.
			Skipper:       s.isDAV,
			AllowOrigins:  corsOrigins,
			AllowMethods:  []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
			AllowHeaders:  []string{echo.HeaderAuthorization, echo.HeaderContentType, echo.HeaderAccept, echo.HeaderXRequestID},
			ExposeHeaders: []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", echo.HeaderRetryAfter, echo.HeaderXRequestID},
			MaxAge:        86400,
		}),
		limitBody, s.authenticate, s.limitRate, wholeSegments, s.ownPath)

	// get serves GET and HEAD, which echo does not add by itself: HEAD
	// runs the same handler and bodiless drops what it writes. Two GETs
	// are GET alone, since they change something that a HEAD (a mail
	// system's link checker, a prefetch) must not: verify-email spends a
	// single-use link, and a journal's entry by date is made by the first
	// GET that asks for it.
	api := s.router(surfaceAPI)

	// No key needed.
	api.get("/api/health", s.handleHealth)
	api.get("/api/openapi.json", s.handleOpenAPI)
	// A calendar feed: its secret is in the path, since calendar apps
	// send no header. Limited per client address like the rest.
	api.get("/ical/:feed", s.handleCalendarFeed)
	api.POST("/api/login", s.handleLogin)
	api.GET("/api/verify-email", s.handleVerifyEmail)
	api.POST("/api/invitations/accept", s.handleInvitationAccept)

	// A valid key needed. requireUser goes on each route rather than on a
	// group, because echo answers a group's unknown paths through the
	// group's middleware: an unknown route must be 404, not 401.
	// An unverified user may only log out or ask for a new link.
	api.DELETE("/api/logout", s.handleLogout, requireKey)
	api.POST("/api/me/verification", s.handleVerificationResend, requireKey)

	auth := requireUser

	api.get("/api/me", s.handleMeShow, auth)
	api.PUT("/api/me", s.handleMeUpdate, auth)
	api.get("/api/me/timezone", s.handleTimezoneShow, auth)
	api.PUT("/api/me/timezone", s.handleTimezoneUpdate, auth)
	api.get("/api/me/calendar-feed", s.handleCalendarFeedShow, auth)
	api.POST("/api/me/calendar-feed", s.handleCalendarFeedCreate, auth)
	api.DELETE("/api/me/calendar-feed", s.handleCalendarFeedDelete, auth)
	api.get("/api/me/two-factor", s.handleTwoFactorShow, auth)
	api.POST("/api/me/two-factor", s.handleTwoFactorCreate, auth)
	api.POST("/api/me/two-factor/confirm", s.handleTwoFactorConfirm, auth)
	api.DELETE("/api/me/two-factor", s.handleTwoFactorDelete, auth)
	api.get("/api/me/mail-in", s.handleMailInShow, auth)
	api.POST("/api/me/mail-in", s.handleMailInRotate, auth)
	api.get("/api/me/passkeys", s.handlePasskeyList, auth)
	api.DELETE("/api/me/passkeys/:passkey", s.handlePasskeyDelete, auth)

	api.get("/api/persons", s.handlePersonList, auth)
	api.POST("/api/persons", s.handlePersonCreate, auth)
	// Static before param in echo's router: duplicates is never read as
	// a person's id.
	api.get("/api/persons/duplicates", s.handleDuplicateList, auth)
	api.get("/api/persons/:person", s.handlePersonShow, auth)
	api.PUT("/api/persons/:person", s.handlePersonUpdate, auth)
	api.DELETE("/api/persons/:person", s.handlePersonDelete, auth)
	api.POST("/api/persons/:person/merge", s.handlePersonMerge, auth)
	api.PATCH("/api/persons/:person/physical-appearance", s.handleAppearanceUpdate, auth)
	api.PATCH("/api/persons/:person/age", s.handleAgeUpdate, auth)
	api.get("/api/persons/:person/photo", s.handlePhotoShow, auth)
	api.PUT("/api/persons/:person/photo", s.handlePhotoUpdate, auth)
	api.DELETE("/api/persons/:person/photo", s.handlePhotoDelete, auth)
	api.get("/api/persons/:person/vcard", s.handlePersonVCard, auth)
	api.PUT("/api/persons/:person/tags", s.handlePersonTagsUpdate, auth)
	api.get("/api/tags", s.handleTagList, auth)
	api.get("/api/tags/:tag", s.handleTagShow, auth)
	api.PUT("/api/tags/:tag", s.handleTagUpdate, auth)
	api.DELETE("/api/tags/:tag", s.handleTagDelete, auth)
	api.get("/api/export/vcard", s.handleVCardExport, auth)
	api.POST("/api/import/vcard", s.handleVCardImport, auth)
	api.POST("/api/import/monica", s.handleMonicaImport, auth)
	api.POST("/api/import/csv", s.handleCSVImport, auth)
	s.davRoutes(s.router(surfaceDAV))

	api.get("/api/persons/:person/tasks", s.handleTaskList, auth)
	api.POST("/api/persons/:person/tasks", s.handleTaskCreate, auth)
	api.get("/api/persons/:person/tasks/:task", s.handleTaskShow, auth)
	api.PUT("/api/persons/:person/tasks/:task", s.handleTaskUpdate, auth)
	api.DELETE("/api/persons/:person/tasks/:task", s.handleTaskDelete, auth)
	api.PUT("/api/tasks/:task/toggle", s.handleTaskToggle, auth)
	api.get("/api/tasks", s.handleAccountTaskList, auth)

	api.get("/api/persons/:person/notes", s.handleNoteList, auth)
	api.POST("/api/persons/:person/notes", s.handleNoteCreate, auth)
	api.get("/api/persons/:person/notes/:note", s.handleNoteShow, auth)
	api.PUT("/api/persons/:person/notes/:note", s.handleNoteUpdate, auth)
	api.DELETE("/api/persons/:person/notes/:note", s.handleNoteDelete, auth)

	api.get("/api/persons/:person/gifts", s.handleGiftList, auth)
	api.POST("/api/persons/:person/gifts", s.handleGiftCreate, auth)
	api.get("/api/persons/:person/gifts/:gift", s.handleGiftShow, auth)
	api.PUT("/api/persons/:person/gifts/:gift", s.handleGiftUpdate, auth)
	api.DELETE("/api/persons/:person/gifts/:gift", s.handleGiftDelete, auth)

	api.get("/api/administration/task-categories", s.handleCategoryList, auth)
	api.POST("/api/administration/task-categories", s.handleCategoryCreate, auth)
	api.get("/api/administration/task-categories/:id", s.handleCategoryShow, auth)
	api.PUT("/api/administration/task-categories/:id", s.handleCategoryUpdate, auth)
	api.DELETE("/api/administration/task-categories/:id", s.handleCategoryDelete, auth)

	api.get("/api/administration/api", s.handleKeyList, auth)
	api.POST("/api/administration/api", s.handleKeyCreate, auth)
	api.get("/api/administration/api/:id", s.handleKeyShow, auth)
	api.DELETE("/api/administration/api/:id", s.handleKeyDelete, auth)

	api.get("/api/persons/:person/life-events", s.handleLifeEventList, auth)
	api.POST("/api/persons/:person/life-events", s.handleLifeEventCreate, auth)
	api.get("/api/persons/:person/life-events/:event", s.handleLifeEventShow, auth)
	api.PUT("/api/persons/:person/life-events/:event", s.handleLifeEventUpdate, auth)
	api.DELETE("/api/persons/:person/life-events/:event", s.handleLifeEventDelete, auth)

	api.get("/api/persons/:person/work-history", s.handleWorkHistoryList, auth)
	api.POST("/api/persons/:person/work-history", s.handleWorkEntryCreate, auth)
	api.get("/api/persons/:person/work-history/:entry", s.handleWorkEntryShow, auth)
	api.PUT("/api/persons/:person/work-history/:entry", s.handleWorkEntryUpdate, auth)
	api.DELETE("/api/persons/:person/work-history/:entry", s.handleWorkEntryDelete, auth)

	api.get("/api/persons/:person/contact-details", s.handleContactDetailList, auth)
	api.POST("/api/persons/:person/contact-details", s.handleContactDetailCreate, auth)
	api.get("/api/persons/:person/contact-details/:detail", s.handleContactDetailShow, auth)
	api.PUT("/api/persons/:person/contact-details/:detail", s.handleContactDetailUpdate, auth)
	api.DELETE("/api/persons/:person/contact-details/:detail", s.handleContactDetailDelete, auth)
	api.get("/api/persons/:person/important-dates", s.handleImportantDateList, auth)
	api.POST("/api/persons/:person/important-dates", s.handleImportantDateCreate, auth)
	api.get("/api/persons/:person/important-dates/:date", s.handleImportantDateShow, auth)
	api.PUT("/api/persons/:person/important-dates/:date", s.handleImportantDateUpdate, auth)
	api.DELETE("/api/persons/:person/important-dates/:date", s.handleImportantDateDelete, auth)
	api.get("/api/persons/:person/reminders", s.handleReminderList, auth)
	api.POST("/api/persons/:person/reminders", s.handleReminderCreate, auth)
	api.get("/api/persons/:person/reminders/:reminder", s.handleReminderShow, auth)
	api.PUT("/api/persons/:person/reminders/:reminder", s.handleReminderUpdate, auth)
	api.DELETE("/api/persons/:person/reminders/:reminder", s.handleReminderDelete, auth)

	api.get("/api/persons/:person/stay-in-touch", s.handleStayInTouchShow, auth)
	api.PUT("/api/persons/:person/stay-in-touch", s.handleStayInTouchUpdate, auth)
	api.get("/api/persons/:person/interactions", s.handleInteractionList, auth)
	api.POST("/api/persons/:person/interactions", s.handleInteractionCreate, auth)
	api.get("/api/persons/:person/interactions/:interaction", s.handleInteractionShow, auth)
	api.PUT("/api/persons/:person/interactions/:interaction", s.handleInteractionUpdate, auth)
	api.DELETE("/api/persons/:person/interactions/:interaction", s.handleInteractionDelete, auth)

	api.get("/api/administration/genders", s.handleGenderList, auth)
	api.POST("/api/administration/genders", s.handleGenderCreate, auth)
	api.get("/api/administration/genders/:gender", s.handleGenderShow, auth)
	api.PUT("/api/administration/genders/:gender", s.handleGenderUpdate, auth)
	api.DELETE("/api/administration/genders/:gender", s.handleGenderDelete, auth)

	api.get("/api/administration/relationship-types", s.handleRelationshipTypeList, auth)
	api.POST("/api/administration/relationship-types", s.handleRelationshipTypeCreate, auth)
	api.get("/api/administration/relationship-types/:type", s.handleRelationshipTypeShow, auth)
	api.PUT("/api/administration/relationship-types/:type", s.handleRelationshipTypeUpdate, auth)
	api.DELETE("/api/administration/relationship-types/:type", s.handleRelationshipTypeDelete, auth)
	api.get("/api/persons/:person/relationships", s.handleRelationshipList, auth)
	api.POST("/api/persons/:person/relationships", s.handleRelationshipCreate, auth)
	api.DELETE("/api/persons/:person/relationships/:relationship", s.handleRelationshipDelete, auth)

	api.get("/api/journals", s.handleJournalList, auth)
	api.POST("/api/journals", s.handleJournalCreate, auth)
	api.get("/api/journals/:journal", s.handleJournalShow, auth)
	api.PUT("/api/journals/:journal", s.handleJournalUpdate, auth)
	api.DELETE("/api/journals/:journal", s.handleJournalDelete, auth)
	api.GET("/api/journals/:journal/:year/:month/:day", s.handleEntryByDate, auth)
	api.GET("/api/journals/:journal/entries/:year/:month/:day", s.handleEntryByDate, auth)
	api.PUT("/api/journals/:journal/entries/:year/:month/:day", s.handleEntryWrite, auth)
	api.get("/api/journals/:journal/entries", s.handleEntryList, auth)

	api.get("/api/administration/logs", s.handleLogList, auth)
	api.get("/api/administration/logs/:log", s.handleLogShow, auth)

	api.get("/api/me/reminders", s.handleReminderSettingsShow, auth)
	api.PUT("/api/me/reminders", s.handleReminderSettingsUpdate, auth)
	api.get("/api/reminders/upcoming", s.handleRemindersUpcoming, auth)
	api.get("/api/me/channels", s.handleChannelList, auth)
	api.POST("/api/me/channels", s.handleChannelCreate, auth)
	api.get("/api/me/channels/:channel", s.handleChannelShow, auth)
	api.PUT("/api/me/channels/:channel", s.handleChannelUpdate, auth)
	api.DELETE("/api/me/channels/:channel", s.handleChannelDelete, auth)
	api.POST("/api/me/channels/:channel/test", s.handleChannelTest, auth)

	api.get("/api/export", s.handleExport, auth)
	api.POST("/api/import", s.handleImport, auth)

	api.PUT("/api/administration/prune", s.handlePrune, auth)
	api.POST("/api/administration/users", s.handleUserInvite, auth)
	api.PUT("/api/administration/users/:user/invite", s.handleInvitationResend, auth)

	// The web app's pages and their stylesheet and script.
	s.web.Routes(s.router(surfacePage), s.router(surfaceFile))
}
