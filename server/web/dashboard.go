package web

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
)

// dashboardDays is how far ahead the dashboard looks.
const dashboardDays = 14

type dashboardView struct {
	Today string
	Days  int
	// Coming are the birthdays, important dates and life events ahead.
	Coming []dashboardDay
	Tasks  []dashboardTask
	Calls  []dashboardCall
	// FirstRun is an account without persons yet: the dashboard offers
	// the ways to get some.
	FirstRun bool
	// Zones, while the user's time zone is still UTC, are the zones the
	// server knows, for the script that offers the browser's own.
	Zones string
}

type dashboardDay struct {
	Date, When string
	Items      []remind.Item
}

type dashboardTask struct {
	ID, PersonID int64
	Name, Person string
	Due, When    string
	Overdue      bool
	ToggleAction string
}

type dashboardCall struct {
	PersonID     int64
	Person, When string
	Overdue      bool
	due          time.Time
}

// handleDashboard is the home page: what is coming up, what is to do,
// who is due for a call; what the digests send, for the next two weeks.
func (a *App) handleDashboard(c echo.Context) error {
	d := a.datesOf(c)
	src, err := a.o.Upcoming(c.Request().Context(), input.Account(c), input.User(c), d.today, dashboardDays, d.loc)
	if err != nil {
		return err
	}
	v := dashboardView{Today: d.day(d.today), Days: dashboardDays}
	has, err := a.store.HasPersons(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	v.FirstRun = !has
	if sess, _ := input.Session(c); sess.Timezone == "UTC" {
		v.Zones = input.ZoneList
	}
	for _, day := range remind.Upcoming(src, d.today, dashboardDays, d.loc) {
		date, _ := time.Parse(time.DateOnly, day.Date)
		var coming []remind.Item
		for _, it := range day.Items {
			switch it.Kind {
			case remind.KindTask:
				v.Tasks = append(v.Tasks, dashTask(d, it, date))
			case remind.KindStayInTouch:
				// Due today or before: one called since is due again
				// later, and leaves the list.
				if call := dashCall(d, it, date); !call.due.After(d.today) {
					v.Calls = append(v.Calls, call)
				}
			default:
				coming = append(coming, it)
			}
		}
		if len(coming) > 0 {
			v.Coming = append(v.Coming, dashboardDay{Date: d.day(date), When: d.relative(date), Items: coming})
		}
	}
	// The longest overdue first.
	slices.SortStableFunc(v.Calls, func(x, y dashboardCall) int { return x.due.Compare(y.due) })
	return a.render(c, http.StatusOK, "dashboard", Page{Title: "Dashboard", Nav: "dashboard", Data: v})
}

func dashTask(d dates, it remind.Item, date time.Time) dashboardTask {
	t := dashboardTask{ID: it.TaskID, PersonID: it.PersonID, Name: it.Label, Person: it.Person,
		ToggleAction: "/tasks/" + itoa64(it.TaskID) + "/toggle"}
	if t.Name == "" {
		t.Name = it.Title
	}
	if due, err := time.Parse(time.DateOnly, it.DueOn); err == nil && due.Before(d.today) {
		date, t.Overdue = due, true
	}
	t.Due, t.When = d.day(date), d.relative(date)
	return t
}

// dashCall says when the person is due: "overdue by 13 days", "due
// today", "due in 3 days", counted in days of the user's calendar.
func dashCall(d dates, it remind.Item, date time.Time) dashboardCall {
	if due, err := time.Parse(time.DateOnly, it.DueOn); err == nil {
		date = due
	}
	call := dashboardCall{PersonID: it.PersonID, Person: it.Person, When: "due " + d.relative(date), due: date}
	switch late := int(d.today.Sub(date).Hours() / 24); {
	case late == 1:
		call.When, call.Overdue = "overdue by 1 day", true
	case late > 1:
		call.When, call.Overdue = "overdue by "+strconv.Itoa(late)+" days", true
	}
	return call
}
