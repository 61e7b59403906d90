package transfer

import (
	"io"
	"mime"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// Upload is an import's file, spooled to a temporary file that the import
// reads as often as it needs, and the import's options.
type Upload struct {
	File *os.File
	Size int64 // 0: no file, or an empty one
	// Options are the fields asked for, from the query, then from the form,
	// which wins (import-formats.md §1).
	Options map[string]any
	// Form tells a multipart form's file from a raw body.
	Form bool
}

// Close removes the temporary file.
func (u *Upload) Close() {
	u.File.Close()
	os.Remove(u.File.Name())
}

// ReadUpload reads an import's file: the whole body, or the part named
// file of a multipart form, copied as it comes (never held in memory), and
// the options named. A body over the route's limit is input.ErrBodyTooLarge;
// a raw body that cannot be read is notRead. A form that a middleware has
// parsed already is read from r.MultipartForm.
func ReadUpload(r *http.Request, options []string, notRead *input.Error) (*Upload, error) {
	f, err := os.CreateTemp("", "kith-import-*")
	if err != nil {
		return nil, err
	}
	u := &Upload{File: f, Options: map[string]any{}}
	q := r.URL.Query()
	for _, name := range options {
		if v, ok := q[name]; ok && len(v) > 0 {
			u.Options[name] = v[len(v)-1]
		}
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	u.Form = mt == echo.MIMEMultipartForm
	switch {
	case u.Form && r.MultipartForm != nil:
		err = u.parsedForm(r, options)
	case u.Form:
		err = u.streamForm(r, options)
	default:
		if u.Size, err = io.Copy(f, r.Body); err != nil {
			err = input.BodyError(err, notRead)
		}
	}
	if err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

// streamForm copies the form's file part, a part at a time as the body
// comes.
func (u *Upload) streamForm(r *http.Request, options []string) error {
	mr, err := r.MultipartReader()
	if err != nil {
		return input.ErrInvalidForm
	}
	found := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return input.BodyError(err, input.ErrInvalidForm)
		}
		switch name := part.FormName(); {
		case name == "file" && !found:
			found = true
			u.Size, err = io.Copy(u.File, part)
		case contains(options, name):
			var v []byte
			v, err = io.ReadAll(io.LimitReader(part, input.MaxBodyBytes))
			u.Options[name] = string(v)
		default:
			_, err = io.Copy(io.Discard, part)
		}
		part.Close()
		if err != nil {
			return input.BodyError(err, input.ErrInvalidForm)
		}
	}
}

// parsedForm takes the file and options of a form already parsed.
func (u *Upload) parsedForm(r *http.Request, options []string) error {
	for _, name := range options {
		if v := r.MultipartForm.Value[name]; len(v) > 0 {
			u.Options[name] = v[len(v)-1]
		}
	}
	files := r.MultipartForm.File["file"]
	if len(files) == 0 {
		return nil
	}
	src, err := files[0].Open()
	if err != nil {
		return err
	}
	defer src.Close()
	u.Size, err = io.Copy(u.File, src)
	return err
}
