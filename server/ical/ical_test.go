package ical

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	goical "github.com/emersion/go-ical"
)

// The writer is checked by reading its output with an independent
// parser, github.com/emersion/go-ical (a test dependency only), and by
// looking at the raw octets for what a parser forgives: bare LF, long
// lines, a UTF-8 sequence split by a fold.

var stamp = time.Date(2026, 3, 15, 12, 30, 5, 0, time.UTC)

// checkRaw fails unless every line of body ends in CRLF, has at most 75
// octets, is valid UTF-8 on its own and is not folded inside an escape,
// and returns the lines.
func checkRaw(t testing.TB, body []byte) []string {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Fatalf("the body does not end in CRLF: %q", body[max(0, len(body)-20):])
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\r\n"), "\r\n")
	for i, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Errorf("line %d has %d octets: %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d is not valid UTF-8 on its own (a fold split a character): %q", i+1, l)
		}
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") && escapes([]byte(l)) {
			t.Errorf("line %d is folded inside an escape: %q", i+1, l)
		}
	}
	return lines
}

// parse reads body with go-ical and returns its events.
func parse(t testing.TB, body []byte) (*goical.Calendar, []goical.Event) {
	t.Helper()
	cal, err := goical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("go-ical refuses the feed: %v\n%s", err, body)
	}
	return cal, cal.Events()
}

