package photo_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image/jpeg"
	"os"
	"testing"

	"kith/server/photo"
	"kith/server/photo/phototest"
)

// TestKept: what Process makes is kept as it is; anything else is told
// why not.
func TestKept(t *testing.T) {
	made, err := photo.Process(phototest.PNG(phototest.Quadrants(600, 300)))
	if err != nil {
		t.Fatal(err)
	}
	// image/jpeg writes neither restart markers nor progressive scans:
	// these two come from Go's own image/testdata, with a JFIF APP0 each.
	restarts, err := os.ReadFile("testdata/video-001.restart2.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	progressive, err := os.ReadFile("testdata/video-001.progressive.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	big := phototest.JPEG(phototest.Quadrants(513, 20))
	var withAPP0 bytes.Buffer
	withAPP0.Write(made[:2])
	withAPP0.Write([]byte{0xff, 0xe0})
	binary.Write(&withAPP0, binary.BigEndian, uint16(16))
	withAPP0.Write([]byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	withAPP0.Write(made[2:])
	for _, c := range []struct {
		name string
		jpg  []byte
		want error
	}{
		{"what Process made", made, nil},
		{"with a JFIF APP0", withAPP0.Bytes(), nil},
		{"with restart markers", restarts, nil},
		{"a PNG", phototest.PNG(phototest.Quadrants(10, 10)), photo.ErrFormat},
		{"cut short", made[:len(made)/2], photo.ErrImage},
		{"a header only", made[:200], photo.ErrImage},
		{"513 pixels wide", big, photo.ErrSide},
		{"with Exif", phototest.WithExif(made, 6, binary.BigEndian), photo.ErrNotBaseline},
		{"with a comment", phototest.WithComment(made, "hello"), photo.ErrNotBaseline},
		{"bytes after its end", append(bytes.Clone(made), "payload"...), photo.ErrNotBaseline},
		{"progressive: a scan after the first", progressive, photo.ErrNotBaseline},
		{"over 10 MiB", append(bytes.Clone(made), make([]byte, photo.MaxBytes)...), photo.ErrBytes},
	} {
		if err := photo.Kept(c.jpg); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if cfg, _ := jpeg.DecodeConfig(bytes.NewReader(made)); cfg.Width != 512 || cfg.Height != 256 {
		t.Errorf("Process made %d × %d", cfg.Width, cfg.Height)
	}
}
