// Package ical writes iCalendar (RFC 5545) feeds of all-day events, the
// few parts of the format a subscribed calendar needs: content lines
// ended by CRLF and folded at 75 octets without splitting a UTF-8
// sequence, TEXT values escaped, dates, UTC date-times and yearly rules.
// It knows nothing of Kith: the server turns its data into Events.
package ical

import (
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// UnknownYear is the year a yearly event whose year is unknown starts in.
// iCalendar has no date without a year, and a rule repeats from its first
// date on, so one must be chosen: 2000 is a leap year, so that 29 February
// exists in it, and it lies before any day the feed is looked at for.
// Calendar apps show such an event on its day every year; the year itself
// shows only where an app tells when a series began (an event's details in
// Thunderbird or Apple Calendar), never in the event's title.
const UnknownYear = 2000

// Date is a calendar date of the years 1 to 9999 that iCalendar writes;
// Year 0 is an unknown year, which only a yearly event may have.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// Event is an all-day event, on one date or every year on it.
type Event struct {
	// UID names the event across versions of the feed, so that a
	// calendar updates it rather than adding another.
	UID string
	// Stamp is DTSTAMP, when the event's data last changed: not the time
	// of the request, so that the body changes only when the data does.
	Stamp time.Time
	Date  Date
	// Yearly repeats the event on its month and day every year; one on
	// 29 February falls on the last day of February (28th in common
	// years).
	Yearly bool
	// Rule, when not empty, is the RRULE's value, for a repetition Yearly
	// does not say; Yearly is not read then.
	Rule        string
	Summary     string
	Description string // none when empty
}

// Calendar is a whole feed.
type Calendar struct {
	ProdID string // PRODID, "-//Owner//Product//EN"
	Name   string // shown by calendar apps as the calendar's name
	// Refresh is how often a subscriber should fetch the feed again (0:
	// no advice). Apple Calendar and Outlook read X-PUBLISHED-TTL, newer
	// clients REFRESH-INTERVAL (RFC 7986); Google Calendar keeps its own
	// pace.
	Refresh time.Duration
	Events  []Event
}

// Append appends the calendar's iCalendar text to b.
func (c *Calendar) Append(b []byte) []byte {
	w := writer{out: b}
	c.head(&w)
	for i := range c.Events {
		w.event(&c.Events[i])
	}
	w.raw("END:VCALENDAR")
	return w.out
}

// head writes what comes before the events; c.Events are not read.
func (c *Calendar) head(w *writer) {
	w.raw("BEGIN:VCALENDAR")
	w.raw("VERSION:2.0")
	w.text("PRODID:", c.ProdID)
	w.raw("CALSCALE:GREGORIAN")
	w.raw("METHOD:PUBLISH")
	if c.Name != "" {
		w.text("NAME:", c.Name)
		w.text("X-WR-CALNAME:", c.Name)
	}
	if c.Refresh > 0 {
		d := duration(c.Refresh)
		w.raw("REFRESH-INTERVAL;VALUE=DURATION:" + d)
		w.raw("X-PUBLISHED-TTL:" + d)
	}
}

// Writer writes a calendar to an io.Writer an event at a time, the same
// text as Append, so that a feed of any size is never held whole: Begin
// with the calendar (its Events are not read), Event for each event, End.
// What it writes waits in a buffer of writeChunk bytes; the first error of
// the io.Writer stops it, and every later call returns that error.
type Writer struct {
	dst io.Writer
	w   writer
	err error
}

// writeChunk is how much a Writer gathers before it writes.
const writeChunk = 32 << 10

// NewWriter returns a Writer to dst.
func NewWriter(dst io.Writer) *Writer {
	return &Writer{dst: dst, w: writer{out: make([]byte, 0, writeChunk+4<<10)}}
}

// Begin writes the calendar's head.
func (cw *Writer) Begin(c *Calendar) error {
	c.head(&cw.w)
	return cw.flush(false)
}

// Event writes one event.
func (cw *Writer) Event(e *Event) error {
	if cw.err != nil {
		return cw.err
	}
	cw.w.event(e)
	return cw.flush(false)
}

// End closes the calendar and writes what is left.
func (cw *Writer) End() error {
	if cw.err != nil {
		return cw.err
	}
	cw.w.raw("END:VCALENDAR")
	return cw.flush(true)
}

// flush writes the buffer when it is full, or when all is.
func (cw *Writer) flush(all bool) error {
	if cw.err == nil && (all || len(cw.w.out) >= writeChunk) {
		_, cw.err = cw.dst.Write(cw.w.out)
		cw.w.out = cw.w.out[:0]
	}
	return cw.err
}

// writer builds each content line in line, then appends it folded to
// out: no string is made per property.
type writer struct {
	out, line []byte
}

// raw writes a line that needs no escaping.
func (w *writer) raw(s string) {
	w.line = append(w.line[:0], s...)
	w.out = fold(w.out, w.line)
}

// text writes the property name (with its colon) and the TEXT value s.
func (w *writer) text(name, s string) {
	w.line = appendText(append(w.line[:0], name...), s)
	w.out = fold(w.out, w.line)
}

// date writes the property name with a DATE value d.
func (w *writer) date(name string, d Date) {
	w.line = d.append(append(w.line[:0], name...))
	w.out = fold(w.out, w.line)
}

func (w *writer) event(e *Event) {
	w.raw("BEGIN:VEVENT")
	w.text("UID:", e.UID)
	w.line = e.Stamp.UTC().AppendFormat(append(w.line[:0], "DTSTAMP:"...), "20060102T150405Z")
	w.out = fold(w.out, w.line)
	start := e.Date
	if start.Year == 0 {
		start.Year = UnknownYear
	}
	w.date("DTSTART;VALUE=DATE:", start)
	// DTEND is one day on; RFC 5545 makes a DATE start without it last a
	// day too, but older clients read it as no length at all. A date
	// after 9999-12-31 has no iCalendar form: there it is left out.
	if end := start.next(); end.Year <= 9999 {
		w.date("DTEND;VALUE=DATE:", end)
	}
	switch {
	case e.Rule != "":
		w.raw("RRULE:" + e.Rule)
	case e.Yearly:
		if start.Month == time.February && start.Day == 29 {
			// Plain FREQ=YEARLY skips common years (RFC 5545 §3.3.10).
			w.raw("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1")
		} else {
			w.raw("RRULE:FREQ=YEARLY")
		}
	}
	w.text("SUMMARY:", e.Summary)
	if e.Description != "" {
		w.text("DESCRIPTION:", e.Description)
	}
	// Birthdays and due dates do not make the day busy.
	w.raw("TRANSP:TRANSPARENT")
	w.raw("END:VEVENT")
}

// append appends the date in iCalendar's DATE form, YYYYMMDD.
func (d Date) append(b []byte) []byte {
	b = pad(b, d.Year, 4)
	b = pad(b, int(d.Month), 2)
	return pad(b, d.Day, 2)
}

// pad appends n in width digits, with leading zeros.
func pad(b []byte, n, width int) []byte {
	b = append(b, "0000"[:width]...)
	for i := len(b) - 1; i >= len(b)-width; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return b
}

// next is the day after d.
func (d Date) next() Date {
	t := time.Date(d.Year, d.Month, d.Day+1, 0, 0, 0, 0, time.UTC)
	return Date{t.Year(), t.Month(), t.Day()}
}

// duration writes d, rounded down to the second, as a DURATION value
// (RFC 5545 §3.3.6): PT1H, PT90M… in the largest unit that divides it.
func duration(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s%3600 == 0:
		return "PT" + strconv.FormatInt(s/3600, 10) + "H"
	case s%60 == 0:
		return "PT" + strconv.FormatInt(s/60, 10) + "M"
	}
	return "PT" + strconv.FormatInt(s, 10) + "S"
}

