package app

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
)

// demoVideo is a real 1-second MP4 (a copy of media/testdata/sample.mp4): Go has no encoder for
// video, and the demo must not need ffmpeg.
//
//go:embed demo_video.mp4
var demoVideo []byte

// demoPicture is one image of the demo library: a two-colour gradient with a sun, drawn in Go.
type demoPicture struct {
	name     string
	from, to color.RGBA
	png      bool
}

var demoPictures = []demoPicture{
	{name: "sunset-terrace.jpg", from: color.RGBA{255, 183, 77, 255}, to: color.RGBA{229, 57, 53, 255}},
	{name: "harbour-morning.jpg", from: color.RGBA{129, 212, 250, 255}, to: color.RGBA{21, 101, 192, 255}},
	{name: "meadow-picnic.jpg", from: color.RGBA{197, 225, 165, 255}, to: color.RGBA{46, 125, 50, 255}},
	{name: "dusk-menu.png", from: color.RGBA{206, 147, 216, 255}, to: color.RGBA{74, 20, 140, 255}, png: true},
	{name: "noon-special.png", from: color.RGBA{255, 245, 157, 255}, to: color.RGBA{255, 143, 0, 255}, png: true},
}

// DemoUploads is how many files the demo library holds (the pictures and the video).
var DemoUploads = len(demoPictures) + 1

func (p demoPicture) encode(w, h int) ([]byte, string, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	cx, cy, r := float64(w)*0.7, float64(h)*0.35, float64(h)*0.12
	for y := 0; y < h; y++ {
		t := float64(y) / float64(h-1)
		row := color.RGBA{mix(p.from.R, p.to.R, t), mix(p.from.G, p.to.G, t), mix(p.from.B, p.to.B, t), 255}
		for x := 0; x < w; x++ {
			c := row
			if math.Hypot(float64(x)-cx, float64(y)-cy) < r {
				c = color.RGBA{255, 250, 230, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if p.png {
		err := png.Encode(&b, img)
		return b.Bytes(), "image/png", err
	}
	err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
	return b.Bytes(), "image/jpeg", err
}

func mix(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }

// demoMedia fills an empty library with the pictures and the video, uploaded through the Service.
func (s *Service) demoMedia(ctx context.Context, d *DemoSeed) error {
	have, err := s.ListUploads(ctx, UploadFilter{}, Page{Limit: 1})
	if err != nil || len(have) > 0 {
		return err
	}
	for _, p := range demoPictures {
		b, mime, err := p.encode(1080, 1080)
		if err != nil {
			return fmt.Errorf("demo picture: %w", err)
		}
		if _, err := s.CreateUpload(ctx, &d.TeamID, bytes.NewReader(b), int64(len(b)), mime, p.name); err != nil {
			return fmt.Errorf("demo picture: %w", err)
		}
	}
	if _, err := s.CreateUpload(ctx, &d.TeamID, bytes.NewReader(demoVideo), int64(len(demoVideo)), "video/mp4", "coffee-pour.mp4"); err != nil {
		return fmt.Errorf("demo video: %w", err)
	}
	return nil
}
