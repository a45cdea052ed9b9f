// Package mediatest makes real sample files for tests: PNG, JPEG and GIF images drawn in Go, and
// the committed MP4, MOV and PDF fixtures of media/testdata (made with ffmpeg: 320×240 2.5 s H.264
// MP4 with its index at the end; 160×90 1.5 s QuickTime with its index first; a one-page PDF).
package mediatest

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 128, A: 255})
		}
	}
	return img
}

// PNG answers a w×h PNG.
func PNG(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, picture(w, h))
	return b.Bytes()
}

// JPEG answers a w×h JPEG.
func JPEG(w, h int) []byte {
	var b bytes.Buffer
	_ = jpeg.Encode(&b, picture(w, h), &jpeg.Options{Quality: 80})
	return b.Bytes()
}

// GIF answers a w×h GIF.
func GIF(w, h int) []byte {
	src := picture(w, h)
	p := image.NewPaletted(src.Bounds(), palette.Plan9)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p.Set(x, y, src.At(x, y))
		}
	}
	var b bytes.Buffer
	_ = gif.Encode(&b, p, nil)
	return b.Bytes()
}

// Fixture answers media/testdata/name: sample.mp4, sample.mov or sample.pdf.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", name))
	if err != nil {
		t.Fatalf("mediatest: %v", err)
	}
	return b
}
