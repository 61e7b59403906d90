package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// phoneView is the Phone and calendar page: how a phone syncs the address
// book over CardDAV, and the calendar feed.
type phoneView struct {
	// DAV is the CardDAV server's address, Book the account's address
	// book's, UserName what a client signs in as.
	DAV, Book, UserName string
	// HasFeed says whether the user has a calendar feed, made FeedMade;
	// FeedURL is a feed's address just made, shown this once.
	HasFeed  bool
	FeedMade string
	FeedURL  shown
}

func (a *App) fillPhone(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	base := a.base(c) + "/dav/"
	v.DAV, v.Book, v.UserName = base, base+itoa64(sess.UserID)+"/addressbooks/contacts/", sess.Email
	v.FeedURL = shown{"new-feed-url", st.feedURL}
	feed, err := a.store.CalendarFeed(c.Request().Context(), sess.UserID)
	switch {
	case err == nil:
		v.HasFeed, v.FeedMade = true, a.datesOf(c).moment(feed.CreatedAt)
	case !errors.Is(err, store.ErrCalendarFeedNotFound):
		return err
	}
	return nil
}

// handleFeedCreate makes the calendar feed, or a new address for it
// that voids the old one, and shows the address this once.
func (a *App) handleFeedCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	_, secret, err := a.store.CreateCalendarFeed(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, "phone", settingsState{feedURL: a.base(c) + "/ical/" + secret + ".ics"})
}

func (a *App) handleFeedDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	err := a.store.DeleteCalendarFeed(c.Request().Context(), sess.UserID)
	if errors.Is(err, store.ErrCalendarFeedNotFound) {
		return a.seeOther(c, "/settings/phone#calendar", "There was no calendar feed to revoke.")
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/phone#calendar", "Calendar feed revoked: its address no longer works.")
}