// maxOctets is the longest a line may be, CRLF not counted (RFC 5545
// §3.1).
const maxOctets = 75

// fold appends one content line, folded: after at most 75 octets (74 on
// continuation lines, whose leading space counts) comes CRLF and a space,
// never inside a UTF-8 sequence, nor between the backslash of an escape
// and what it escapes. RFC 5545 allows a fold anywhere, since unfolding
// comes first, but a reader that unescapes line by line does not.
func fold(b, s []byte) []byte {
	limit := maxOctets
	for len(s) > limit {
		cut := limit
		for !utf8.RuneStart(s[cut]) {
			cut-- // a sequence is at most 4 octets: this stops well above 0
		}
		if escapes(s[:cut]) {
			cut--
		}
		b = append(b, s[:cut]...)
		b = append(b, "\r\n "...)
		s = s[cut:]
		limit = maxOctets - 1
	}
	b = append(b, s...)
	return append(b, "\r\n"...)
}

// escapes reports whether s ends in the backslash of an escape: an odd
// run of backslashes, since "\\\\" is an escaped backslash.
func escapes(s []byte) bool {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// Text escapes s as a TEXT value (RFC 5545 §3.3.11): backslash,
// semicolon and comma get a backslash, a line break (CRLF, LF or CR)
// becomes \n, and the control characters TEXT cannot hold (all but tab)
// are left out. Invalid UTF-8 becomes U+FFFD, as the feed is UTF-8.
func Text(s string) string { return string(appendText(nil, s)) }

// appendText appends Text(s) to b.
func appendText(b []byte, s string) []byte {
	if !needsEscape(s) {
		return append(b, s...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' || c == ';' || c == ',':
			b = append(b, '\\', c)
		case c == '\r':
			b = append(b, `\n`...)
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\t':
			b = append(b, c)
		case c < 0x20 || c == 0x7f:
			// left out
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // RuneError for an invalid sequence
			i += size
			continue
		}
		i++
	}
	return b
}

// needsEscape reports whether Text would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == ';' || c == ',' || (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return !utf8.ValidString(s)
}
