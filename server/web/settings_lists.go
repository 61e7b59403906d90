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

func categoryForm(csrf, id, action, submit string) Form {
	return Form{ID: id, Action: action, Submit: submit, CSRF: csrf, Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off"},
		{Name: "color", Label: "Colour", Type: "text", Required: true, Auto: "off",
			Hint: "A colour class, as the defaults have: bg-blue-100, bg-green-100, bg-red-100."},
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
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "category", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings#categories", "Category added.")
}

func (a *App) categoryEditPage(c echo.Context, status int, cat store.TaskCategory, values url.Values, errs map[string][]string) error {
	f := categoryForm(csrf(c), "category-edit", "/settings/categories/"+itoa64(cat.ID), "Save category").Fill(values, errs)
	return a.settingsEdit(c, status, "Edit category · "+cat.Name, "/settings#categories", f)
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
	return a.seeOther(c, "/settings#categories", "Category saved.")
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
	return a.seeOther(c, "/settings#categories", "Category “"+cat.Name+"” deleted.")
}

func (a *App) handleGenderCreate(c echo.Context) error {
	p := input.FormParams(c)
	name, _ := input.Gender(p, false)
	err := p.Err()
	if err == nil {
		_, err = a.store.CreateGender(c.Request().Context(), input.Account(c), name)
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "gender", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings#genders", "Gender added.")
}

func (a *App) genderEditPage(c echo.Context, status int, g store.Gender, values url.Values, errs map[string][]string) error {
	f := genderForm(csrf(c), "gender-edit", "/settings/genders/"+itoa64(g.ID), "Save gender", true).Fill(values, errs)
	return a.settingsEdit(c, status, "Edit gender · "+g.Name, "/settings#genders", f)
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
	return a.seeOther(c, "/settings#genders", "Gender saved.")
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
	return a.seeOther(c, "/settings#genders", "Gender “"+g.Name+"” deleted.")
}
