package transfer

import (
	"strings"
	"time"

	"kith/server/input"
	"kith/store"
)

// rows maps the contact's collections (§4.5, §4.6).
func (c *contactMap) rows(o jobj) {
	cols := o.collections()
	for _, v := range cols["contact_field"] {
		c.field(v)
	}
	for _, v := range cols["address"] {
		c.address(v)
	}
	for _, v := range cols["note"] {
		if r, ok := c.m.object(v.path, v.v); ok {
			if body := r.props().raw("body"); body != nil && strings.TrimSpace(*body) != "" {
				c.note(r.place(), *body, r.unix("created_at"))
			}
		}
	}
	for _, v := range cols["call"] {
		if r, ok := c.m.object(v.path, v.v); ok {
			p := r.props()
			c.interaction(r, "call", p.date("called_at"), text(p.raw("content")))
		}
	}
	for _, v := range cols["activity"] {
		c.activity(o, v)
	}
	for _, v := range cols["conversation"] {
		c.conversation(v)
	}
	for _, v := range cols["task"] {
		c.task(v)
	}
	for _, v := range cols["gift"] {
		c.gift(v)
	}
	for _, v := range cols["life_event"] {
		c.lifeEvent(v)
	}
	for _, v := range cols["reminder"] {
		c.reminder(v)
	}
	for _, v := range cols["debt"] {
		c.debt(v)
	}
	for _, v := range cols["pet"] {
		if r, ok := c.m.object(v.path, v.v); ok {
			p := r.props()
			name, category := p.str("name"), p.str("category")
			switch {
			case name == nil:
			case category != nil:
				c.note(r.place(), "Pet: "+*name+" ("+*category+")", r.unix("created_at"))
			default:
				c.note(r.place(), "Pet: "+*name, r.unix("created_at"))
			}
		}
	}
}

// field maps a contact field by its type (§4.5).
func (c *contactMap) field(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	value, typeID := p.str("data"), p.str("type")
	if c.m.pass != 2 || value == nil {
		return
	}
	if typeID == nil {
		c.problem(r.place(), "contact_field", "the contact field has no type")
		return
	}
	t, ok := c.m.fieldTypes[*typeID]
	if !ok {
		c.problem(r.place(), "contact_field", "the contact field type "+*typeID+" is not in the file")
		return
	}
	values := map[string]any{"value": *value}
	switch {
	case t.kind == "email" || t.protocol == "mailto:":
		values["kind"] = "email"
	case t.kind == "phone" || t.protocol == "tel:":
		values["kind"] = "phone"
	case websiteTypes[strings.ToLower(t.name)]:
		values["kind"] = "website"
	default:
		values["kind"], values["network"] = "social", strings.ToLower(t.name)
	}
	c.detail(r.place(), values)
}

// detail adds a contact detail, unless Kith refuses it.
func (c *contactMap) detail(place Place, values map[string]any) {
	kind, _ := values["kind"].(string)
	if d, ok := checked(c, place, kind, values, nil, func(ps *input.Params) store.ContactDetail {
		in := input.ContactDetail(ps)
		return store.ContactDetail{Kind: in.Kind, Label: in.Label, Value: in.Value, Network: in.Network, Street: in.Street,
			City: in.City, PostalCode: in.PostalCode, Region: in.Region, Country: in.Country}
	}); ok {
		c.rec.ContactDetails = append(c.rec.ContactDetails, d)
	}
}

// address maps an address; a country Kith cannot name goes after the
// region, as the vCard import does.
func (c *contactMap) address(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	values := map[string]any{"kind": "address"}
	if label := p.str("name"); label != nil {
		switch l := strings.ToLower(*label); l {
		case "home", "work", "other":
			values["label"] = l
		default:
			values["label"] = *label
		}
	}
	for _, f := range [][2]string{{"street", "street"}, {"city", "city"}, {"province", "region"}, {"postal_code", "postal_code"}} {
		if s := p.str(f[0]); s != nil {
			values[f[1]] = *s
		}
	}
	if country := p.str("country"); country != nil {
		if code, ok := store.CountryByName(*country); ok {
			values["country"] = code
		} else if region, ok := values["region"].(string); ok {
			values["region"] = region + ", " + *country
		} else {
			values["region"] = *country
		}
	}
	if len(values) == 1 || (len(values) == 2 && values["label"] != nil) {
		return // nothing but a label
	}
	if c.m.pass == 2 {
		c.detail(r.place(), values)
	}
}

// interaction adds an interaction on day, its note cut at 2,000
// characters; one later than tomorrow is a problem (§4.6).
func (c *contactMap) interaction(r jobj, kind, day, note string) {
	if day == "" {
		if c.m.pass == 2 {
			c.problem(r.place(), "interaction", "The happened on field is required.")
		}
		return
	}
	values := map[string]any{"kind": kind, "happened_on": day}
	if note = strings.TrimSpace(note); note != "" {
		values["note"] = cut(note, maxInteractionNote)
	}
	if in, ok := checked(c, r.place(), "interaction", values, nil, func(ps *input.Params) store.Interaction {
		in := input.Interaction(ps, c.m.today)
		return store.Interaction{Kind: in.Kind, HappenedOn: in.HappenedOn, Note: in.Note}
	}); ok {
		in.CreatedAt, in.UpdatedAt = r.unix("created_at"), r.unix("updated_at")
		c.rec.Interactions = append(c.rec.Interactions, in)
	}
}

