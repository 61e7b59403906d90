package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// relationshipRow is one of the person's relationships as their page
// lists it: the other person, and what they are to this one.
type relationshipRow struct {
	ID    int64
	Type  string // the type's name as this person sees it: "parent"
	Other store.RelatedPerson
	Name  string // the other person's
}

// maxPersonChoices is how many people the relationship form offers in a
// select: an account with more gets a field that takes a name instead.
const maxPersonChoices = 200

// maxNameMatches is how many people a name that is not exactly one
// person's offers to choose from.
const maxNameMatches = 10

// nameSearchMax is how many of the people a typed name finds are compared
// with it: the one whose name it is hides among them only if they are
// more.
const nameSearchMax = 200

// relationshipRows are the person's relationships, from either side.
func (a *App) relationshipRows(c echo.Context, personID int64) ([]relationshipRow, error) {
	rs, err := a.store.Relationships(c.Request().Context(), input.Account(c), personID)
	if err != nil {
		return nil, err
	}
	out := make([]relationshipRow, len(rs))
	for i, r := range rs {
		out[i] = relationshipRow{ID: r.ID, Type: r.TypeName, Other: r.Other, Name: store.FullName(r.Other.FirstName, r.Other.LastName)}
	}
	return out, nil
}

// relationshipForm adds a relationship: who, then what they are to the
// person. Who is a select of the account's people while they are few, else
// a text field that takes a name; after a name that is not exactly one
// person's, a select of those it may mean (f.choices).
func (a *App) relationshipForm(c echo.Context, per store.Person, f failed) (Form, error) {
	ctx, acct := c.Request().Context(), input.Account(c)
	types, err := a.store.RelationshipTypes(ctx, acct)
	if err != nil {
		return Form{}, err
	}
	typeOpts := []Option{{Value: "", Label: "—"}}
	for _, t := range types {
		typeOpts = append(typeOpts, Option{Value: itoa64(t.ID), Label: t.Name})
	}
	name := store.FullName(per.FirstName, per.LastName)
	who := Field{Name: "person_id", Label: "Person", Type: "select", Options: f.choices}
	if f.form != "relationships" || f.choices == nil {
		// How many first, by an empty page: a large account's people are
		// not read at all.
		_, total, err := a.store.PersonsByName(ctx, acct, 0, 0)
		if err != nil {
			return Form{}, err
		}
		if total > maxPersonChoices {
			who = Field{Name: "person", Label: "Person", Type: "text", Auto: "off", Hint: "Their name, as their page shows it."}
		} else {
			people, _, err := a.store.PersonsByName(ctx, acct, maxPersonChoices, 0)
			if err != nil {
				return Form{}, err
			}
			who.Options = personOptions(people, per.ID)
		}
	}
	form := Form{ID: "relationships", Action: "/people/" + itoa64(per.ID) + "/relationships", Submit: "Add relationship",
		CSRF: csrf(c), Fields: []Field{who,
			{Name: "relationship_type_id", Label: "Relationship", Type: "select", Options: typeOpts, Hint: "What they are to " + name + "."}}}
	if f.form != "relationships" {
		return form, nil
	}
	errs := f.errs
	if who.Name == "person" && len(errs["person_id"]) > 0 {
		// The typed name became a person_id: the refusals of it go
		// beside the field that named them.
		errs = map[string][]string{"person": append(errs["person"], errs["person_id"]...), "relationship_type_id": errs["relationship_type_id"]}
	}
	return form.Fill(f.values, plainErrors(form.Fields, errs)), nil
}

// personOptions are the people to choose from, by name, with a first
// choice of nobody; the person themself is left out.
func personOptions(people []store.Person, self int64) []Option {
	opts := []Option{{Value: "", Label: "—"}}
	for _, p := range people {
		if p.ID != self {
			opts = append(opts, Option{Value: itoa64(p.ID), Label: personLabel(p)})
		}
	}
	return opts
}

// personLabel names a person in a list of choices: their name, and their
// nickname, which tells two of one name apart.
func personLabel(p store.Person) string {
	label := store.FullName(p.FirstName, p.LastName)
	if p.Nickname != nil && *p.Nickname != "" {
		label += " “" + *p.Nickname + "”"
	}
	return label
}

// handleRelationshipCreate makes a relationship by the API's reader and
// store call: the other person is, to the page's, what the type says.
func (a *App) handleRelationshipCreate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	choices, err := a.personNamed(c, p)
	if err == nil {
		var typeID, otherID int64
		typeID, otherID, err = input.Relationship(p, func(typeID, otherID *int64) (store.RelationshipRefusal, error) {
			return a.store.CheckRelationship(ctx, acct, per.ID, typeID, otherID)
		})
		if err == nil {
			_, err = a.store.CreateRelationship(ctx, acct, per.ID, typeID, otherID)
			err = input.RelationshipError(err)
		}
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "relationships", values: c.Request().PostForm, errs: fe, choices: choices})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#relationships", "Relationship added.")
}

// personNamed turns a typed name (the field person, sent instead of
// person_id) into the person_id of the one person whose name it is,
// ignoring case. A name that is not exactly one person's is an error, with
// the people the API's search finds for it to choose from.
func (a *App) personNamed(c echo.Context, p *input.Params) ([]Option, error) {
	if _, _, sent := p.Scalar("person_id"); sent {
		return nil, nil
	}
	name := p.Text("person", store.MaxSearchLength)
	if err := p.Err(); err != nil || name == nil {
		return nil, err
	}
	found, _, err := a.store.SearchPersons(c.Request().Context(), input.Account(c), *name, nameSearchMax, 0)
	if err != nil {
		return nil, err
	}
	var exact, others []store.Person
	for _, per := range found {
		if strings.EqualFold(store.FullName(per.FirstName, per.LastName), *name) {
			exact = append(exact, per)
		} else {
			others = append(others, per)
		}
	}
	if len(exact) == 1 {
		p.Set("person_id", itoa64(exact[0].ID))
		return nil, nil
	}
	if len(found) == 0 {
		return nil, input.Invalid("person", "Nobody matches “"+*name+"”.")
	}
	matches := append(exact, others...)
	matches = matches[:min(len(matches), maxNameMatches)]
	return personOptions(matches, 0), input.Invalid("person_id", "“"+*name+"” is not the name of one person: choose who you mean.")
}

// handleRelationshipDelete removes a relationship from either person's
// page.
func (a *App) handleRelationshipDelete(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	id, err := input.PathID(c, "relationship", store.ErrRelationshipNotFound)
	if err != nil {
		return err
	}
	if err := a.store.DeleteRelationship(c.Request().Context(), input.Account(c), per.ID, id); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#relationships", "Relationship removed.")
}