func text(t testing.TB, props goical.Props, name string) string {
	t.Helper()
	s, err := props.Text(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func TestCalendarProperties(t *testing.T) {
	c := Calendar{ProdID: "-//Kith//Calendar feed//EN", Name: "Kith, mine", Refresh: time.Hour}
	body := c.Append(nil)
	checkRaw(t, body)
	cal, events := parse(t, body)
	if len(events) != 0 {
		t.Errorf("%d events in an empty calendar", len(events))
	}
	for name, want := range map[string]string{
		"VERSION": "2.0", "PRODID": "-//Kith//Calendar feed//EN", "CALSCALE": "GREGORIAN", "METHOD": "PUBLISH",
		"X-WR-CALNAME": "Kith, mine", "NAME": "Kith, mine", "X-PUBLISHED-TTL": "PT1H",
	} {
		if got := text(t, cal.Props, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if d, err := cal.Props.Get("REFRESH-INTERVAL").Duration(); err != nil || d != time.Hour {
		t.Errorf("REFRESH-INTERVAL %v, %v", d, err)
	}
	for d, want := range map[time.Duration]string{90 * time.Minute: "PT90M", 45 * time.Second: "PT45S", 24 * time.Hour: "PT24H"} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %s, want %s", d, got, want)
		}
	}
	if bytes.Contains((&Calendar{ProdID: "x"}).Append(nil), []byte("NAME")) {
		t.Error("a calendar without a name has a name property")
	}
}

func TestEvents(t *testing.T) {
	long := strings.Repeat("Ünïcödé, ok; ", 15) + "🎂"
	c := Calendar{ProdID: "-//Kith//Calendar feed//EN", Events: []Event{
		{UID: "birthday-1@kith.example", Stamp: stamp, Date: Date{1964, time.March, 15}, Yearly: true,
			Summary: `Birthday: O'Brien, Jim; "Jr." \ 🎉`},
		{UID: "birthday-2@kith.example", Stamp: stamp, Date: Date{1996, time.February, 29}, Yearly: true, Summary: "Leap"},
		{UID: "date-3@kith.example", Stamp: stamp, Date: Date{0, time.July, 4}, Yearly: true, Summary: "No year"},
		{UID: "task-4@kith.example", Stamp: stamp, Date: Date{2026, time.December, 31}, Summary: "Call (Pam)",
			Description: "line one\nline two\r\nthree\rfour\ttab\x00\x07" + long},
		{UID: "task-5@kith.example", Stamp: stamp, Date: Date{9999, time.December, 31}, Summary: "The end"},
	}}
	body := c.Append(nil)
	raw := checkRaw(t, body)
	_, events := parse(t, body)
	if len(events) != 5 {
		t.Fatalf("%d events, want 5", len(events))
	}
	type want struct {
		uid, summary, description, start, end, rrule string
		occurrences                                  []string // the first of the series
	}
	wants := []want{
		{"birthday-1@kith.example", `Birthday: O'Brien, Jim; "Jr." \ 🎉`, "", "19640315", "19640316", "FREQ=YEARLY",
			[]string{"1964-03-15", "1965-03-15", "1966-03-15"}},
		{"birthday-2@kith.example", "Leap", "", "19960229", "19960301", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1",
			[]string{"1996-02-29", "1997-02-28", "1998-02-28", "1999-02-28", "2000-02-29"}},
		{"date-3@kith.example", "No year", "", "20000704", "20000705", "FREQ=YEARLY", []string{"2000-07-04", "2001-07-04"}},
		{"task-4@kith.example", "Call (Pam)", "line one\nline two\nthree\nfour\ttab" + long, "20261231", "20270101", "", nil},
		{"task-5@kith.example", "The end", "", "99991231", "", "", nil},
	}
	for i, w := range wants {
		ev := events[i]
		if got := text(t, ev.Props, "UID"); got != w.uid {
			t.Errorf("event %d: UID %q, want %q", i, got, w.uid)
		}
		if got := text(t, ev.Props, "SUMMARY"); got != w.summary {
			t.Errorf("%s: SUMMARY %q, want %q", w.uid, got, w.summary)
		}
		if got := ev.Props.Get("DESCRIPTION"); (got == nil) != (w.description == "") {
			t.Errorf("%s: DESCRIPTION %v, want %q", w.uid, got, w.description)
		} else if got != nil && text(t, ev.Props, "DESCRIPTION") != w.description {
			t.Errorf("%s: DESCRIPTION %q, want %q", w.uid, text(t, ev.Props, "DESCRIPTION"), w.description)
		}
		for name, value := range map[string]string{"DTSTART": w.start, "DTEND": w.end} {
			p := ev.Props.Get(name)
			if value == "" {
				if p != nil {
					t.Errorf("%s: %s %q, want none", w.uid, name, p.Value)
				}
				continue
			}
			if p == nil || p.Value != value || p.ValueType() != goical.ValueDate {
				t.Errorf("%s: %s %+v, want the DATE %s", w.uid, name, p, value)
			}
		}
		start, err := ev.DateTimeStart(time.UTC)
		if err != nil || start.Format("20060102") != w.start {
			t.Errorf("%s: start %v, %v", w.uid, start, err)
		}
		if got, err := ev.Props.DateTime("DTSTAMP", time.UTC); err != nil || !got.Equal(stamp) {
			t.Errorf("%s: DTSTAMP %v, %v", w.uid, got, err)
		}
		if got := text(t, ev.Props, "TRANSP"); got != "TRANSPARENT" {
			t.Errorf("%s: TRANSP %q", w.uid, got)
		}
		rule := ev.Props.Get("RRULE")
		if (rule == nil) != (w.rrule == "") || rule != nil && rule.Value != w.rrule {
			t.Errorf("%s: RRULE %+v, want %q", w.uid, rule, w.rrule)
			continue
		}
		if rule == nil {
			continue
		}
		set, err := ev.RecurrenceSet(time.UTC)
		if err != nil {
			t.Fatalf("%s: %v", w.uid, err)
		}
		var got []string
		it := set.Iterator()
		for range w.occurrences {
			d, ok := it()
			if !ok {
				break
			}
			got = append(got, d.Format(time.DateOnly))
		}
		if strings.Join(got, " ") != strings.Join(w.occurrences, " ") {
			t.Errorf("%s: occurs %v, want %v", w.uid, got, w.occurrences)
		}
	}
	if !strings.Contains(string(body), `SUMMARY:Birthday: O'Brien\, Jim\; "Jr." \\ 🎉`) {
		t.Errorf("the summary is not escaped as RFC 5545 says:\n%s", body)
	}
	folded := 0
	for _, l := range raw {
		if strings.HasPrefix(l, " ") {
			folded++
		}
	}
	if folded < 3 {
		t.Errorf("the long description was folded into only %d continuation lines", folded)
	}
}

// TestFolding puts each kind of UTF-8 sequence across the 75th octet.
func TestFolding(t *testing.T) {
	for _, tc := range []struct{ name, s string }{
		{"ASCII", strings.Repeat("a", 300)},
		{"exactly 75 octets", "SUMMARY:" + strings.Repeat("b", 67)},
		{"76 octets", "SUMMARY:" + strings.Repeat("b", 68)},
		{"2-octet", "SUMMARY:" + strings.Repeat("é", 100)},
		{"3-octet", "SUMMARY:" + strings.Repeat("€", 100)},
		{"4-octet, shifted by one", "SUMMARY:x" + strings.Repeat("🎂", 100)},
		{"4-octet, shifted by two", "SUMMARY:xy" + strings.Repeat("🎂", 100)},
		{"4-octet, shifted by three", "SUMMARY:xyz" + strings.Repeat("🎂", 100)},
		{"escapes", "SUMMARY:" + strings.Repeat(`a\;`, 100)},
		{"escapes, shifted", "SUMMARY:x" + strings.Repeat(`a\;`, 100)},
		{"escaped backslashes", "SUMMARY:" + strings.Repeat(`\\`, 100)},
		{"escaped backslashes, shifted", "SUMMARY:x" + strings.Repeat(`\\\,`, 100)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := fold(nil, []byte(tc.s))
			lines := checkRaw(t, b)
			unfolded := lines[0]
			for i, l := range lines[1:] {
				if !strings.HasPrefix(l, " ") {
					t.Fatalf("continuation %d does not start with a space: %q", i+1, l)
				}
				unfolded += l[1:]
			}
			if unfolded != tc.s {
				t.Errorf("unfolded %q, want %q", unfolded, tc.s)
			}
			if len(tc.s) <= 75 && len(lines) != 1 {
				t.Errorf("a line of %d octets was folded", len(tc.s))
			}
			// Folding uses the room: no line but the last is short by more
			// than a character's length.
			for i, l := range lines[:len(lines)-1] {
				if len(l) < 72 {
					t.Errorf("line %d has only %d octets", i+1, len(l))
				}
			}
		})
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":             "plain",
		`a\b;c,d`:           `a\\b\;c\,d`,
		"a\nb\r\nc\rd":      `a\nb\nc\nd`,
		"tab\tkept":         "tab\tkept",
		"bell\x07nul\x00x":  "bellnulx",
		"del\x7fx":          "delx",
		"bad \xff utf8":     "bad \uFFFD utf8",
		"émoji 🎂, ok":       `émoji 🎂\, ok`,
		`:colon "quote"`:    `:colon "quote"`,
		"\r\n\r\n":          `\n\n`,
		"trailing \\":       `trailing \\`,
		"only\r":            `only\n`,
		"mixed\n\r":         `mixed\n\n`,
		"\u2028separator":   "\u2028separator",
		"zero\u200bwidth, ": "zero\u200bwidth\\, ",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzEvent writes an event of any summary and description: the feed
// must stay well-formed, and go-ical must read back the text, less what
// TEXT cannot hold (control characters) and with line breaks as \n.
func FuzzEvent(f *testing.F) {
	for _, s := range []string{"", "Jim, Pam; and \\ 🎂", strings.Repeat("é🎂€a", 40), "a\r\nb\rc\nd", "\x00\x7f\xff"} {
		f.Add(s, s+s)
	}
	f.Fuzz(func(t *testing.T, summary, description string) {
		c := Calendar{ProdID: "-//Kith//Fuzz//EN", Events: []Event{{UID: "x@kith", Stamp: stamp, Date: Date{2026, 1, 2},
			Summary: summary, Description: description}}}
		body := c.Append(nil)
		checkRaw(t, body)
		_, events := parse(t, body)
		if len(events) != 1 {
			t.Fatalf("%d events", len(events))
		}
		if got, want := text(t, events[0].Props, "SUMMARY"), readable(summary); got != want {
			t.Errorf("SUMMARY %q, want %q", got, want)
		}
		if want := readable(description); want != "" {
			if got := text(t, events[0].Props, "DESCRIPTION"); got != want {
				t.Errorf("DESCRIPTION %q, want %q", got, want)
			}
		}
	})
}

// readable is what a reader gets back of s: its line breaks as LF, without
// the control characters TEXT cannot hold, invalid UTF-8 as U+FFFD.
func readable(s string) string {
	var b strings.Builder
	// Ranging yields U+FFFD for each octet of an invalid sequence, as Text
	// writes it.
	for _, r := range strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n") {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// brokenWriter takes limit bytes, then fails.
type brokenWriter struct {
	got   bytes.Buffer
	limit int
}

func (w *brokenWriter) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.limit {
		return 0, errors.New("broken")
	}
	return w.got.Write(p)
}

// TestWriterIsAppend: a calendar written an event at a time is Append's
// text, byte for byte, however many chunks it takes; a destination that
// fails stops the Writer, and every later call says so.
func TestWriterIsAppend(t *testing.T) {
	c := Calendar{ProdID: "-//Kith//Test//EN", Name: "Kith", Refresh: time.Hour}
	for i := range 2000 {
		c.Events = append(c.Events, Event{UID: fmt.Sprintf("e-%d@x", i), Stamp: time.Unix(int64(i)*86400, 0),
			Date: Date{Year: 1900 + i%200, Month: time.Month(1 + i%12), Day: 1 + i%29}, Yearly: i%2 == 0,
			Summary: strings.Repeat("Ünïcode, ; \\ ", i%20), Description: strings.Repeat("d", i%90)})
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	head := c
	head.Events = nil
	if err := w.Begin(&head); err != nil {
		t.Fatal(err)
	}
	for i := range c.Events {
		if err := w.Event(&c.Events[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	want := c.Append(nil)
	if len(want) < 4*writeChunk || !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("the Writer's %d bytes are not Append's %d", out.Len(), len(want))
	}

	bw := &brokenWriter{limit: 2 * writeChunk}
	w = NewWriter(bw)
	w.Begin(&head)
	var err error
	for i := 0; err == nil && i < len(c.Events); i++ {
		err = w.Event(&c.Events[i])
	}
	if err == nil || w.End() != err || w.Event(&c.Events[0]) != err || !bytes.HasPrefix(want, bw.got.Bytes()) {
		t.Errorf("a broken destination: %v, then %v; %d bytes taken", err, w.End(), bw.got.Len())
	}
}
