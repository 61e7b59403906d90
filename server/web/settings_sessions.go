package web

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// sessionsView is the Security page's Sessions part: where the user is
// signed in to the web app, so that a browser they do not know, or left
// signed in elsewhere, can be signed out from here.
type sessionsView struct {
	Rows []sessionRow
	// Others counts the sessions besides this browser's.
	Others int
}

// sessionRow is a web session as the Security page lists it.
type sessionRow struct {
	ID      int64
	Device  string // "Firefox on Linux"
	Current bool   // this browser's
	Seen    string // "Active now", "Last seen 2 hours ago"
	From    string // the address it was last seen from
	// SignedIn is when it signed in, with the address it signed in from
	// when that differs.
	SignedIn, SignedInFrom string
}

func (a *App) fillSessions(c echo.Context, v *securityView) error {
	sess, _ := input.Session(c)
	list, err := a.store.WebSessions(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	d, now := a.datesOf(c), a.store.Now().Unix()
	v.Sessions = sessionsView{Rows: make([]sessionRow, len(list))}
	for i, w := range list {
		r := sessionRow{ID: w.ID, Device: deviceName(w.UserAgent), Current: w.ID == sess.KeyID,
			Seen: "Last seen " + ago(now, w.LastSeenAt, d), From: w.LastSeenIP, SignedIn: d.moment(w.CreatedAt)}
		if r.Current {
			// This request is the session seen now, from where it is now.
			r.Seen, r.From = "Active now", c.RealIP()
		} else {
			v.Sessions.Others++
		}
		if w.CreatedIP != w.LastSeenIP {
			r.SignedInFrom = w.CreatedIP
		}
		v.Sessions.Rows[i] = r
	}
	// This browser heads the list: its last_seen_at may be minutes old.
	rows := v.Sessions.Rows
	for i, r := range rows {
		if r.Current {
			copy(rows[1:i+1], rows[:i])
			rows[0] = r
		}
	}
	return nil
}

// ago says how long before now a moment was: "just now", "5 minutes
// ago", "2 hours ago", "3 days ago", and beyond a week its date.
func ago(now, then int64, d dates) string {
	s := now - then
	plural := func(n int64, unit string) string {
		if n != 1 {
			unit += "s"
		}
		return strconv.FormatInt(n, 10) + " " + unit + " ago"
	}
	switch {
	case s < 60:
		return "just now"
	case s < 3600:
		return plural(s/60, "minute")
	case s < 86400:
		return plural(s/3600, "hour")
	case s < 7*86400:
		return plural(s/86400, "day")
	}
	return "on " + d.unixDay(then)
}

// handleSessionSignOut signs out one of the user's other browsers: its
// cookie signs nobody in from now on. Another user's session is not found.
func (a *App) handleSessionSignOut(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "session", store.ErrWebSessionNotFound)
	if err != nil {
		return err
	}
	w, err := a.store.RevokeWebSession(c.Request().Context(), sess.UserID, id)
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/security#sessions", deviceName(w.UserAgent)+" is signed out.")
}

// handleSessionsSignOutOthers signs out every browser but this one.
func (a *App) handleSessionsSignOutOthers(c echo.Context) error {
	sess, _ := input.Session(c)
	n, err := a.store.RevokeOtherWebSessions(c.Request().Context(), sess.UserID, sess.KeyID)
	if err != nil {
		return err
	}
	flash := "Every other session is signed out."
	if n == 0 {
		flash = "There were no other sessions."
	}
	return a.seeOther(c, "/settings/security#sessions", flash)
}
