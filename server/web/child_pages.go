package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// personChild reads the person and the kind the path names; an unknown kind
// is a 404 as any unknown path.
func (a *App) personChild(c echo.Context) (store.Person, Child, error) {
	k, ok := childBySlug(c.Param("kind"))
	if !ok {
		return store.Person{}, Child{}, echo.ErrNotFound
	}
	per, err := a.webPerson(c)
	return per, k, err
}

// personChildItem is personChild with the id of the record the path names.
func (a *App) personChildItem(c echo.Context) (store.Person, Child, int64, error) {
	per, k, err := a.personChild(c)
	if err != nil {
		return per, k, 0, err
	}
	id, err := input.PathID(c, "item", echo.ErrNotFound)
	return per, k, id, err
}

// handleChildCreate adds one of the person's records from the form
// in its section; errors draw the person page again with that form open.
func (a *App) handleChildCreate(c echo.Context) error {
	per, k, err := a.personChild(c)
	if err != nil {
		return err
	}
	err = k.save(a, c, input.Account(c), per.ID, 0, input.FormParams(c))
	if fe := input.FieldErrors(err); fe != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: k.Slug, values: c.Request().PostForm, errs: fe})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#"+k.Slug, words(k.Noun)+" added.")
}

type childFormView struct {
	Person store.Person
	Name   string
	Form   Form
	Back   string
	// Delete is where the record's Delete button posts, Noun what it
	// deletes: the person page's rows keep only a quiet Edit.
	Delete, Noun string
}

// childForm draws the edit form of one of the person's records.
func (a *App) childForm(c echo.Context, status int, per store.Person, k Child, id int64, values url.Values, errs map[string][]string) error {
	fields, err := k.fields(a, c)
	if err != nil {
		return err
	}
	base := "/people/" + itoa64(per.ID)
	f := Form{ID: k.Slug, Action: base + "/" + k.Slug + "/" + itoa64(id), Submit: "Save", CSRF: csrf(c), Fields: fields}
	name := store.FullName(per.FirstName, per.LastName)
	return a.render(c, status, "child_form", Page{Title: "Edit " + k.Noun + " · " + name, Nav: "people",
		Data: childFormView{Person: per, Name: name, Form: f.Fill(values, plainErrors(fields, errs)), Back: base + "#" + k.Slug,
			Delete: f.Action + "/delete", Noun: k.Noun}})
}

func (a *App) handleChildEdit(c echo.Context) error {
	per, k, id, err := a.personChildItem(c)
	if err != nil {
		return err
	}
	values, err := k.values(a, c.Request().Context(), a.datesOf(c), input.Account(c), per.ID, id)
	if err != nil {
		return err
	}
	return a.childForm(c, http.StatusOK, per, k, id, values, nil)
}

func (a *App) handleChildUpdate(c echo.Context) error {
	per, k, id, err := a.personChildItem(c)
	if err != nil {
		return err
	}
	err = k.save(a, c, input.Account(c), per.ID, id, input.FormParams(c))
	if fe := input.FieldErrors(err); fe != nil {
		return a.childForm(c, http.StatusUnprocessableEntity, per, k, id, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#"+k.Slug, "Saved.")
}

func (a *App) handleChildDelete(c echo.Context) error {
	per, k, id, err := a.personChildItem(c)
	if err != nil {
		return err
	}
	if err := k.remove(a.store, c.Request().Context(), input.Account(c), per.ID, id); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#"+k.Slug, words(k.Noun)+" deleted.")
}

// handleTaskToggle ticks a task, or unticks it, from the person page
// (back there) or the dashboard (back home).
func (a *App) handleTaskToggle(c echo.Context) error {
	param := "task"
	if c.Param("person") != "" {
		if c.Param("kind") != "tasks" {
			return echo.ErrNotFound
		}
		param = "item"
	}
	id, err := input.PathID(c, param, store.ErrTaskNotFound)
	if err != nil {
		return err
	}
	if c.Param("person") != "" {
		// The task must be the person's the path names: another person's
		// is a 404, as its edit and delete are.
		per, err := a.webPerson(c)
		if err != nil {
			return err
		}
		if _, err := a.store.Task(c.Request().Context(), input.Account(c), per.ID, id); err != nil {
			return err
		}
	}
	t, err := a.store.ToggleTask(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	msg := "“" + t.Name + "” is done."
	if !t.IsCompleted {
		msg = "“" + t.Name + "” is to do again."
	}
	if c.Param("person") != "" {
		return a.seeOther(c, "/people/"+itoa64(t.PersonID)+"#tasks", msg)
	}
	return a.seeOther(c, "/", msg)
}
