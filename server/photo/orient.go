package photo

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Orientation reads the EXIF orientation (1 to 8) of a JPEG: tag 0x0112
// of IFD0 in the first APP1 segment that holds Exif, in either byte
// order. 1 (upright as stored) when there is none, or it cannot be read.
// Cameras and phones store the sensor's rows as they are and say in this
// tag how to turn them.
func Orientation(jpg []byte) int {
	i := 2 // past SOI
	for i+4 <= len(jpg) {
		if jpg[i] != 0xff {
			return 1
		}
		marker := jpg[i+1]
		switch {
		case marker == 0xff: // a fill byte
			i++
			continue
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd8: // no length
			i += 2
			continue
		case marker == 0xda || marker == 0xd9: // the image data: no header past it
			return 1
		}
		n := int(binary.BigEndian.Uint16(jpg[i+2:]))
		if n < 2 || i+2+n > len(jpg) {
			return 1
		}
		if seg := jpg[i+4 : i+2+n]; marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation reads the orientation from the TIFF structure of an
// Exif segment.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(t[:4]) {
	case "II*\x00":
		order = binary.LittleEndian
	case "MM\x00*":
		order = binary.BigEndian
	default:
		return 1
	}
	ifd := uint64(order.Uint32(t[4:]))
	if ifd+2 > uint64(len(t)) {
		return 1
	}
	entries := uint64(order.Uint16(t[ifd:]))
	for k := range entries {
		e := ifd + 2 + 12*k
		if e+12 > uint64(len(t)) {
			return 1
		}
		if order.Uint16(t[e:]) != 0x0112 {
			continue
		}
		var v uint32
		switch typ, count := order.Uint16(t[e+2:]), order.Uint32(t[e+4:]); {
		case count != 1:
			return 1
		case typ == 3: // SHORT, as the standard has it
			v = uint32(order.Uint16(t[e+8:]))
		case typ == 4: // LONG, as some writers have it
			v = order.Uint32(t[e+8:])
		default:
			return 1
		}
		if v >= 1 && v <= 8 {
			return int(v)
		}
		return 1
	}
	return 1
}

// upright turns m as EXIF orientation o says: 2 mirrors it, 3 turns it
// half round, 4 flips it, 5 mirrors it across its diagonal, 6 turns it a
// quarter clockwise, 7 mirrors it across its other diagonal, 8 turns it a
// quarter anticlockwise. 5 to 8 swap its sides.
func upright(m *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return m
	}
	w, h := m.Rect.Dx(), m.Rect.Dy()
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			// (sx, sy) is the pixel of m that goes to (x, y).
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			copy(out.Pix[y*out.Stride+4*x:y*out.Stride+4*x+4], m.Pix[sy*m.Stride+4*sx:])
		}
	}
	return out
}
