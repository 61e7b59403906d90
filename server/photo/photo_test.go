package photo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"runtime"
	"testing"

	"kith/server/photo/phototest"
)

// made runs Process and decodes what it made, failing the test unless it
// is a JPEG with no metadata segment.
func made(t *testing.T, raw []byte) image.Image {
	t.Helper()
	out, err := Process(raw)
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	checkBare(t, out)
	m, err := phototest.Decode(out)
	if err != nil {
		t.Fatalf("what Process made does not decode: %v", err)
	}
	return m
}

// checkBare fails unless jpg's segments before the image data are those of
// a baseline JPEG with no metadata: no APPn but a JFIF APP0, no COM.
func checkBare(t *testing.T, jpg []byte) {
	t.Helper()
	markers, err := phototest.Markers(jpg)
	if err != nil {
		t.Fatal(err)
	}
	sof := 0
	for _, m := range markers {
		switch {
		case m >= 0xe1 && m <= 0xef:
			t.Errorf("an APP%d segment: %x", m-0xe0, markers)
		case m == 0xfe:
			t.Errorf("a COM segment: %x", markers)
		case m == 0xc0:
			sof++
		case m >= 0xc1 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			t.Errorf("not baseline: SOF%d: %x", m-0xc0, markers)
		}
	}
	if sof != 1 {
		t.Errorf("%d baseline SOF0 segments, want 1: %x", sof, markers)
	}
}

func size(m image.Image) [2]int { return [2]int{m.Bounds().Dx(), m.Bounds().Dy()} }

func TestProcessEachFormat(t *testing.T) {
	quads := phototest.Quadrants(40, 20)
	for _, c := range []struct {
		name string
		raw  []byte
	}{
		{"JPEG", phototest.JPEG(quads)},
		{"PNG", phototest.PNG(quads)},
		{"GIF", phototest.GIF(quads)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := made(t, c.raw)
			if size(m) != [2]int{40, 20} {
				t.Fatalf("size %v, want the image's own, 40×20: never scaled up", size(m))
			}
			for _, p := range []struct {
				x, y int
				want color.NRGBA
			}{{2, 2, phototest.Red}, {2, 17, phototest.Green}, {37, 10, phototest.Blue}} {
				if got := m.At(p.x, p.y); !phototest.Near(got, p.want) {
					t.Errorf("(%d, %d) is %v, want about %v", p.x, p.y, got, p.want)
				}
			}
		})
	}
	t.Run("WebP lossless with transparency", func(t *testing.T) {
		m := made(t, phototest.WebP)
		if size(m) != [2]int{16, 16} {
			t.Fatalf("size %v", size(m))
		}
		if got := m.At(2, 8); !phototest.Near(got, phototest.Red) {
			t.Errorf("the opaque half is %v, want red", got)
		}
		if got := m.At(13, 8); !phototest.Near(got, phototest.White) {
			t.Errorf("the transparent half is %v, want white (laid on white)", got)
		}
	})
}

func TestProcessLaysTransparencyOnWhite(t *testing.T) {
	half := phototest.Image(64, 64, func(x, y int) color.NRGBA {
		switch {
		case x < 32:
			return phototest.Clear
		case y < 32:
			return color.NRGBA{0, 0, 0, 128} // half-transparent black: grey on white
		}
		return phototest.Blue
	})
	m := made(t, phototest.PNG(half))
	if got := m.At(10, 10); !phototest.Near(got, phototest.White) {
		t.Errorf("a transparent pixel is %v, want white", got)
	}
	if got := m.At(50, 10); !phototest.Near(got, color.NRGBA{127, 127, 127, 255}) {
		t.Errorf("half-transparent black is %v, want mid grey", got)
	}
	if got := m.At(50, 50); !phototest.Near(got, phototest.Blue) {
		t.Errorf("an opaque pixel is %v, want blue", got)
	}
}

func TestProcessScalesDown(t *testing.T) {
	for _, c := range []struct {
		w, h int
		want [2]int
	}{
		{1024, 300, [2]int{512, 150}},
		{300, 1024, [2]int{150, 512}},
		{600, 600, [2]int{512, 512}},
		{513, 200, [2]int{512, 200}},  // 199.6 rounds to 200
		{1000, 333, [2]int{512, 170}}, // 170.496 rounds down
		{5000, 3, [2]int{512, 1}},     // 0.3 is at least 1
		{512, 100, [2]int{512, 100}},
		{7, 3, [2]int{7, 3}},
	} {
		m := made(t, phototest.PNG(phototest.Quadrants(c.w, c.h)))
		if size(m) != c.want {
			t.Errorf("%d×%d became %v, want %v", c.w, c.h, size(m), c.want)
		}
	}
}

