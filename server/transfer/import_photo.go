package transfer

import (
	"encoding/base64"
	"errors"

	"kith/server/input"
	"kith/server/photo"
)

// The refusals of a person's photo in a document: photo.MaxBytes and
// photo.MaxSide in words.
const (
	msgPhotoString   = "The photo field must be a string."
	msgPhotoBase64   = "The photo field must be a base64 string."
	msgPhotoBytes    = "The photo field must not be greater than 10240 kilobytes."
	msgPhotoJPEG     = "The photo field must be a file of type: jpeg."
	msgPhotoSide     = "The photo field must not be larger than 512 × 512 pixels."
	msgPhotoBaseline = "The photo field must be a baseline JPEG without metadata, as Kith exports it."
)

// docPhoto reads a person's photo: the JPEG that Kith made, in standard
// base64, kept byte for byte (photo.Kept), nil for none. Other bytes, an
// image of another kind or larger, or a JPEG that carries metadata, are
// refused rather than made anew, which would change them and their ETag:
// a document holds the photos that Kith exported.
func docPhoto(p *input.Params) []byte {
	v := p.Value("photo")
	if v == nil {
		return nil
	}
	s, ok := v.(string)
	switch {
	case !ok:
		p.Fail("photo", msgPhotoString)
		return nil
	case s == "":
		return nil // empty is absent, as for every parameter
	}
	if base64.StdEncoding.DecodedLen(len(s)) > photo.MaxBytes+2 { // +2: the padding's share of the last group
		p.Fail("photo", msgPhotoBytes)
		return nil
	}
	jpg, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		p.Fail("photo", msgPhotoBase64)
		return nil
	}
	switch err := photo.Kept(jpg); {
	case err == nil:
		return jpg
	case errors.Is(err, photo.ErrBytes):
		p.Fail("photo", msgPhotoBytes)
	case errors.Is(err, photo.ErrFormat):
		p.Fail("photo", msgPhotoJPEG)
	case errors.Is(err, photo.ErrImage):
		p.Fail("photo", input.MsgPhotoImage)
	case errors.Is(err, photo.ErrSide):
		p.Fail("photo", msgPhotoSide)
	default:
		p.Fail("photo", msgPhotoBaseline)
	}
	return nil
}
