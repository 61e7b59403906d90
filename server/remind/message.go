package remind

import (
	"html/template"
	"strings"
	"time"
)

// Message is a day's digest, ready for any channel.
type Message struct {
	// Date is the digest's day, YYYY-MM-DD in the user's zone.
	Date string
	// To is the user: their first name greets them, their email is the
	// email channel's address.
	FirstName, Email string
	UserID           int64
	Days             []Day
	// Test marks the sample that "send a test" delivers.
	Test bool
}

// Subject is the message's title.
func (m Message) Subject() string {
	prefix := "Kith"
	if m.Test {
		prefix = "Kith (test)"
	}
	d, err := time.Parse(time.DateOnly, m.Date)
	if err != nil {
		return prefix + ": your reminders"
	}
	return prefix + ": your reminders for " + d.Format("Monday 2 January")
}

// Text is the plain body: one heading a day, one line an item.
func (m Message) Text() string {
	var b strings.Builder
	for i, d := range m.Days {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(m.dayHeading(d) + "\n")
		for _, it := range d.Items {
			b.WriteString("• " + it.Title + "\n")
		}
	}
	return b.String()
}

// Mail is the email's text and HTML parts.
func (m Message) Mail() (text, html string) {
	text = "Hello " + m.FirstName + ",\n\n" + m.Text() + "\n— Kith\n"
	var b strings.Builder
	days := make([]struct {
		Heading string
		Items   []Item
	}, len(m.Days))
	for i, d := range m.Days {
		days[i].Heading, days[i].Items = m.dayHeading(d), d.Items
	}
	// The template is fixed and its data only strings: it cannot fail.
	_ = mailHTML.Execute(&b, map[string]any{"Name": m.FirstName, "Days": days})
	return text, b.String()
}

func (m Message) dayHeading(d Day) string {
	t, err := time.Parse(time.DateOnly, d.Date)
	if err != nil {
		return d.Date
	}
	if d.Date == m.Date {
		return "Today, " + t.Format("Monday 2 January")
	}
	return t.Format("Monday 2 January")
}

var mailHTML = template.Must(template.New("digest").Parse(`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello {{.Name}},</p>
{{range .Days}}<h3 style="margin-bottom: 0.2em">{{.Heading}}</h3>
<ul style="margin-top: 0">{{range .Items}}<li>{{.Title}}</li>{{end}}</ul>
{{end}}<p>— Kith</p>
</body></html>
`))

// Sample is the message "send a test" delivers: one made-up item, so that
// the user sees what a digest looks like where it arrives.
func Sample(date, firstName, email string, userID int64) Message {
	return Message{Date: date, FirstName: firstName, Email: email, UserID: userID, Test: true,
		Days: []Day{{Date: date, Items: []Item{{Kind: KindBirthday, Person: "Ada Lovelace",
			Title: "This is a test from Kith: your reminders will arrive here."}}}}}
}
