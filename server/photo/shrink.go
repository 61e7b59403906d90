package photo

import (
	"image"
	"image/draw"
)

// shrink scales the canvas of src (its bounds, or a larger rectangle whose
// pixels src lacks, which are transparent) down to w × h, laid on white:
// each pixel made is the average of the area of the canvas it covers
// (a box filter), which for a reduction is as sharp as a photo needs and
// aliases nothing. w and h must not exceed the canvas's sides.
//
// It reads src a row at a time, converted to RGBA by image/draw (whose
// fast paths cover what the decoders give: YCbCr, RGBA, NRGBA, Gray,
// CMYK), and keeps two rows of sums: memory for the result and a row of
// the canvas, whatever the image's size.
func shrink(src image.Image, canvas image.Rectangle, w, h int) *image.RGBA {
	sw, sh := canvas.Dx(), canvas.Dy()
	cols := spans(sw, w)
	row := image.NewRGBA(image.Rect(0, 0, sw, 1))
	cur, next := make([]uint64, 4*w), make([]uint64, 4*w)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	y := 0
	for j := range sh {
		clear(row.Pix) // what src does not cover stays transparent
		draw.Draw(row, row.Bounds(), src, image.Pt(canvas.Min.X, canvas.Min.Y+j), draw.Src)
		s := spanOf(j, sh, h)
		for ; y < s.to; y++ {
			emit(out, y, cur, uint64(sw)*uint64(sh))
			cur, next = next, cur
			clear(next)
		}
		addRow(cur, row.Pix, cols, s.first)
		if s.second > 0 {
			addRow(next, row.Pix, cols, s.second)
		}
	}
	emit(out, y, cur, uint64(sw)*uint64(sh))
	return out
}

// span is where one source pixel (a row or a column) of n goes among m
// (m ≤ n): to pixel to, by the weight first, and to the next one by
// second when it straddles the two. In units where a source pixel is m
// long and a pixel made n, so that each pixel made gets n in all.
type span struct {
	to            int
	first, second uint64
}

func spanOf(i, n, m int) span {
	start, end := i*m, (i+1)*m
	to := start / n
	edge := (to + 1) * n
	if end <= edge {
		return span{to, uint64(m), 0}
	}
	return span{to, uint64(edge - start), uint64(end - edge)}
}

func spans(n, m int) []span {
	out := make([]span, n)
	for i := range out {
		out[i] = spanOf(i, n, m)
	}
	return out
}

// addRow adds a row of premultiplied RGBA pixels, each weighted by its
// column's span and by wy, to the sums of a row made.
func addRow(sums []uint64, pix []uint8, cols []span, wy uint64) {
	for i, c := range cols {
		p := pix[4*i : 4*i+4 : 4*i+4]
		a, b := c.first*wy, c.second*wy
		s := sums[4*c.to : 4*c.to+4 : 4*c.to+4]
		s[0] += uint64(p[0]) * a
		s[1] += uint64(p[1]) * a
		s[2] += uint64(p[2]) * a
		s[3] += uint64(p[3]) * a
		if b > 0 {
			s = sums[4*c.to+4 : 4*c.to+8 : 4*c.to+8]
			s[0] += uint64(p[0]) * b
			s[1] += uint64(p[1]) * b
			s[2] += uint64(p[2]) * b
			s[3] += uint64(p[3]) * b
		}
	}
}

// emit writes row y of out from its sums, whose weights add up to total
// per pixel: the average colour over white, which shows where the
// average is transparent (premultiplied, white adds 255 - alpha).
func emit(out *image.RGBA, y int, sums []uint64, total uint64) {
	pix := out.Pix[y*out.Stride : y*out.Stride+4*out.Rect.Dx()]
	for x := 0; x < len(pix); x += 4 {
		s := sums[x : x+4 : x+4]
		white := 255*total - s[3]
		for c := range 3 {
			pix[x+c] = uint8((s[c] + white + total/2) / total)
		}
		pix[x+3] = 255
	}
}
