package web

import (
	"errors"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
	"kith/store"
)

// dataView is the Data page: the exports, and the two imports.
type dataView struct {
	Import, VCard, Monica, CSV Form
}

func (a *App) fillData(c echo.Context, v *settingsView, st settingsState) error {
	if err := a.fillMailIn(c, v); err != nil {
		return err
	}
	tok := csrf(c)
	v.Import = Form{ID: "import", Action: "/settings/import", Submit: "Import", CSRF: tok, Multipart: true, Fields: []Field{
		{Name: "file", Label: "Kith export (JSON)", Type: "file", Required: true,
			Hint: "Restores an export into this account, which must have no people yet."},
	}}.Fill(formOr(st.failed, "import", nil))
	v.VCard = Form{ID: "vcard", Action: "/settings/import/vcard", Submit: "Import contacts", CSRF: tok, Multipart: true, Fields: []Field{
		{Name: "file", Label: "vCard file (.vcf)", Type: "file", Required: true,
			Hint: "Adds a person for each card, or updates the person a card came from."},
	}}.Fill(formOr(st.failed, "vcard", nil))
	v.Monica = Form{ID: "monica", Action: "/settings/import/monica", Submit: "Check file", CSRF: tok, Multipart: true, Fields: []Field{
		{Name: "file", Label: "Monica export (JSON)", Type: "file", Required: true,
			Hint: "Monica v4: Settings → Export → Export to JSON. Kith shows what it would import, and asks before it does."},
	}}.Fill(formOr(st.failed, "monica", nil))
	v.CSV = csvForm(tok).Fill(formOr(st.failed, "csv", nil))
	switch st.form {
	case "import":
		v.Import.Errors = st.problems
	case "vcard":
		v.VCard.Errors = st.problems
	}
	return nil
}

// importView is the page that says what an import did.
type importView struct {
	Title string
	// Counts are what a Kith export brought, kind by kind.
	Counts []fact
	// Created, Updated and Skipped are a vCard import's.
	VCard            bool
	Created, Updated int
	Skipped          []transfer.VCardSkip
}

// importFile is the form's file field, which requireWebUser's
// input.ParseForm left in the multipart form (on disk past its first MiB),
// and its size; the caller closes it.
func importFile(c echo.Context) (multipart.File, int64, error) {
	mf := c.Request().MultipartForm
	if mf == nil || len(mf.File["file"]) == 0 {
		return nil, 0, input.Invalid("file", "The file field is required.")
	}
	fh := mf.File["file"][0]
	f, err := fh.Open()
	if err != nil {
		return nil, 0, err
	}
	return f, fh.Size, nil
}

// importFailed draws the settings page again with an import's problems:
// the file's beside the field, the document's (persons.3.gifts.0.name)
// above the form, in the order the document has them.
func (a *App) importFailed(c echo.Context, status int, form string, err error) error {
	st := settingsState{failed: failed{form: form, errs: input.FieldErrors(err)}}
	if ve, ok := err.(*input.ValidationError); ok {
		for _, field := range ve.Fields() {
			if field == "file" {
				continue
			}
			// A row's messages name their place: "persons.3: The first
			// name field is required."
			st.problems = append(st.problems, ve.ByField()[field]...)
		}
	}
	return a.settingsPage(c, status, "data", st)
}

// handleImport restores a Kith export, sent as a file, as POST
// /api/import does.
func (a *App) handleImport(c echo.Context) error {
	sess, _ := input.Session(c)
	doc, size, err := importFile(c)
	if input.FieldErrors(err) != nil {
		return a.importFailed(c, http.StatusUnprocessableEntity, "import", err)
	}
	if err != nil {
		return err
	}
	defer doc.Close()
	n, err := transfer.ImportDocument(c.Request().Context(), a.store, sess.AccountID, sess.UserID, sess.Timezone, doc, size)
	switch {
	case errors.Is(err, transfer.ErrNotJSON):
		return a.importFailed(c, http.StatusUnprocessableEntity, "import", input.Invalid("file", "The file is not valid JSON."))
	case errors.Is(err, transfer.ErrNotJSONObject):
		return a.importFailed(c, http.StatusUnprocessableEntity, "import", input.Invalid("file", "The file must be a JSON object: a Kith export."))
	case errors.Is(err, store.ErrAccountHasPersons):
		return a.importFailed(c, http.StatusConflict, "import", input.Invalid("file", input.ErrAccountHasPersons.Message))
	case input.FieldErrors(err) != nil:
		return a.importFailed(c, http.StatusUnprocessableEntity, "import", err)
	case err != nil:
		return err
	}
	v := importView{Title: "Import done"}
	for _, k := range []struct {
		label string
		n     int
	}{
		{"People", n.Persons}, {"Contact details", n.ContactDetails}, {"Important dates", n.ImportantDates},
		{"Notes", n.Notes}, {"Gifts", n.Gifts}, {"Life events", n.LifeEvents}, {"Work history", n.WorkHistory},
		{"Tasks", n.Tasks}, {"Interactions", n.Interactions}, {"Stay-in-touch reminders", n.StayInTouch},
		{"Task categories", n.TaskCategories}, {"Genders", n.Genders}, {"Journals", n.Journals},
		{"Journal entries", n.JournalEntries}, {"Relationship types", n.RelationshipTypes},
		{"Relationships", n.Relationships}, {"Tags", n.Tags},
		{"Photos", n.Photos}, {"Merged with this account's own", n.Merged},
	} {
		v.Counts = append(v.Counts, fact{k.label, strconv.Itoa(k.n)})
	}
	return a.render(c, http.StatusOK, "settings_import", Page{Title: v.Title, Nav: "settings", Data: v})
}

// handleVCardImport creates or updates a person for each card of a
// vCard file, as POST /api/import/vcard does, and lists the cards it
// skipped.
func (a *App) handleVCardImport(c echo.Context) error {
	body, err := transfer.VCardFile(c)
	v := importView{Title: "Contacts imported", VCard: true}
	if err == nil {
		ctx, acct := c.Request().Context(), input.Account(c)
		v.Created, v.Updated, err = a.store.ImportCards(ctx, acct,
			func(put func([]store.CardInput) error, link func([]store.CardLinks) error) error {
				var err error
				v.Skipped, err = transfer.DecodeVCards(body, a.store.Now(), put, link)
				return err
			})
	}
	if input.FieldErrors(err) != nil {
		return a.importFailed(c, http.StatusUnprocessableEntity, "vcard", err)
	}
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "settings_import", Page{Title: v.Title, Nav: "settings", Data: v})
}
