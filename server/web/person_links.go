package web

import (
	"github.com/labstack/echo/v4"

	"kith/store"
)

// links are the parts of a person's page that tie them to others: their
// face beside their name (and its photo), their relationships and their
// tags, each with its form.
type links struct {
	Face             face
	Relationships    []relationshipRow
	RelationshipForm Form
	// Retype is where to type another name, when the relationship form
	// offers the people a name may mean.
	Retype   string
	Tags     []string
	TagsForm Form
	// PhotoForm sends a new photo; the face says whether there is one.
	PhotoForm Form
}

// personLinks reads the person's links; f is a form of them to draw again
// with its errors.
func (a *App) personLinks(c echo.Context, per store.Person, f failed) (links, error) {
	base := "/people/" + itoa64(per.ID)
	l := links{Face: faceOf(per), Tags: per.Tags}
	l.TagsForm = tagsForm(base, csrf(c)).Fill(formOr(f, "tags", tagsValue(per.Tags)))
	l.PhotoForm = fill(photoForm(base, csrf(c)), f, "photo", nil)
	var err error
	if l.Relationships, err = a.relationshipRows(c, per.ID); err != nil {
		return links{}, err
	}
	if l.RelationshipForm, err = a.relationshipForm(c, per, f); err != nil {
		return links{}, err
	}
	if f.form == "relationships" && f.choices != nil {
		l.Retype = base + "#relationships"
	}
	return l, nil
}
