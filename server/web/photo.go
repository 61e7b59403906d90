package web

import (
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/photo"
)

// photoForm sends a new photo: a file that the API's rules check and
// make into the JPEG Kith keeps.
func photoForm(base, token string) Form {
	return Form{ID: "photo", Action: base + "/photo", Submit: "Save photo", CSRF: token, Multipart: true, Fields: []Field{
		{Name: "photo", Label: "Photo", Type: "file",
			Hint: "JPEG, PNG, GIF or WebP, up to 10 MiB. Kith keeps a copy at most 512 pixels wide, without the file's metadata (such as where it was taken)."},
	}}
}

// handlePhotoSave makes the file sent the person's photo, replacing any,
// by the API's reader and store call.
func (a *App) handlePhotoSave(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	raw, err := photoSent(c)
	if err != nil {
		return err
	}
	jpeg, err := input.PhotoOf(raw)
	if fe := input.FieldErrors(err); fe != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "photo", errs: fe})
	}
	if err != nil {
		return err
	}
	if _, err := a.store.SetPhoto(c.Request().Context(), input.Account(c), per.ID, jpeg); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#photo", "Photo saved.")
}

// photoSent is the last file of the form's photo field that holds
// something, nil for none: requireWebUser's input.ParseForm left it in the
// multipart form (on disk past its first MiB), under the route's limit of
// photo.MaxBytes.
func photoSent(c echo.Context) ([]byte, error) {
	mf := c.Request().MultipartForm
	if mf == nil {
		return nil, nil
	}
	files := mf.File["photo"]
	for i := len(files) - 1; i >= 0; i-- {
		if files[i].Size == 0 {
			continue
		}
		f, err := files[i].Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return input.ReadAll(io.LimitReader(f, photo.MaxBytes), files[i].Size)
	}
	return nil, nil
}

// handlePhotoDelete removes the person's photo.
func (a *App) handlePhotoDelete(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	if err := a.store.DeletePhoto(c.Request().Context(), input.Account(c), per.ID); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#photo", "Photo removed.")
}
