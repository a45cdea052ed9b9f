package app

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	"github.com/crier/crier/media"
)

// ConvertUploadToJPEG makes a JPEG copy of a PNG upload as a new upload of the same team (named
// like it, .jpg), for networks that take only JPEG (Instagram, TikTok's photos). Transparent
// pixels become white, as on a feed. The PNG stays in the library.
func (s *Service) ConvertUploadToJPEG(ctx context.Context, id string) (*Upload, error) {
	u, err := s.GetUpload(ctx, id)
	if err != nil {
		return nil, err
	}
	if u.Mime != media.MIMEPNG {
		return nil, Invalid("Validation failed: uploadId: only a PNG image is converted to JPEG",
			Issue{Code: IssueCustom, Message: "Only a PNG image is converted to JPEG", Path: []any{"uploadId"}})
	}
	r, err := s.Storage().GetRange(ctx, u.Path, 0, -1)
	if err != nil {
		return nil, fmt.Errorf("app: convert upload: %w", err)
	}
	defer r.Close()
	src, err := png.Decode(io.LimitReader(r, u.FileSize))
	if err != nil {
		return nil, Invalid("Validation failed: uploadId: the PNG could not be read",
			Issue{Code: IssueCustom, Message: "The PNG could not be read", Path: []any{"uploadId"}})
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Over)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 90}); err != nil {
		return nil, fmt.Errorf("app: convert upload: %w", err)
	}
	name := "image.jpg"
	if u.Name != nil && *u.Name != "" {
		base := *u.Name
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		name = base + ".jpg"
	}
	return s.CreateUpload(ctx, u.TeamID, bytes.NewReader(out.Bytes()), int64(out.Len()), media.MIMEJPEG, name)
}
