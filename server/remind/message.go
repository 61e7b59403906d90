package remind

import (
	"html/template"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"
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
	// Base is base_url without a trailing slash: the email links the
	// dashboard and each item's person under it. Empty, it links nothing.
	Base string
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

// Mail is the email's text and HTML parts. With Base, both link the
// dashboard, each item's person and each item's actions.
func (m Message) Mail() (text, html string) {
	days := make([]mailDay, len(m.Days))
	for i, d := range m.Days {
		days[i].Heading = m.dayHeading(d)
		for _, it := range d.Items {
			mi := mailItem{Title: it.Title, Actions: it.Actions}
			if m.Base != "" && it.PersonID != 0 {
				mi.Person = m.Base + "/people/" + strconv.FormatInt(it.PersonID, 10)
			}
			days[i].Items = append(days[i].Items, mi)
		}
	}
	data := map[string]any{"Name": m.FirstName, "Days": days}
	if m.Base != "" {
		data["Home"] = m.Base + "/"
	}
	var t, h strings.Builder
	// The templates are fixed and their data only strings: they cannot fail.
	_ = mailText().Execute(&t, data)
	_ = mailHTML().Execute(&h, data)
	return t.String(), h.String()
}

// mailDay and mailItem are a day and an item as the email shows them.
type mailDay struct {
	Heading string
	Items   []mailItem
}

type mailItem struct {
	Title, Person string
	Actions       []ItemAction
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

// mailHTML and mailText are parsed when the first digest is written, not
// at every start.
var mailHTML = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("digest").Parse(`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello {{.Name}},</p>
{{range .Days}}<h3 style="margin-bottom: 0.2em">{{.Heading}}</h3>
<ul style="margin-top: 0">{{range .Items}}<li>{{if .Person}}<a href="{{.Person}}">{{.Title}}</a>{{else}}{{.Title}}{{end}}
{{- range .Actions}} · <a href="{{.URL}}">{{.Label}}</a>{{end}}</li>{{end}}</ul>
{{end}}{{with .Home}}<p><a href="{{.}}">Open Kith</a></p>
{{end}}<p>— Kith</p>
</body></html>
`))
})

// mailText is the plain part: each item's links indented under it.
var mailText = sync.OnceValue(func() *texttemplate.Template {
	return texttemplate.Must(texttemplate.New("digest").Parse(`Hello {{.Name}},
{{range .Days}}
{{.Heading}}
{{range .Items}}• {{.Title}}
{{with .Person}}    {{.}}
{{end}}{{range .Actions}}    {{.Label}}: {{.URL}}
{{end}}{{end}}{{end}}{{with .Home}}
Open Kith: {{.}}
{{end}}
— Kith
`))
})

// Sample is the message "send a test" delivers: one made-up item, so that
// the user sees what a digest looks like where it arrives.
func Sample(date, firstName, email string, userID int64) Message {
	return Message{Date: date, FirstName: firstName, Email: email, UserID: userID, Test: true,
		Days: []Day{{Date: date, Items: []Item{{Kind: KindBirthday, Person: "Ada Lovelace",
			Title: "This is a test from Kith: your reminders will arrive here."}}}}}
}
