package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// Child is one kind of a person's records (contact details, tasks,
// notes, …) as the person page lists, adds, edits and deletes it. Each is
// made from input's Child by childOf, so the page checks a form with the
// API's rules; plainErrors words its errors for the page.
type Child struct {
	Slug  string // the path segment, as the API's: contact-details
	Title string // the section's heading
	Noun  string // one of them, for buttons: "contact detail"
	// fields are the form's; c is for what depends on the account.
	fields func(a *App, c echo.Context) ([]Field, error)
	list   func(a *App, ctx context.Context, d dates, acct, person int64) ([]childItem, error)
	values func(a *App, ctx context.Context, d dates, acct, person, id int64) (url.Values, error)
	// save creates (id 0) or replaces one from the form; a missing row is
	// its not-found error, before any error of the form.
	save   func(a *App, c echo.Context, acct, person, id int64, p *input.Params) error
	remove func(st *store.Store, ctx context.Context, acct, person, id int64) error
}

// childItem is one record as the person page lists it.
type childItem struct {
	ID    int64
	Title string
	// Link, when it has an Href, makes the title a link (a contact
	// detail's).
	Link   contactLink
	Detail string
	// URL is a web address the record keeps (a gift's), shown as a link.
	URL string
	// Long is text of several lines (a note), kept as written.
	Long string
	// Task only: whether it is done, for the tick, and whether it is
	// open past its due date.
	Task, Done, Overdue bool
}

// childOf makes a Child of input's r: list reads the
// person's, show draws one, values fills the edit form with one.
func childOf[T, In any](r input.Child[T, In], slug, title, noun string,
	fields func(a *App, c echo.Context) ([]Field, error),
	list func(st *store.Store, ctx context.Context, acct, person int64) ([]T, error),
	show func(v *T, d dates) childItem,
	values func(v *T, d dates) url.Values,
) Child {
	return Child{Slug: slug, Title: title, Noun: noun, fields: fields, remove: r.Remove,
		list: func(a *App, ctx context.Context, d dates, acct, person int64) ([]childItem, error) {
			vs, err := list(a.store, ctx, acct, person)
			if err != nil {
				return nil, err
			}
			out := make([]childItem, len(vs))
			for i := range vs {
				out[i] = show(&vs[i], d)
			}
			return out, nil
		},
		values: func(a *App, ctx context.Context, d dates, acct, person, id int64) (url.Values, error) {
			v, err := r.Get(a.store, ctx, acct, person, id)
			if err != nil {
				return nil, err
			}
			return values(&v, d), nil
		},
		save: func(a *App, c echo.Context, acct, person, id int64, p *input.Params) error {
			ctx := c.Request().Context()
			in := r.Read(p, a.today(c))
			if id == 0 {
				if err := p.Err(); err != nil {
					return err
				}
				_, err := r.Create(a.store, ctx, acct, person, in)
				return err
			}
			// As the API's replace: a missing row's 404 before the form's 422.
			if err := input.Validated(p, func() error { _, err := r.Get(a.store, ctx, acct, person, id); return err }); err != nil {
				return err
			}
			_, err := r.Update(a.store, ctx, acct, person, id, in)
			return err
		},
	}
}

// fixed is fields that depend on nothing.
func fixed(fs ...Field) func(*App, echo.Context) ([]Field, error) {
	return func(*App, echo.Context) ([]Field, error) { return fs, nil }
}