// TestShrinkAverages checks the box filter on exact values, without JPEG:
// each pixel made is the mean of the area it covers, partial pixels
// weighted by how much of them it covers.
func TestShrinkAverages(t *testing.T) {
	// 3 columns of grey 0, 90 and 180 become 2: the first covers column 0
	// and half of column 1 (0·1 + 90·½) / 1.5 = 30, the second 150.
	src := phototest.Image(3, 2, func(x, _ int) color.NRGBA {
		v := uint8(90 * x)
		return color.NRGBA{v, v, v, 255}
	})
	m := shrink(src, src.Bounds(), 2, 1)
	if got := [2]uint8{m.Pix[0], m.Pix[4]}; got != [2]uint8{30, 150} {
		t.Errorf("got %v, want [30 150]", got)
	}
	// Same size: every pixel as it was.
	same := shrink(src, src.Bounds(), 3, 2)
	for i, want := range []uint8{0, 90, 180, 0, 90, 180} {
		if same.Pix[4*i] != want || same.Pix[4*i+3] != 255 {
			t.Errorf("pixel %d is %v, want %d", i, same.Pix[4*i:4*i+4], want)
		}
	}
	// A canvas larger than the image: what the image lacks is white.
	part := shrink(src, image.Rect(0, 0, 6, 2), 6, 2)
	if part.Pix[4*4] != 255 || part.Pix[4*1] != 90 {
		t.Errorf("got %v", part.Pix[:24])
	}
}

func TestProcessGIFFrameSmallerThanScreen(t *testing.T) {
	// A 20×20 screen whose one frame is a red 10×10 square at (5, 5).
	frame := image.NewPaletted(image.Rect(5, 5, 15, 15), color.Palette{phototest.Red, phototest.Blue})
	var b bytes.Buffer
	g := &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0}, Config: image.Config{Width: 20, Height: 20}}
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	m := made(t, b.Bytes())
	if size(m) != [2]int{20, 20} {
		t.Fatalf("size %v, want the screen's", size(m))
	}
	if !phototest.Near(m.At(10, 10), phototest.Red) || !phototest.Near(m.At(1, 1), phototest.White) {
		t.Errorf("frame %v, outside %v", m.At(10, 10), m.At(1, 1))
	}
}

