//go:build ignore

// icons_gen draws the web app's icons (static/icon-*.png) from the
// favicon's design, in pixels: Kith's green square with a white "K" of
// three round-capped strokes. go generate runs it (manifest.go); the PNGs
// are committed, so that a build needs no generator.
package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"

	"golang.org/x/image/vector"
)

// The favicon's design (static/favicon.svg), in its 32-unit box.
const (
	box    = 32
	corner = 7   // the square's corner radius
	stroke = 3.2 // the K's stroke width
)

// strokes are the K's: the stem, the arm and the leg.
var strokes = [][4]float32{{10, 7, 10, 25}, {10, 17, 19, 7}, {13, 14, 21, 25}}

var (
	green = color.NRGBA{0x2f, 0x6f, 0x5e, 0xff}
	white = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

func main() {
	for _, i := range []struct {
		file     string
		size     int
		maskable bool
	}{
		{"static/icon-192.png", 192, false},
		{"static/icon-512.png", 512, false},
		{"static/icon-maskable-512.png", 512, true},
	} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, icon(i.size, i.maskable)); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(i.file, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// icon draws one icon of size px. A maskable icon fills its square, since
// the launcher cuts its own shape, and keeps the K within the middle 80%
// circle that every launcher's shape leaves whole.
func icon(size int, maskable bool) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	unit := float32(size) / box
	if maskable {
		fill(img, square(size, 0), green)
	} else {
		fill(img, square(size, corner*unit), green)
	}
	scale, shift := unit, float32(0)
	if maskable {
		scale, shift = unit*0.8, float32(size)*0.1
	}
	for _, s := range strokes {
		fill(img, capsule(s[0]*scale+shift, s[1]*scale+shift, s[2]*scale+shift, s[3]*scale+shift, stroke/2*scale, size), white)
	}
	return img
}

// fill paints the rasterized shape onto img in c, anti-aliased.
func fill(img *image.NRGBA, r *vector.Rasterizer, c color.Color) {
	r.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{})
}

// square is a size px square with corners rounded by radius px.
func square(size int, radius float32) *vector.Rasterizer {
	s := float32(size)
	r := vector.NewRasterizer(size, size)
	// k puts a cubic's control points where it best follows a quarter circle.
	const k = 0.5523
	r.MoveTo(radius, 0)
	r.LineTo(s-radius, 0)
	r.CubeTo(s-radius+k*radius, 0, s, radius-k*radius, s, radius)
	r.LineTo(s, s-radius)
	r.CubeTo(s, s-radius+k*radius, s-radius+k*radius, s, s-radius, s)
	r.LineTo(radius, s)
	r.CubeTo(radius-k*radius, s, 0, s-radius+k*radius, 0, s-radius)
	r.LineTo(0, radius)
	r.CubeTo(0, radius-k*radius, radius-k*radius, 0, radius, 0)
	r.ClosePath()
	return r
}

// capsule is the line from (x0, y0) to (x1, y1) drawn with round caps of
// radius px: half a circle around each end, joined by the sides.
func capsule(x0, y0, x1, y1, radius float32, size int) *vector.Rasterizer {
	r := vector.NewRasterizer(size, size)
	along := math.Atan2(float64(y1-y0), float64(x1-x0))
	const steps = 32
	arc := func(cx, cy float32, from float64) {
		for i := 0; i <= steps; i++ {
			a := from + math.Pi*float64(i)/steps
			x, y := cx+radius*float32(math.Cos(a)), cy+radius*float32(math.Sin(a))
			if i == 0 && cx == x0 && cy == y0 {
				r.MoveTo(x, y)
			} else {
				r.LineTo(x, y)
			}
		}
	}
	arc(x0, y0, along+math.Pi/2)
	arc(x1, y1, along-math.Pi/2)
	r.ClosePath()
	return r
}