// Children are the kinds the person page shows, in its order.
var Children = []Child{
	childOf(input.ContactDetails, "contact-details", "Contact details", "contact detail",
		fixed(
			Field{Name: "kind", Label: "Kind", Type: "select", Options: labelled(store.ContactDetailKinds), Fits: true},
			Field{Name: "value", Label: "Value", Type: "text", For: "email phone website social",
				Hint: "The email address, phone number, web address or handle. Not for a postal address."},
			Field{Name: "network", Label: "Network", Type: "text", For: "social", Hint: "For a social profile: mastodon, github, …"},
			Field{Name: "street", Label: "Street", Type: "textarea", For: "address"},
			Field{Name: "city", Label: "City", Type: "text", For: "address"},
			Field{Name: "postal_code", Label: "Postal code", Type: "text", For: "address"},
			Field{Name: "region", Label: "Region", Type: "text", For: "address"},
			Field{Name: "country", Label: "Country", Type: "text", For: "address",
				Hint: "A two-letter code or the country's name in English: DE, Germany, United States."},
			Field{Name: "label", Label: "Label", Type: "text", Hint: "home, work, mobile, …"},
		),
		func(st *store.Store, ctx context.Context, acct, person int64) ([]store.ContactDetail, error) {
			return st.ContactDetails(ctx, acct, person, "")
		},
		func(v *store.ContactDetail, _ dates) childItem {
			title := deref(v.Value)
			if v.Kind == "address" {
				title = joinSet(", ", v.Street, v.City, v.PostalCode, v.Region, v.Country)
			}
			return childItem{ID: v.ID, Title: title, Link: contactHref(v), Detail: joinSet(" · ", ptr(words(v.Kind)), v.Label, v.Network)}
		},
		func(v *store.ContactDetail, _ dates) url.Values {
			return strs("kind", ptr(v.Kind), "value", v.Value, "label", v.Label, "network", v.Network, "street", v.Street,
				"city", v.City, "postal_code", v.PostalCode, "region", v.Region, "country", v.Country)
		}),
	childOf(input.ImportantDates, "important-dates", "Important dates", "important date",
		fixed(
			Field{Name: "label", Label: "Label", Type: "text", Required: true, Hint: "Wedding, name day, …"},
			Field{Name: "date", Label: "Date", Type: "text", Required: true, Hint: "YYYY-MM-DD, or --MM-DD when the year is unknown"},
			Field{Name: "remind_yearly", Label: "Remind me every year", Type: "checkbox"},
		),
		(*store.Store).ImportantDates,
		func(v *store.ImportantDate, d dates) childItem {
			detail := d.monthDay(v.Month, v.Day)
			if v.Year != nil {
				detail = d.day(dateOfYMD(*v.Year, v.Month, v.Day))
			}
			if v.RemindYearly {
				detail += " · reminded every year"
			}
			return childItem{ID: v.ID, Title: v.Label, Detail: detail}
		},
		func(v *store.ImportantDate, _ dates) url.Values {
			date := "--" + pad2(v.Month) + "-" + pad2(v.Day)
			if v.Year != nil {
				date = pad4(*v.Year) + date[1:]
			}
			return url.Values{"label": {v.Label}, "date": {date}, "remind_yearly": {strconv.FormatBool(v.RemindYearly)}}
		}),
	reminderChild,
	childOf(input.Tasks, "tasks", "Tasks", "task",
		func(a *App, c echo.Context) ([]Field, error) {
			cats, err := a.store.TaskCategories(c.Request().Context(), input.Account(c))
			if err != nil {
				return nil, err
			}
			opts := []Option{{Value: "", Label: "—"}}
			for _, ct := range cats {
				opts = append(opts, Option{Value: itoa64(ct.ID), Label: ct.Name})
			}
			return []Field{
				{Name: "name", Label: "Task", Type: "text", Required: true, Hint: "Call about the new job, …"},
				{Name: "due_at", Label: "Due on", Type: "date"},
				{Name: "task_category_id", Label: "Category", Type: "select", Options: opts},
			}, nil
		},
		(*store.Store).Tasks,
		func(v *store.Task, d dates) childItem {
			it := childItem{ID: v.ID, Title: v.Name, Task: true, Done: v.IsCompleted}
			var parts []string
			if v.DueAt != nil {
				parts = append(parts, "due "+d.unixDay(*v.DueAt))
				it.Overdue = !v.IsCompleted && remind.DayOf(*v.DueAt, d.loc).Before(d.today)
			}
			if v.Category != nil {
				parts = append(parts, v.Category.Name)
			}
			if v.CompletedAt != nil {
				parts = append(parts, "done "+d.unixDay(*v.CompletedAt))
			}
			it.Detail = strings.Join(parts, " · ")
			return it
		},
		func(v *store.Task, d dates) url.Values {
			out := url.Values{"name": {v.Name}}
			if v.DueAt != nil {
				out.Set("due_at", d.iso(*v.DueAt))
			}
			if v.Category != nil {
				out.Set("task_category_id", itoa64(v.Category.ID))
			}
			return out
		}),
	childOf(input.Notes, "notes", "Notes", "note",
		fixed(Field{Name: "content", Label: "Note", Type: "textarea", Required: true}),
		firstPage((*store.Store).Notes),
		func(v *store.Note, d dates) childItem {
			return childItem{ID: v.ID, Long: v.Content, Detail: d.moment(v.CreatedAt)}
		},
		func(v *store.Note, _ dates) url.Values { return url.Values{"content": {v.Content}} }),
	childOf(input.Interactions, "interactions", "Interactions", "interaction",
		fixed(
			Field{Name: "kind", Label: "Kind", Type: "select", Options: labelled(store.InteractionKinds)},
			Field{Name: "happened_on", Label: "On", Type: "date", Required: true},
			Field{Name: "note", Label: "Note", Type: "textarea"},
		),
		firstPage((*store.Store).Interactions),
		func(v *store.Interaction, d dates) childItem {
			detail := v.HappenedOn
			if t, err := parseDate(v.HappenedOn); err == nil {
				detail = d.day(t)
			}
			return childItem{ID: v.ID, Title: words(v.Kind) + " · " + detail, Long: deref(v.Note)}
		},
		func(v *store.Interaction, _ dates) url.Values {
			return strs("kind", ptr(v.Kind), "happened_on", ptr(v.HappenedOn), "note", v.Note)
		}),
	childOf(input.Gifts, "gifts", "Gifts", "gift",
		fixed(
			Field{Name: "name", Label: "Gift", Type: "text", Required: true},
			Field{Name: "status", Label: "Status", Type: "select", Options: labelled(store.GiftStatuses)},
			Field{Name: "occasion", Label: "Occasion", Type: "text"},
			Field{Name: "url", Label: "Link", Type: "url"},
			Field{Name: "date", Label: "Date", Type: "date"},
		),
		(*store.Store).Gifts,
		func(v *store.Gift, d dates) childItem {
			var on *string
			if v.GiftedAt != nil {
				on = ptr(d.unixDay(*v.GiftedAt))
			}
			it := childItem{ID: v.ID, Title: v.Name, Detail: joinSet(" · ", ptr(words(v.Status)), v.Occasion, on)}
			if v.URL != nil && store.WebURL(*v.URL) {
				it.URL = *v.URL
			} else if v.URL != nil {
				it.Detail = joinSet(" · ", &it.Detail, v.URL)
			}
			return it
		},
		func(v *store.Gift, d dates) url.Values {
			out := strs("name", ptr(v.Name), "status", ptr(v.Status), "occasion", v.Occasion, "url", v.URL)
			if v.GiftedAt != nil {
				out.Set("date", d.iso(*v.GiftedAt))
			}
			return out
		}),
	childOf(input.LifeEvents, "life-events", "Life events", "life event",
		fixed(
			Field{Name: "description", Label: "What happened", Type: "text", Required: true},
			Field{Name: "happened_at", Label: "When", Type: "date", Required: true},
			Field{Name: "comment", Label: "Comment", Type: "text"},
			Field{Name: "should_be_reminded", Label: "Remind me every year", Type: "checkbox"},
		),
		(*store.Store).LifeEvents,
		func(v *store.LifeEvent, d dates) childItem {
			detail := d.unixDay(v.HappenedAt)
			if v.ShouldBeReminded {
				detail += " · reminded every year"
			}
			return childItem{ID: v.ID, Title: v.Description, Detail: detail, Long: deref(v.Comment)}
		},
		func(v *store.LifeEvent, d dates) url.Values {
			out := strs("description", ptr(v.Description), "comment", v.Comment)
			out.Set("happened_at", d.iso(v.HappenedAt))
			out.Set("should_be_reminded", strconv.FormatBool(v.ShouldBeReminded))
			return out
		}),
	childOf(input.WorkEntries, "work-history", "Work history", "job",
		fixed(
			Field{Name: "job_title", Label: "Job title", Type: "text", Required: true},
			Field{Name: "company_name", Label: "Company", Type: "text"},
			Field{Name: "duration", Label: "Duration", Type: "text", Hint: "2019–2023, three years, …"},
			Field{Name: "estimated_salary", Label: "Estimated salary", Type: "text"},
			Field{Name: "active", Label: "Their current job", Type: "checkbox"},
		),
		firstPage((*store.Store).WorkHistory),
		func(v *store.WorkEntry, _ dates) childItem {
			title := v.JobTitle
			if v.CompanyName != nil {
				title += " at " + *v.CompanyName
			}
			var now *string
			if v.Active {
				now = ptr("current")
			}
			return childItem{ID: v.ID, Title: title, Detail: joinSet(" · ", now, v.Duration, v.EstimatedSalary)}
		},
		func(v *store.WorkEntry, _ dates) url.Values {
			out := strs("job_title", ptr(v.JobTitle), "company_name", v.CompanyName, "duration", v.Duration, "estimated_salary", v.EstimatedSalary)
			out.Set("active", strconv.FormatBool(v.Active))
			return out
		}),
}

