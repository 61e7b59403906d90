package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// The settings' list of relationship types, added, renamed and deleted by
// the API's rules and with its messages.

// typeRow is one relationship type as the settings list it; InUse is the
// API's refusal to delete it, when that was just asked.
type typeRow struct {
	store.RelationshipType
	InUse string
}

func relationshipTypeForm(csrf, id, action, submit string) Form {
	return Form{ID: id, Action: action, Submit: submit, CSRF: csrf, Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off",
			Hint: "What the other person is to the one it is added on: parent."},
		{Name: "name_reverse", Label: "Reverse name", Type: "text", Auto: "off",
			Hint: "The same seen from the other side: child. Empty: the same as the name (friend, friend)."},
		{Name: "group", Label: "Group", Type: "select", Options: labelled(store.RelationshipGroups)},
	}}
}

// typeRows are the account's relationship types, the one st names with
// the refusal to delete it.
func (a *App) typeRows(c echo.Context, st settingsState) ([]typeRow, error) {
	types, err := a.store.RelationshipTypes(c.Request().Context(), input.Account(c))
	if err != nil {
		return nil, err
	}
	out := make([]typeRow, len(types))
	for i, t := range types {
		out[i] = typeRow{RelationshipType: t}
		if t.ID == st.inUseOf {
			out[i].InUse = st.inUseErr
		}
	}
	return out, nil
}

// webRelationshipType is the type the path names, or the 404 of another
// account's or a missing one.
func (a *App) webRelationshipType(c echo.Context) (store.RelationshipType, error) {
	id, err := input.PathID(c, "type", store.ErrRelationshipTypeNotFound)
	if err != nil {
		return store.RelationshipType{}, err
	}
	return a.store.RelationshipType(c.Request().Context(), input.Account(c), id)
}

func (a *App) handleRelationshipTypeCreate(c echo.Context) error {
	p := input.FormParams(c)
	in := input.RelationshipType(p)
	err := p.Err()
	if err == nil {
		_, err = a.store.CreateRelationshipType(c.Request().Context(), input.Account(c), in)
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, "lists", failedForm(c, "relationship-type", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#relationship-types", "Relationship type added.")
}

func (a *App) relationshipTypeEditPage(c echo.Context, status int, t store.RelationshipType, values url.Values, errs map[string][]string) error {
	f := relationshipTypeForm(csrf(c), "relationship-type-edit", "/settings/relationship-types/"+itoa64(t.ID), "Save relationship type").Fill(values, errs)
	return a.settingsEdit(c, status, "Edit relationship type · "+t.Name, "/settings/lists#relationship-types", f)
}

func (a *App) handleRelationshipTypeEdit(c echo.Context) error {
	t, err := a.webRelationshipType(c)
	if err != nil {
		return err
	}
	return a.relationshipTypeEditPage(c, http.StatusOK, t, url.Values{"name": {t.Name}, "name_reverse": {t.NameReverse}, "group": {t.Group}}, nil)
}

// handleRelationshipTypeUpdate replaces the type, as the API's PUT does:
// an empty reverse name is the name.
func (a *App) handleRelationshipTypeUpdate(c echo.Context) error {
	t, err := a.webRelationshipType(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	in := input.RelationshipType(p)
	err = p.Err()
	if err == nil {
		_, err = a.store.UpdateRelationshipType(c.Request().Context(), input.Account(c), t.ID, in)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.relationshipTypeEditPage(c, http.StatusUnprocessableEntity, t, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#relationship-types", "Relationship type saved.")
}

// handleRelationshipTypeDelete deletes a type that no relationship has;
// one in use stays, and the settings say so beside it.
func (a *App) handleRelationshipTypeDelete(c echo.Context) error {
	t, err := a.webRelationshipType(c)
	if err != nil {
		return err
	}
	err = input.RelationshipTypeError(a.store.DeleteRelationshipType(c.Request().Context(), input.Account(c), t.ID))
	if fe := input.FieldErrors(err); fe != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, "lists", settingsState{inUseOf: t.ID, inUseErr: fe["relationship_type"][0]})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/lists#relationship-types", "Relationship type “"+t.Name+"” deleted.")
}