func TestProcessRefuses(t *testing.T) {
	jpg := phototest.JPEG(phototest.Quadrants(40, 20))
	png := phototest.PNG(phototest.Quadrants(40, 20))
	for _, c := range []struct {
		name string
		raw  []byte
		want error
	}{
		{"nothing", nil, ErrFormat},
		{"text", []byte("hello, world"), ErrFormat},
		{"a BMP", append([]byte("BM"), make([]byte, 60)...), ErrFormat},
		{"a truncated JPEG", jpg[:len(jpg)/2], ErrImage},
		{"a JPEG header alone", jpg[:3], ErrImage},
		{"a truncated PNG", png[:len(png)-20], ErrImage},
		{"a PNG with a broken header", append(append([]byte{}, png[:16]...), 0xff, 0xff), ErrImage},
		{"a WebP without its data", phototest.WebP[:30], ErrImage},
		{"a GIF signature alone", []byte("GIF89a"), ErrImage},
		{"50000×50000 declared", phototest.Bomb(50000, 50000), ErrPixels},
		{"40,000,001 pixels", phototest.Bomb(40000001, 1), ErrPixels},
		{"over 10 MiB", append(append([]byte{}, jpg...), make([]byte, MaxBytes)...), ErrBytes},
	} {
		if _, err := Process(c.raw); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// Exactly 40 megapixels is no bomb: refused only for the IDAT that
	// is not there, once decoding starts.
	if _, err := Process(phototest.Bomb(40000000, 1)); !errors.Is(err, ErrImage) {
		t.Errorf("40,000,000 pixels: %v, want ErrImage", err)
	}
}

// TestBombCostsNothing: a PNG of a few dozen bytes declaring 50000×50000
// pixels would take 10 GB to decode. It is refused from its header, and
// the heap does not grow.
func TestBombCostsNothing(t *testing.T) {
	bomb := phototest.Bomb(50000, 50000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Process(bomb)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrPixels) {
		t.Fatalf("%v, want ErrPixels", err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Errorf("refusing the bomb allocated %d bytes", grown)
	}
}

func TestOrientation(t *testing.T) {
	jpg := phototest.JPEG(phototest.Quadrants(8, 8))
	for o := uint16(1); o <= 8; o++ {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			if got := Orientation(phototest.WithExif(jpg, o, order)); got != int(o) {
				t.Errorf("orientation %d (%v): read %d", o, order, got)
			}
		}
	}
	for name, raw := range map[string][]byte{
		"no Exif":           jpg,
		"out of range":      phototest.WithExif(jpg, 9, binary.BigEndian),
		"zero":              phototest.WithExif(jpg, 0, binary.LittleEndian),
		"a cut Exif":        phototest.WithExif(jpg, 6, binary.BigEndian)[:30],
		"a comment":         phototest.WithComment(jpg, "Exif\x00\x00MM\x00*"),
		"no JPEG at all":    []byte{0xff, 0xd8},
		"a length too long": {0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 'E'},
	} {
		if got := Orientation(raw); got != 1 {
			t.Errorf("%s: %d, want 1", name, got)
		}
	}
}

// TestUpright turns a 3×2 image of six grey levels, a b c over d e f, by
// each orientation, against the layouts drawn in the EXIF standard.
func TestUpright(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		src.Pix[4*i] = byte('a' + i)
	}
	for o, want := range map[int][]string{
		1: {"abc", "def"},
		2: {"cba", "fed"},
		3: {"fed", "cba"},
		4: {"def", "abc"},
		5: {"ad", "be", "cf"},
		6: {"da", "eb", "fc"}, // a quarter clockwise: the left column, upwards, is the top row
		7: {"fc", "eb", "da"},
		8: {"cf", "be", "ad"},
	} {
		m := upright(src, o)
		var got []string
		for y := range m.Rect.Dy() {
			var row []byte
			for x := range m.Rect.Dx() {
				row = append(row, m.Pix[y*m.Stride+4*x])
			}
			got = append(got, string(row))
		}
		if len(got) != len(want) || len(got[0]) != len(want[0]) {
			t.Errorf("orientation %d: %v, want %v", o, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("orientation %d: %v, want %v", o, got, want)
				break
			}
		}
	}
}

func TestProcessTurnsUprightAndDropsExif(t *testing.T) {
	// 40×20, red top left, green bottom left, blue right; orientation 6
	// turns it a quarter clockwise: 20×40, green top left (the left
	// column read upwards is the top row), red top right, blue below.
	raw := phototest.WithExif(phototest.JPEG(phototest.Quadrants(40, 20)), 6, binary.BigEndian)
	out, err := Process(raw)
	if err != nil {
		t.Fatal(err)
	}
	checkBare(t, out)
	if bytes.Contains(out, []byte("Exif")) || bytes.Contains(out, []byte("Kit")) {
		t.Error("the made JPEG holds the sent Exif")
	}
	m, _ := phototest.Decode(out)
	if size(m) != [2]int{20, 40} {
		t.Fatalf("size %v, want 20×40", size(m))
	}
	for _, p := range []struct {
		x, y int
		want color.NRGBA
	}{{3, 5, phototest.Green}, {16, 5, phototest.Red}, {10, 35, phototest.Blue}} {
		if got := m.At(p.x, p.y); !phototest.Near(got, p.want) {
			t.Errorf("(%d, %d) is %v, want about %v", p.x, p.y, got, p.want)
		}
	}
	// PNG has no EXIF that Kith reads: the same pixels stay as they are.
	if m := made(t, phototest.PNG(phototest.Quadrants(40, 20))); size(m) != [2]int{40, 20} {
		t.Errorf("a PNG was turned: %v", size(m))
	}
}

func TestProcessDropsComments(t *testing.T) {
	out, err := Process(phototest.WithComment(phototest.JPEG(phototest.Quadrants(16, 16)), "secret"))
	if err != nil {
		t.Fatal(err)
	}
	checkBare(t, out)
	if bytes.Contains(out, []byte("secret")) {
		t.Error("the comment was kept")
	}
}
