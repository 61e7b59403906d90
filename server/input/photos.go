package input

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/photo"
)

// The messages of a photo (contract-people §2 and §6).
const (
	MsgPhotoRequired = "The photo field is required."
	MsgPhotoType     = "The photo field must be a file of type: jpeg, png, gif, webp."
	MsgPhotoImage    = "The photo field must be an image."
	MsgPhotoPixels   = "The photo field must not be larger than 40 megapixels."
)

// Photo reads the image of PUT …/photo and makes the JPEG Kith keeps of it
// (photo.Process). The image is the part named photo of a multipart form,
// or else the whole body, whatever its type says, unless it is JSON or a
// form, which carry parameters and no image. A body the route's limit
// stops is a 413, a multipart body that does not parse a 400; no image,
// or one photo.Process refuses, is a validation error of the photo field.
func Photo(c echo.Context) ([]byte, error) {
	raw, err := photoBytes(c.Request())
	if err != nil {
		return nil, err
	}
	return PhotoOf(raw)
}

// PhotoOf makes the JPEG Kith keeps of raw, the image sent (none when it
// is empty), refused with the photo field's messages: Photo's second half,
// for a form whose file its reader has already read (the web app's).
func PhotoOf(raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return nil, Invalid("photo", MsgPhotoRequired)
	}
	jpeg, err := photo.Process(raw)
	switch {
	case errors.Is(err, photo.ErrFormat):
		return nil, Invalid("photo", MsgPhotoType)
	case errors.Is(err, photo.ErrImage):
		return nil, Invalid("photo", MsgPhotoImage)
	case errors.Is(err, photo.ErrPixels):
		return nil, Invalid("photo", MsgPhotoPixels)
	case errors.Is(err, photo.ErrBytes):
		return nil, ErrBodyTooLarge // the route's limit is photo.MaxBytes: not reached
	}
	return jpeg, err
}

// photoBytes is the image sent, nil for none.
func photoBytes(r *http.Request) ([]byte, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	switch {
	case mt == echo.MIMEMultipartForm:
		return photoPart(r)
	case mt == echo.MIMEApplicationForm, mt == echo.MIMEApplicationJSON, strings.HasSuffix(mt, "+json"):
		return nil, nil
	}
	raw, err := ReadAll(r.Body, r.ContentLength)
	if err != nil {
		return nil, BodyError(err, ErrInvalidForm)
	}
	return raw, nil
}

// photoPart reads a multipart form as it streams in, keeping the last
// part named photo that holds something, file or not: no other part is
// kept, nor written to a temporary file.
func photoPart(r *http.Request) ([]byte, error) {
	parts, err := r.MultipartReader()
	if err != nil {
		return nil, ErrInvalidForm
	}
	var found []byte
	for {
		part, err := parts.NextPart()
		if errors.Is(err, io.EOF) {
			return found, nil
		}
		if err != nil {
			return nil, BodyError(err, ErrInvalidForm)
		}
		if part.FormName() != "photo" {
			continue // NextPart skips what is left of it
		}
		raw, err := ReadAll(part, 0)
		if err != nil {
			return nil, BodyError(err, ErrInvalidForm)
		}
		if len(raw) > 0 {
			found = raw
		}
	}
}

// NoneMatch tells whether the request's If-None-Match headers name etag,
// or *: the weak comparison RFC 9110 (13.1.2) asks of it, W/ aside. The
// calendar feed and photos answer 304 by it.
func NoneMatch(r *http.Request, etag string) bool {
	for _, list := range r.Header.Values("If-None-Match") {
		for _, tag := range strings.Split(list, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}
