package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the whole route table.
func (s *Server) routes(corsOrigins []string) {
	e := s.echo
	// Order matters: the id and the log see everything; CORS answers
	// preflights before any limit; the limiter needs to know the user.
	e.Use(withRequestID, privateAnswer, s.accessLog, recoverPanic,
		middleware.CORSWithConfig(middleware.CORSConfig{
			AllowOrigins:  corsOrigins,
			AllowMethods:  []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
			AllowHeaders:  []string{echo.HeaderAuthorization, echo.HeaderContentType, echo.HeaderAccept, echo.HeaderXRequestID},
			ExposeHeaders: []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", echo.HeaderRetryAfter, echo.HeaderXRequestID},
			MaxAge:        86400,
		}),
		limitBody, s.authenticate, s.limitRate)

	// No key needed.
	e.GET("/api/health", s.handleHealth)
	e.GET("/api/openapi.json", s.handleOpenAPI)
	e.POST("/api/login", s.handleLogin)
	e.GET("/api/verify-email", s.handleVerifyEmail)

	// A valid key needed. requireUser goes on each route rather than on a
	// group, because echo answers a group's unknown paths through the
	// group's middleware: an unknown route must be 404, not 401.
	// An unverified user may only log out or ask for a new link.
	e.DELETE("/api/logout", s.handleLogout, requireKey)
	e.POST("/api/me/verification", s.handleVerificationResend, requireKey)

	auth := requireUser

	e.GET("/api/me", s.handleMeShow, auth)
	e.PUT("/api/me", s.handleMeUpdate, auth)
	e.GET("/api/me/timezone", s.handleTimezoneShow, auth)
	e.PUT("/api/me/timezone", s.handleTimezoneUpdate, auth)

	e.GET("/api/persons", s.handlePersonList, auth)
	e.POST("/api/persons", s.handlePersonCreate, auth)
	e.GET("/api/persons/:person", s.handlePersonShow, auth)
	e.PUT("/api/persons/:person", s.handlePersonUpdate, auth)
	e.DELETE("/api/persons/:person", s.handlePersonDelete, auth)
	e.PATCH("/api/persons/:person/physical-appearance", s.handleAppearanceUpdate, auth)
	e.PATCH("/api/persons/:person/age", s.handleAgeUpdate, auth)

	e.GET("/api/persons/:person/tasks", s.handleTaskList, auth)
	e.POST("/api/persons/:person/tasks", s.handleTaskCreate, auth)
	e.GET("/api/persons/:person/tasks/:task", s.handleTaskShow, auth)
	e.PUT("/api/persons/:person/tasks/:task", s.handleTaskUpdate, auth)
	e.DELETE("/api/persons/:person/tasks/:task", s.handleTaskDelete, auth)
	e.PUT("/api/tasks/:task/toggle", s.handleTaskToggle, auth)

	e.GET("/api/administration/task-categories", s.handleCategoryList, auth)
	e.POST("/api/administration/task-categories", s.handleCategoryCreate, auth)
	e.GET("/api/administration/task-categories/:id", s.handleCategoryShow, auth)
	e.PUT("/api/administration/task-categories/:id", s.handleCategoryUpdate, auth)
	e.DELETE("/api/administration/task-categories/:id", s.handleCategoryDelete, auth)

	e.GET("/api/administration/api", s.handleKeyList, auth)
	e.POST("/api/administration/api", s.handleKeyCreate, auth)
	e.GET("/api/administration/api/:id", s.handleKeyShow, auth)
	e.DELETE("/api/administration/api/:id", s.handleKeyDelete, auth)
}
