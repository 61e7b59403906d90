package server

import (
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/ical"
	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// The calendar feed: each user may have one secret URL, /ical/<secret>.ics,
// that calendar apps subscribe to without a key. The secret is the only
// credential, so it is shown once, kept only as a hash, and kept out of
// the logs (logPath).

type calendarFeedJSON struct {
	Object string `json:"object"`
	// URL is the feed's address: only in the answer that made it.
	URL       *string `json:"url"`
	CreatedAt int64   `json:"created_at"`
}

func feedJSON(f store.CalendarFeed, url *string) dataBody[calendarFeedJSON] {
	return dataBody[calendarFeedJSON]{calendarFeedJSON{Object: "calendar_feed", URL: url, CreatedAt: f.CreatedAt}}
}

// handleCalendarFeedShow says whether the user has a feed, without its URL.
func (s *Server) handleCalendarFeedShow(c echo.Context) error {
	sess, _ := input.Session(c)
	f, err := s.store.CalendarFeed(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, feedJSON(f, nil))
}

// handleCalendarFeedCreate makes the user's feed, or a new URL for it that
// voids the old one.
func (s *Server) handleCalendarFeedCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	f, secret, err := s.store.CreateCalendarFeed(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	u := s.base(c) + "/ical/" + secret + ".ics"
	return c.JSON(http.StatusCreated, feedJSON(f, &u))
}

// handleCalendarFeedDelete revokes the user's feed; 404 when there is none.
func (s *Server) handleCalendarFeedDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	if err := s.store.DeleteCalendarFeed(c.Request().Context(), sess.UserID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// feedRefresh is how often the feed asks subscribers to fetch it again.
const feedRefresh = time.Hour

// handleCalendarFeed serves a feed by its secret, to anyone who has it.
// A secret of the wrong form is 404 before any query. The body depends on
// the data only (DTSTAMP is each row's updated_at), so its hash is a
// strong ETag; the feed's row keeps the last one and when it changed,
// which is Last-Modified, true after a deletion too. Recording a new ETag
// is the only write, and a HEAD may make it as well as a GET. The body is
// written as its rows are read, into a spool: the ETag is known only once
// it is whole, and the answer is sent from there (or not at all, for a
// calendar that has it already).
func (s *Server) handleCalendarFeed(c echo.Context) error {
	secret, ok := strings.CutSuffix(c.Param("feed"), ".ics")
	if !ok || !store.ValidFeedSecret(secret) {
		return store.ErrCalendarFeedNotFound
	}
	ctx := c.Request().Context()
	body := newSpool()
	defer body.Close()
	cw := ical.NewWriter(body)
	host := uidHost(s.base(c))
	d, err := s.store.ReadCalendarFeed(ctx, secret, func(h store.CalendarFeedHead) (store.CalendarRows, error) {
		cal := ical.Calendar{ProdID: "-//Kith//Calendar feed//EN", Name: "Kith", Refresh: feedRefresh}
		return feedRows(cw, input.UserZone(h.Timezone), host), cw.Begin(&cal)
	})
	if err == nil {
		err = cw.End()
	}
	if err != nil {
		return err
	}
	etag := `"` + hex.EncodeToString(body.Sum()[:16]) + `"`
	changed := d.ChangedAt
	if etag != d.ETag {
		if changed, err = s.store.RecordCalendarRender(ctx, d.FeedID, etag); err != nil {
			return err
		}
	}
	// changed may be a second ahead (RecordCalendarRender): Last-Modified
	// is never later than the answer itself (RFC 9110 §8.8.2.1).
	modified := time.Unix(min(changed, s.store.Now().Unix()), 0).UTC()
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "private, no-cache") // keep it, but ask each time
	h.Set("ETag", etag)
	h.Set(echo.HeaderLastModified, modified.Format(http.TimeFormat))
	if notModified(c.Request(), etag, changed) {
		return c.NoContent(http.StatusNotModified)
	}
	h.Set(echo.HeaderContentType, "text/calendar; charset=utf-8")
	// The length is known: a client that is sent less sees that it is cut.
	h.Set(echo.HeaderContentLength, strconv.FormatInt(body.Size(), 10))
	c.Response().WriteHeader(http.StatusOK)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	if _, err := body.WriteTo(c.Response()); err != nil {
		// The answer has begun: the connection is cut, as the export's.
		s.log.Info().Err(err).Str("request_id", requestID(c)).Msg("the calendar feed stopped after its answer began")
		panic(http.ErrAbortHandler)
	}
	return nil
}

// notModified applies a conditional GET (RFC 9110 §13.2.2): If-None-Match
// when sent, compared weakly as that header is, else If-Modified-Since,
// against the time the current body was first served.
func notModified(r *http.Request, etag string, changed int64) bool {
	if len(r.Header.Values("If-None-Match")) > 0 {
		return input.NoneMatch(r, etag)
	}
	since, err := http.ParseTime(r.Header.Get(echo.HeaderIfModifiedSince))
	return err == nil && since.Unix() >= changed
}

// uidHost is the host that UIDs end in, as RFC 5545 advises: the feed's
// own, so that two Kiths' events never share a UID.
func uidHost(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return "kith"
}

// firstYear is the earliest year a yearly event starts in as itself;
// birth years start there too (input.ExactAge). An earlier one starts in
// ical.UnknownYear: some calendar apps refuse or mishandle dates centuries
// back (Outlook none before 1601), and the feed is about the days to come.
const firstYear = 1900

// feedRows writes each row of a feed as its event to cw, dates in the
// user's time zone loc.
func feedRows(cw *ical.Writer, loc *time.Location, host string) store.CalendarRows {
	return feedRowsTo(cw.Event, loc, host)
}

// feedRowsTo turns each row of a feed into its event and hands it to
// event; a row with no event in iCalendar is left out. UIDs are
// "<kind>-<row id>@host". Each kind of row is one call here: a new source
// of dates is one more.
func feedRowsTo(event func(*ical.Event) error, loc *time.Location, host string) store.CalendarRows {
	uid := func(kind string, id int64) string { return kind + "-" + strconv.FormatInt(id, 10) + "@" + host }
	var e ical.Event
	return store.CalendarRows{
		Birthday: func(b *store.Birthday) error {
			if b.Year < firstYear || b.Month < 1 || b.Month > 12 || !input.RealDay(b.Year, time.Month(b.Month), b.Day) {
				return nil // no birth date exactAge lets in
			}
			e = ical.Event{UID: uid("birthday", b.PersonID), Stamp: time.Unix(b.UpdatedAt, 0),
				Date: ical.Date{Year: b.Year, Month: time.Month(b.Month), Day: b.Day}, Yearly: true,
				Summary: "Birthday of " + b.PersonName}
			return event(&e)
		},
		LifeEvent: func(ev *store.CalendarLifeEvent) error {
			date := dayIn(ev.HappenedAt, loc)
			if date.Year > 9999 {
				return nil // no iCalendar date: 31 December 9999 UTC is 1 January 10000 east of it
			}
			if date.Year < firstYear {
				date.Year = 0
			}
			e = ical.Event{UID: uid("life-event", ev.ID), Stamp: time.Unix(ev.UpdatedAt, 0), Date: date, Yearly: true,
				Summary: ev.Description + " (" + ev.PersonName + ")"}
			if ev.Comment != nil {
				e.Description = *ev.Comment
			}
			return event(&e)
		},
		Date: func(cd *store.CalendarDate) error {
			date := ical.Date{Month: time.Month(cd.Month), Day: cd.Day} // Year 0: unknown
			if cd.Year != nil && *cd.Year >= firstYear {
				date.Year = int(*cd.Year)
			}
			summary := cd.Label + " (" + cd.PersonName + ")"
			if remind.IsBirthday(cd.Label) {
				summary = "Birthday of " + cd.PersonName // one yearly event, so no age
			}
			e = ical.Event{UID: uid("date", cd.ID), Stamp: time.Unix(cd.UpdatedAt, 0), Date: date, Yearly: true,
				Summary: summary}
			return event(&e)
		},
		Task: func(t *store.CalendarTask) error {
			date := dayIn(t.DueAt, loc)
			if date.Year < 1 || date.Year > 9999 {
				return nil // no iCalendar date: the first or last day of the range, in a zone that leaves it
			}
			e = ical.Event{UID: uid("task", t.ID), Stamp: time.Unix(t.UpdatedAt, 0),
				Date: date, Summary: t.Name + " (" + t.PersonName + ")"}
			return event(&e)
		},
		Reminder: func(r *store.Reminder) error {
			start, err := time.Parse(time.DateOnly, r.StartsOn)
			if err != nil {
				return nil // the table's CHECK lets no other form in
			}
			e = ical.Event{UID: uid("reminder", r.ID), Stamp: time.Unix(r.UpdatedAt, 0),
				Date: ical.Date{Year: start.Year(), Month: start.Month(), Day: start.Day()}, Rule: reminderRule(r, start),
				Summary: r.Label + " (" + r.PersonName + ")"}
			return event(&e)
		},
	}
}

// reminderRule is the RRULE of a reminder a user set, none for one_time.
// A monthly one on the 29th or 30th takes the last of the month's days up
// to it, one on the 31st the month's last day; one on 29 February every
// year takes February's last: the days store.Occurrences gives.
func reminderRule(r *store.Reminder, start time.Time) string {
	var rule string
	switch r.Frequency {
	case store.FrequencyDaily:
		rule = "FREQ=DAILY"
	case store.FrequencyWeekly:
		rule = "FREQ=WEEKLY"
	case store.FrequencyMonthly:
		rule = "FREQ=MONTHLY"
	case store.FrequencyYearly:
		rule = "FREQ=YEARLY"
	default:
		return ""
	}
	rule += ";INTERVAL=" + strconv.FormatInt(r.Every, 10)
	switch {
	case r.Frequency == store.FrequencyMonthly && start.Day() == 29:
		rule += ";BYMONTHDAY=28,29;BYSETPOS=-1"
	case r.Frequency == store.FrequencyMonthly && start.Day() == 30:
		rule += ";BYMONTHDAY=28,29,30;BYSETPOS=-1"
	case r.Frequency == store.FrequencyMonthly && start.Day() == 31:
		rule += ";BYMONTHDAY=-1"
	case r.Frequency == store.FrequencyYearly && start.Month() == time.February && start.Day() == 29:
		rule += ";BYMONTH=2;BYMONTHDAY=-1"
	}
	if r.Until != nil {
		rule += ";UNTIL=" + strings.ReplaceAll(*r.Until, "-", "")
	}
	return rule
}

// dayIn is the date of the Unix time unix in loc, or the date a client
// gave alone (see remind.DayOf).
func dayIn(unix int64, loc *time.Location) ical.Date {
	y, m, d := remind.DayOf(unix, loc).Date()
	return ical.Date{Year: y, Month: m, Day: d}
}
