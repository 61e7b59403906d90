package phototest

import (
	"bytes"
	"encoding/binary"
	"image/color"
	"testing"

	"golang.org/x/image/webp"
)

// bits writes a VP8L bit stream: least significant bit first.
type bits struct {
	out []byte
	acc uint64
	n   uint
}

func (b *bits) put(v uint64, n uint) {
	b.acc |= v << b.n
	for b.n += n; b.n >= 8; b.n -= 8 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
	}
}

// TestWebPFixture makes WebP again, as it was made: a VP8L stream with no
// transform, no colour cache and five simple Huffman codes (green always
// 0; red, blue and alpha each 0 or 255, one bit a pixel; distance unused),
// then checks that x/image/webp reads what the fixture promises.
func TestWebPFixture(t *testing.T) {
	var b bits
	b.put(0x2f, 8)      // signature
	b.put(15, 14)       // width - 1
	b.put(15, 14)       // height - 1
	b.put(1, 1)         // alpha is used
	b.put(0, 3)         // version
	b.put(0, 1+1+1)     // no transform, no colour cache, no meta codes
	b.put(0b0_0_0_1, 4) // green: simple, one symbol, 1 bit long, symbol 0
	for range 3 {       // red, blue, alpha: simple, two 8-bit symbols, 0 and 255
		b.put(0b1_1_1, 3)
		b.put(0, 8)
		b.put(255, 8)
	}
	b.put(0b0_0_0_1, 4) // distance: as green
	for range 16 {
		for x := range 16 {
			if x < 8 {
				b.put(0b1_0_1, 3) // red 255, blue 0, alpha 255
			} else {
				b.put(0b0_1_0, 3) // red 0, blue 255, alpha 0
			}
		}
	}
	if b.n > 0 {
		b.out = append(b.out, byte(b.acc))
	}
	var file bytes.Buffer
	file.WriteString("RIFF")
	binary.Write(&file, binary.LittleEndian, uint32(4+8+len(b.out)+len(b.out)%2))
	file.WriteString("WEBPVP8L")
	binary.Write(&file, binary.LittleEndian, uint32(len(b.out)))
	file.Write(b.out)
	if len(b.out)%2 == 1 {
		file.WriteByte(0)
	}
	if !bytes.Equal(file.Bytes(), WebP) {
		t.Fatalf("the fixture is not what its recipe makes:\n got %x\nwant %x", WebP, file.Bytes())
	}
	m, err := webp.Decode(bytes.NewReader(WebP))
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds().Dx() != 16 || m.Bounds().Dy() != 16 {
		t.Fatalf("bounds %v", m.Bounds())
	}
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{{0, 0, Red}, {7, 15, Red}, {8, 0, Clear}, {15, 15, Clear}} {
		if got := color.NRGBAModel.Convert(m.At(c.x, c.y)); got != c.want {
			t.Errorf("(%d, %d) is %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
