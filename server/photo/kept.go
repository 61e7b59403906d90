package photo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image/jpeg"
)

// Why a JPEG is not one that Kith keeps as it is (see Kept).
var (
	// ErrSide is a JPEG larger than MaxSide on a side.
	ErrSide = errors.New("photo: the JPEG is larger than 512 pixels a side")
	// ErrNotBaseline is a JPEG that carries metadata (an APP1–APP15 or a
	// COM segment), more than one scan, or bytes after its end.
	ErrNotBaseline = errors.New("photo: the JPEG is not one baseline image without metadata")
)

// Kept tells whether jpg may be kept as it is, as the photo that Process
// made of an image once (an export carries it so, and its ETag is its
// digest): a JPEG of at most MaxBytes that decodes, no side over MaxSide,
// one scan ending the file, and no segment that could carry metadata (a
// JFIF APP0 is fine). It returns ErrBytes, ErrFormat, ErrImage, ErrSide
// or ErrNotBaseline otherwise; such bytes are refused rather than made
// anew, which would change them.
func Kept(jpg []byte) error {
	if len(jpg) > MaxBytes {
		return ErrBytes
	}
	if !bytes.HasPrefix(jpg, []byte("\xff\xd8\xff")) {
		return ErrFormat
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(jpg))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ErrImage
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide {
		return ErrSide
	}
	if _, err := jpeg.Decode(bytes.NewReader(jpg)); err != nil {
		return ErrImage
	}
	if !oneCleanScan(jpg) {
		return ErrNotBaseline
	}
	return nil
}

// oneCleanScan reports whether the segments of jpg before its scan are
// none that carry metadata, and the scan's data runs to the EOI that ends
// the file: no second scan, no comment, nothing after the end.
func oneCleanScan(jpg []byte) bool {
	i := 2 // past SOI
	for {
		if i+4 > len(jpg) || jpg[i] != 0xff {
			return false
		}
		marker := jpg[i+1]
		if marker >= 0xe1 && marker <= 0xef || marker == 0xfe {
			return false
		}
		i += 2 + int(binary.BigEndian.Uint16(jpg[i+2:]))
		if marker == 0xda {
			break
		}
	}
	// The entropy-coded data: a 0xff in it is followed by 0x00 (a stuffed
	// byte) or a restart marker; any other marker ends it.
	for ; i+1 < len(jpg); i++ {
		if jpg[i] != 0xff {
			continue
		}
		next := jpg[i+1]
		if next == 0x00 || next >= 0xd0 && next <= 0xd7 {
			i++
			continue
		}
		return next == 0xd9 && i+2 == len(jpg)
	}
	return false
}