// activity adds a meeting for an activity the contact took part in.
func (c *contactMap) activity(o jobj, v jvalue) {
	id, ok := v.v.(string)
	if !ok {
		c.m.fail(v.path, "a string was expected.")
		return
	}
	if c.m.pass != 2 {
		return
	}
	a, ok := c.m.activities[id]
	place := Place{MonicaPlace: &MonicaPlace{Item: v.path, UUID: id}}
	if !ok {
		c.problem(place, "activity", "the activity "+id+" is not in the file")
		return
	}
	note := a.summary
	if a.description != "" {
		note += "\n" + a.description
	}
	c.interaction(jobj{m: c.m, path: v.path, v: map[string]any{"uuid": id}}, "meeting", a.on, note)
}

// conversation adds a message interaction with the conversation's lines.
func (c *contactMap) conversation(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	var lines []string
	for i, mv := range p.arr("messages") {
		msg, ok := c.m.object(p.at("messages")+"."+itoa(i), mv)
		if !ok {
			continue
		}
		mp := msg.props()
		content := strings.TrimSpace(text(mp.raw("content")))
		who := c.first
		if mp.boolean("written_by_me") {
			who = "Me"
		}
		lines = append(lines, who+": "+content)
	}
	c.interaction(r, "message", p.date("happened_at"), strings.Join(lines, "\n"))
}

// task adds a task; done ones keep when they were done.
func (c *contactMap) task(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	title, done, doneAt := p.str("title"), p.boolean("completed"), p.unix("completed_at")
	p.raw("description") // not kept, but checked
	if t, ok := checked(c, r.place(), "task", map[string]any{"name": deref(title)}, nil, func(ps *input.Params) store.Task {
		return store.Task{Name: input.Task(ps).Name}
	}); ok {
		if done {
			t.IsCompleted = true
			if doneAt != 0 {
				t.CompletedAt = &doneAt
			}
		}
		t.CreatedAt, t.UpdatedAt = r.unix("created_at"), r.unix("updated_at")
		c.rec.Tasks = append(c.rec.Tasks, t)
	}
}

// gift adds a gift: its name, status, URL and date.
func (c *contactMap) gift(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	values := map[string]any{"name": deref(p.str("name")), "status": deref(p.str("status")), "url": deref(p.str("url"))}
	if day := p.date("date"); day != "" {
		values["date"] = day
	}
	if g, ok := checked(c, r.place(), "gift", values, []string{"url", "date"}, func(ps *input.Params) store.Gift {
		in := input.Gift(ps)
		return store.Gift{Name: in.Name, Status: in.Status, URL: in.URL, GiftedAt: in.GiftedAt}
	}); ok {
		g.CreatedAt, g.UpdatedAt = r.unix("created_at"), r.unix("updated_at")
		c.rec.Gifts = append(c.rec.Gifts, g)
	}
}

// lifeEvent adds a life event, described by its name or its type's.
func (c *contactMap) lifeEvent(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	desc, note, on, typeID := p.str("name"), p.str("note"), p.date("happened_at"), p.str("type")
	if c.m.pass != 2 {
		return
	}
	if desc == nil && typeID != nil {
		if name, ok := c.m.lifeEventTypes[*typeID]; ok {
			desc = &name
		}
	}
	values := map[string]any{"description": deref(desc), "comment": deref(note), "should_be_reminded": false}
	if on != "" {
		values["happened_at"] = on
	}
	if ev, ok := checked(c, r.place(), "life_event", values, []string{"comment"}, func(ps *input.Params) store.LifeEvent {
		in := input.LifeEvent(ps)
		return store.LifeEvent{Description: in.Description, Comment: in.Comment, HappenedAt: in.HappenedAt}
	}); ok {
		ev.CreatedAt, ev.UpdatedAt = r.unix("created_at"), r.unix("updated_at")
		c.rec.LifeEvents = append(c.rec.LifeEvents, ev)
	}
}

// reminder maps a reminder to an important date or a task, or drops it
// (§4.6).
func (c *contactMap) reminder(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	title, day, freq := p.str("title"), p.date("initial_date"), p.str("frequency_type")
	number, delible, inactive := p.number("frequency_number", true), p.flag("delible", true), p.boolean("inactive")
	if c.m.pass != 2 || !delible {
		return
	}
	switch {
	case freq != nil && *freq == "year" && (number == "1" || number == "") && day != "":
		t, _ := time.Parse(time.DateOnly, day)
		y := int64(t.Year())
		values := map[string]any{"label": deref(title), "date": day, "remind_yearly": !inactive}
		if d, ok := checked(c, r.place(), "reminder", values, nil, func(ps *input.Params) store.ImportantDate {
			in := input.ImportantDate(ps)
			return store.ImportantDate{Label: in.Label, Year: in.Year, Month: in.Month, Day: in.Day, RemindYearly: in.RemindYearly}
		}); ok {
			d.Year = &y
			c.rec.ImportantDates = append(c.rec.ImportantDates, d)
		}
	case freq != nil && *freq == "one_time" && day != "" && day > c.m.exportDate.Format(time.DateOnly):
		if t, ok := checked(c, r.place(), "reminder", map[string]any{"name": deref(title), "due_at": day}, nil,
			func(ps *input.Params) store.Task {
				in := input.Task(ps)
				return store.Task{Name: in.Name, DueAt: in.DueAt}
			}); ok {
			c.rec.Tasks = append(c.rec.Tasks, t)
		}
	default:
		c.m.dropped.Reminders++
	}
}

// debt adds a note of who owes what (§4.6).
func (c *contactMap) debt(v jvalue) {
	r, ok := c.m.object(v.path, v.v)
	if !ok {
		return
	}
	p := r.props()
	amount, currency, status, inDebt := p.number("amount", true), p.str("currency"), p.str("status"), p.boolean("in_debt")
	what := strings.TrimSpace(amount + " " + text(currency))
	line := "Owes you " + what
	if inDebt {
		line = "You owe " + what
	}
	if status != nil && *status == "complete" {
		line += " (settled)"
	}
	c.note(r.place(), line, r.unix("created_at"))
}
