package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// The settings' lists of the account: task categories and genders, each
// added, renamed and deleted by the API's rules and with its messages.

// listsView is the Lists page: the account's task categories, genders
// and relationship types.
type listsView struct {
	Categories                         []categoryRow
	Genders                            []store.Gender
	Types                              []typeRow
	Category, Gender, RelationshipType Form
}

// categoryRow is a task category as the Lists page shows it: its colour
// named and drawn, never its class.
type categoryRow struct {
	store.TaskCategory
	ColourName, Swatch string
}

func (a *App) fillLists(c echo.Context, v *settingsView, st settingsState) error {
	ctx, acct, tok := c.Request().Context(), input.Account(c), csrf(c)
	cats, err := a.store.TaskCategories(ctx, acct)
	if err != nil {
		return err
	}
	for _, cat := range cats {
		v.Categories = append(v.Categories, categoryRow{cat, colourName(cat.Color), swatchClass(cat.Color)})
	}
	values, errs := formOr(st.failed, "category", url.Values{"color": {"bg-blue-100"}})
	v.Category = categoryForm(tok, "category", "/settings/categories", "Add category", values.Get("color")).Fill(values, errs)
	if v.Genders, err = a.store.Genders(ctx, acct); err != nil {
		return err
	}
	v.Gender = genderForm(tok, "gender", "/settings/genders", "Add gender", false).Fill(formOr(st.failed, "gender", nil))
	if v.Types, err = a.typeRows(c, st); err != nil {
		return err
	}
	v.RelationshipType = relationshipTypeForm(tok, "relationship-type", "/settings/relationship-types", "Add relationship type").
		Fill(formOr(st.failed, "relationship-type", url.Values{"group": {"other"}}))
	return nil
}

// categoryForm adds or edits a category; its colours are named, with
// color (the category's, or what a refused form sent) among them.
func categoryForm(csrf, id, action, submit, color string) Form {
	return Form{ID: id, Action: action, Submit: submit, CSRF: csrf, Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off"},
		{Name: "color", Label: "Colour", Type: "select", Required: true, Options: colourOptions(color)},
	}}
}

func genderForm(csrf, id, action, submit string, editing bool) Form {
	f := Form{ID: id, Action: action, Submit: submit, CSRF: csrf, Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off"},
	}}
	if editing {
		f.Fields = append(f.Fields, Field{Name: "position", Label: "Position", Type: "number", Required: true,
			Hint: "Where it comes in the list: lower first."})
	}
	return f
}

// webCategory is the category the path names, or the 404 of another
// account's or a missing one.
func (a *App) webCategory(c echo.Context) (store.TaskCategory, error) {
	id, err := input.PathID(c, "category", store.ErrCategoryNotFound)
	if err != nil {
		return store.TaskCategory{}, err
	}
	return a.store.TaskCategory(c.Request().Context(), input.Account(c), id)
}

// webGender is the gender the path names, or the 404 of another
// account's or a missing one.
func (a *App) webGender(c echo.Context) (store.Gender, error) {
	id, err := input.PathID(c, "gender", store.ErrGenderNotFound)
	if err != nil {
		return store.Gender{}, err
	}
	return a.store.Gender(c.Request().Context(), input.Account(c), id)
}

func (a *App) handleCategoryCreate(c echo.Context) error {
	p := input.FormParams(c)
	name, color := input.Category(p)
	err := p.Err()
	if err == nil {
		_, err = a.store.CreateTaskCategory(c.Request().Context(), input.Account(c), name, color)
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, "lists", failedForm(c, "category", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#categories", "Category added.")
}

func (a *App) categoryEditPage(c echo.Context, status int, cat store.TaskCategory, values url.Values, errs map[string][]string) error {
	f := categoryForm(csrf(c), "category-edit", "/settings/categories/"+itoa64(cat.ID), "Save category", values.Get("color")).Fill(values, errs)
	return a.settingsEdit(c, status, "Edit category · "+cat.Name, "/settings/lists#categories", f)
}

func (a *App) handleCategoryEdit(c echo.Context) error {
	cat, err := a.webCategory(c)
	if err != nil {
		return err
	}
	return a.categoryEditPage(c, http.StatusOK, cat, url.Values{"name": {cat.Name}, "color": {cat.Color}}, nil)
}

func (a *App) handleCategoryUpdate(c echo.Context) error {
	cat, err := a.webCategory(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	name, color := input.Category(p)
	err = p.Err()
	if err == nil {
		_, err = a.store.UpdateTaskCategory(c.Request().Context(), input.Account(c), cat.ID, name, color)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.categoryEditPage(c, http.StatusUnprocessableEntity, cat, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#categories", "Category saved.")
}

// handleCategoryDelete deletes a category; its tasks stay,
// uncategorised.
func (a *App) handleCategoryDelete(c echo.Context) error {
	cat, err := a.webCategory(c)
	if err != nil {
		return err
	}
	if err := a.store.DeleteTaskCategory(c.Request().Context(), input.Account(c), cat.ID); err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#categories", "Category “"+cat.Name+"” deleted.")
}

func (a *App) handleGenderCreate(c echo.Context) error {
	p := input.FormParams(c)
	name, _ := input.Gender(p, false)
	err := p.Err()
	if err == nil {
		_, err = a.store.CreateGender(c.Request().Context(), input.Account(c), name)
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, "lists", failedForm(c, "gender", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#genders", "Gender added.")
}

func (a *App) genderEditPage(c echo.Context, status int, g store.Gender, values url.Values, errs map[string][]string) error {
	f := genderForm(csrf(c), "gender-edit", "/settings/genders/"+itoa64(g.ID), "Save gender", true).Fill(values, errs)
	return a.settingsEdit(c, status, "Edit gender · "+g.Name, "/settings/lists#genders", f)
}

func (a *App) handleGenderEdit(c echo.Context) error {
	g, err := a.webGender(c)
	if err != nil {
		return err
	}
	return a.genderEditPage(c, http.StatusOK, g, url.Values{"name": {g.Name}, "position": {strconv.FormatInt(g.Position, 10)}}, nil)
}

func (a *App) handleGenderUpdate(c echo.Context) error {
	g, err := a.webGender(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	name, position := input.Gender(p, true)
	err = p.Err()
	if err == nil {
		_, err = a.store.UpdateGender(c.Request().Context(), input.Account(c), g.ID, name, position)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.genderEditPage(c, http.StatusUnprocessableEntity, g, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#genders", "Gender saved.")
}

// handleGenderDelete deletes a gender, as the API does: the people
// who have it stay, without a gender.
func (a *App) handleGenderDelete(c echo.Context) error {
	g, err := a.webGender(c)
	if err != nil {
		return err
	}
	if err := a.store.DeleteGender(c.Request().Context(), input.Account(c), g.ID); err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#genders", "Gender “"+g.Name+"” deleted.")
}
