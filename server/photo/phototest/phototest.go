// Package phototest makes the images that the tests of photos send, in
// every format Kith takes, and reads back what it made: shared by the
// photo package's tests and the server's, as storetest is by the store's.
package phototest

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// WebP is a 16 × 16 lossless WebP (VP8L, made by hand with simple
// Huffman codes: see TestWebPFixture): its left half opaque red, its
// right half fully transparent blue.
//
//go:embed testdata/half-red.lossless.webp
var WebP []byte

// Colours the test images are painted with.
var (
	Red   = color.NRGBA{255, 0, 0, 255}
	Green = color.NRGBA{0, 255, 0, 255}
	Blue  = color.NRGBA{0, 0, 255, 255}
	Clear = color.NRGBA{0, 0, 255, 0} // transparent: what is under it shows
)

// Image is a w × h image painted by paint.
func Image(w, h int, paint func(x, y int) color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA(x, y, paint(x, y))
		}
	}
	return m
}

// Quadrants is a w × h image whose left half is red above and green
// below, and whose right half is blue: every turn and mirror of it looks
// different.
func Quadrants(w, h int) *image.NRGBA {
	return Image(w, h, func(x, y int) color.NRGBA {
		switch {
		case x >= w/2:
			return Blue
		case y < h/2:
			return Red
		}
		return Green
	})
}

// JPEG encodes m at a high quality.
func JPEG(m image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 95}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PNG encodes m (with its alpha).
func PNG(m image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// GIF encodes m in the plan 9 palette, as a one-frame GIF.
func GIF(m image.Image) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// WithExif is jpg with an APP1 Exif segment after its SOI, in the byte
// order given: IFD0 holds the orientation, a camera's make and a pointer
// to a GPS IFD with a latitude, as a phone's photo does.
func WithExif(jpg []byte, orientation uint16, order binary.ByteOrder) []byte {
	var t bytes.Buffer
	put16 := func(v uint16) { binary.Write(&t, order, v) }
	put32 := func(v uint32) { binary.Write(&t, order, v) }
	if order == binary.ByteOrder(binary.LittleEndian) {
		t.WriteString("II*\x00")
	} else {
		t.WriteString("MM\x00*")
	}
	put32(8) // IFD0 right after the header
	// IFD0: 3 entries of 12 bytes, then the offset of the next IFD (none).
	const ifd0Size = 2 + 3*12 + 4
	gpsAt := uint32(8 + ifd0Size)
	put16(3)
	put16(0x010f) // Make, ASCII, 4 bytes, in place
	put16(2)
	put32(4)
	t.WriteString("Kit\x00")
	put16(0x0112) // Orientation, SHORT, 1
	put16(3)
	put32(1)
	put16(orientation)
	put16(0)
	put16(0x8825) // GPSInfo, LONG, 1: the GPS IFD's offset
	put16(4)
	put32(1)
	put32(gpsAt)
	put32(0)
	// The GPS IFD: GPSLatitudeRef "N".
	put16(1)
	put16(0x0001)
	put16(2)
	put32(2)
	t.WriteString("N\x00\x00\x00")
	put32(0)
	seg := append([]byte("Exif\x00\x00"), t.Bytes()...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, 0xff, 0xe1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// WithComment is jpg with a COM segment after its SOI.
func WithComment(jpg []byte, text string) []byte {
	out := append([]byte{}, jpg[:2]...)
	out = append(out, 0xff, 0xfe, byte((len(text)+2)>>8), byte(len(text)+2))
	out = append(out, text...)
	return append(out, jpg[2:]...)
}

// Bomb is a PNG of a few dozen bytes whose header declares w × h pixels
// (8-bit RGBA): decoding it would allocate w × h × 4 bytes.
func Bomb(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	chunk(&b, "IHDR", ihdr)
	// The start of a zlib stream of zeros: a real bomb would go on.
	chunk(&b, "IDAT", []byte{0x78, 0x9c, 0xed, 0xc1, 0x01, 0x0d, 0x00, 0x00})
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, typ string, data []byte) {
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	binary.Write(b, binary.BigEndian, crc.Sum32())
}

// Markers lists the markers of a JPEG's segments, from SOI to its first
// SOS (0xda) included: what a decoder reads before the image data, and
// where metadata lives.
func Markers(jpg []byte) ([]byte, error) {
	if len(jpg) < 2 || jpg[0] != 0xff || jpg[1] != 0xd8 {
		return nil, errors.New("phototest: no SOI")
	}
	markers := []byte{0xd8}
	for i := 2; ; {
		if i+4 > len(jpg) || jpg[i] != 0xff {
			return markers, errors.New("phototest: a segment is cut short, or no marker where one should be")
		}
		m := jpg[i+1]
		markers = append(markers, m)
		if m == 0xda {
			return markers, nil
		}
		i += 2 + int(binary.BigEndian.Uint16(jpg[i+2:]))
	}
}

// Decode decodes a JPEG Kith made.
func Decode(jpg []byte) (image.Image, error) {
	return jpeg.Decode(bytes.NewReader(jpg))
}

// Near reports whether c is within 40 of want in each of R, G and B: what
// survives JPEG's rounding and chroma subsampling of a flat colour.
func Near(c color.Color, want color.NRGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(got uint32, want uint8) bool {
		diff := int(got>>8) - int(want)
		return diff >= -40 && diff <= 40
	}
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

// White is opaque white, what a transparent pixel becomes.
var White = color.NRGBA{255, 255, 255, 255}
