// Package photo makes the JPEG that Kith keeps of a person's photo from
// whatever image a client sent: JPEG, PNG, GIF (its first frame) or WebP,
// turned upright by its EXIF orientation, scaled down to at most MaxSide
// pixels a side, laid on white, and written anew by image/jpeg, so that
// none of the sent bytes (metadata, a GPS position, a payload) is kept.
// It knows nothing of HTTP or of the store: the API, the vCard import and
// CardDAV call it alike.
package photo

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// Limits of what Process takes, and of what it makes.
const (
	// MaxBytes is the largest image taken: 10 MiB.
	MaxBytes = 10 << 20
	// MaxPixels is the most pixels (width × height) an image may declare:
	// decoding one takes memory in proportion, so a larger one is refused
	// from its header, before anything is decoded.
	MaxPixels = 40_000_000
	// MaxSide is the longest side of the JPEG made.
	MaxSide = 512
	// quality is image/jpeg's quality: small files that still look like
	// the person.
	quality = 85
)

// Why an image is refused.
var (
	// ErrFormat is bytes that are none of the formats taken.
	ErrFormat = errors.New("photo: not a JPEG, PNG, GIF or WebP image")
	// ErrImage is bytes of one of them that do not decode.
	ErrImage = errors.New("photo: the image does not decode")
	// ErrPixels is an image whose header declares more than MaxPixels.
	ErrPixels = errors.New("photo: the image has more than 40 megapixels")
	// ErrBytes is more than MaxBytes.
	ErrBytes = errors.New("photo: the image is larger than 10 MiB")
)

// codec reads one format: its header alone, or its (first) image.
type codec struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
	exif   bool // whether its EXIF orientation is applied
}

var (
	jpegCodec = codec{jpeg.DecodeConfig, jpeg.Decode, true}
	pngCodec  = codec{png.DecodeConfig, png.Decode, false}
	gifCodec  = codec{gif.DecodeConfig, gif.Decode, false} // gif.Decode stops at the first frame
	webpCodec = codec{webp.DecodeConfig, webp.Decode, false}
)

// sniff tells the format by the bytes' signature, whatever a header or a
// file name claims.
func sniff(b []byte) (codec, bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return jpegCodec, true
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return pngCodec, true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return gifCodec, true
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return webpCodec, true
	}
	return codec{}, false
}

// Process returns the JPEG Kith keeps for the image in raw, or why it
// cannot: ErrBytes, ErrFormat, ErrImage or ErrPixels.
func Process(raw []byte) ([]byte, error) {
	if len(raw) > MaxBytes {
		return nil, ErrBytes
	}
	c, ok := sniff(raw)
	if !ok {
		return nil, ErrFormat
	}
	cfg, err := c.config(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, ErrImage
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, ErrPixels
	}
	img, err := c.decode(bytes.NewReader(raw))
	if err != nil {
		return nil, ErrImage
	}
	orient := 1
	if c.exif {
		orient = Orientation(raw)
	}
	// The canvas is the header's: a GIF's first frame may cover part of
	// its screen only, and the rest is background, here white. Scaling
	// before turning upright gives the same pixels for less work, since a
	// turn only moves them.
	canvas := image.Rect(0, 0, cfg.Width, cfg.Height)
	w, h := fit(cfg.Width, cfg.Height)
	small := shrink(img, canvas, w, h)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, upright(small, orient), &jpeg.Options{Quality: quality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// fit is the size to scale a width × height image to: its longer side
// MaxSide at most, the other kept in proportion, rounded to the nearest
// pixel and at least 1; never larger than the image. A quarter turn swaps
// the sides, and not which is longer.
func fit(width, height int) (w, h int) {
	long, short := width, height
	if height > width {
		long, short = height, width
	}
	if long > MaxSide {
		short = max(1, (2*short*MaxSide+long)/(2*long))
		long = MaxSide
	}
	if height > width {
		return short, long
	}
	return long, short
}
