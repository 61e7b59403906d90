package server

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// dayStart is when date (a midnight UTC) starts, for a task given that
// date alone and in loc.
func dayStart(date time.Time, loc *time.Location) *store.DayStart {
	y, m, d := date.Date()
	return &store.DayStart{UTC: date.Unix(), Zone: time.Date(y, m, d, 0, 0, 0, 0, loc).Unix()}
}

// handleAccountTaskList lists the account's tasks across its persons,
// soonest due first: what is due and overdue (?is_completed=0&due_to=
// today), what is due this week, what has no date. Kith's own: PeopleOS
// lists tasks person by person only. Dates are the user's (their time
// zone), inclusive; a task given a date alone is due on that date.
func (s *Server) handleAccountTaskList(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	f := store.TaskFilter{Completed: p.Boolean("is_completed"), HasDue: p.Boolean("has_due_date")}
	from, to := p.Date("due_from"), p.Date("due_to")
	if from != nil && to != nil && to.Before(*from) {
		p.Fail("due_to", "The due to field must be a date after or equal to due from.")
	}
	if err := p.Err(); err != nil {
		return err
	}
	_, loc := s.userDay(c)
	query := url.Values{}
	for _, k := range []string{"is_completed", "has_due_date", "due_from", "due_to"} {
		if v, _, ok := p.Scalar(k); ok {
			query.Set(k, v)
		}
	}
	if from != nil {
		f.DueFrom = dayStart(*from, loc)
	}
	if to != nil {
		f.DueBefore = dayStart(to.AddDate(0, 0, 1), loc)
	}
	tasks, total, err := s.store.AccountTasks(c.Request().Context(), input.Account(c), f, perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]taskJSON, len(tasks))
	for i := range tasks {
		out[i] = taskOut(&tasks[i])
	}
	return c.JSON(http.StatusOK, pageOfQuery(s.base(c)+"/api/tasks", query, out, page, perPage, total, p.Sent("per_page")))
}