// webListMax is how many notes, interactions and jobs a person page shows:
// the first, in the API's order (interactions newest first; notes and
// jobs oldest first, so a person's 101st note is not on the page).
const webListMax = 100

// firstPage reads the first webListMax of a paginated list of a person's
// records.
func firstPage[T any](list func(*store.Store, context.Context, int64, int64, int64, int64) ([]T, int64, error)) func(*store.Store, context.Context, int64, int64) ([]T, error) {
	return func(st *store.Store, ctx context.Context, acct, person int64) ([]T, error) {
		vs, _, err := list(st, ctx, acct, person, webListMax, 0)
		return vs, err
	}
}

// childBySlug finds a kind by its path segment.
func childBySlug(slug string) (Child, bool) {
	for _, k := range Children {
		if k.Slug == slug {
			return k, true
		}
	}
	return Child{}, false
}

func ptr(s string) *string { return &s }

// joinSet joins the values that are set.
func joinSet(sep string, vs ...*string) string {
	var parts []string
	for _, v := range vs {
		if v != nil && *v != "" {
			parts = append(parts, *v)
		}
	}
	return strings.Join(parts, sep)
}

// strs makes form values of pairs of name and value; nil is empty.
func strs(kv ...any) url.Values {
	out := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if v, _ := kv[i+1].(*string); v != nil {
			out.Set(kv[i].(string), *v)
		}
	}
	return out
}

func pad2(n int64) string { return pad(n, 2) }
func pad4(n int64) string { return pad(n, 4) }
func pad(n int64, w int) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < w {
		s = "0" + s
	}
	return s
}
