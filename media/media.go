// Package media reads what an upload is from its bytes, never from what the client says: the type
// by sniffing its signature, image dimensions from the image header (PNG, JPEG, GIF), video
// dimensions and duration from the MP4/QuickTime boxes (github.com/abema/go-mp4, no ffmpeg), and
// makes thumbnails and icons of images in Go (golang.org/x/image/draw). A video thumbnail needs
// ffmpeg on PATH; without it there is none.
package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os/exec"
	"time"

	mp4 "github.com/abema/go-mp4"
	xdraw "golang.org/x/image/draw"
)

// Kind is the spec's upload type.
type Kind string

const (
	KindImage    Kind = "image"
	KindVideo    Kind = "video"
	KindDocument Kind = "document"
)

// The seven MIME types the spec allows (image/jpg is a synonym of image/jpeg).
const (
	MIMEJPEG      = "image/jpeg"
	MIMEJPG       = "image/jpg"
	MIMEPNG       = "image/png"
	MIMEGIF       = "image/gif"
	MIMEMP4       = "video/mp4"
	MIMEQuickTime = "video/quicktime"
	MIMEPDF       = "application/pdf"
)

// Allowed is the spec's list of allowed upload MIME types.
var Allowed = []string{MIMEJPG, MIMEJPEG, MIMEPNG, MIMEGIF, MIMEMP4, MIMEQuickTime, MIMEPDF}

// IsAllowed reports whether mime is one of the allowed types.
func IsAllowed(mime string) bool {
	for _, a := range Allowed {
		if a == mime {
			return true
		}
	}
	return false
}

// Type describes a sniffed type.
type Type struct {
	MIME string
	Ext  string
	Kind Kind
}

var types = map[string]Type{
	MIMEJPEG:      {MIMEJPEG, "jpg", KindImage},
	MIMEPNG:       {MIMEPNG, "png", KindImage},
	MIMEGIF:       {MIMEGIF, "gif", KindImage},
	MIMEMP4:       {MIMEMP4, "mp4", KindVideo},
	MIMEQuickTime: {MIMEQuickTime, "mov", KindVideo},
	MIMEPDF:       {MIMEPDF, "pdf", KindDocument},
}

// TypeOf answers the type of an allowed MIME type (image/jpg is image/jpeg).
func TypeOf(mime string) (Type, bool) {
	if mime == MIMEJPG {
		mime = MIMEJPEG
	}
	t, ok := types[mime]
	return t, ok
}

// Agrees reports whether a declared MIME type agrees with the sniffed one. image/jpg and
// image/jpeg are one type; MP4 and QuickTime are one container family (ISO BMFF), which browsers
// and cameras label either way, so they agree with each other too.
func Agrees(declared, sniffed string) bool {
	d, ok1 := TypeOf(declared)
	s, ok2 := TypeOf(sniffed)
	if !ok1 || !ok2 {
		return false
	}
	return d.MIME == s.MIME || (d.Kind == KindVideo && s.Kind == KindVideo)
}

// SniffLen is how many leading bytes Sniff needs.
const SniffLen = 64

// Sniff answers the MIME type of content from its first bytes, "" when it is none of the allowed
// types. It also names a few refused types (WebP, others) as "other" types for messages.
func Sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return MIMEPNG
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return MIMEJPEG
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return MIMEGIF
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return MIMEPDF
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		if string(head[8:12]) == "qt  " {
			return MIMEQuickTime
		}
		return MIMEMP4
	case len(head) >= 8:
		// QuickTime files from before ftyp start with one of these atoms.
		switch string(head[4:8]) {
		case "moov", "mdat", "wide", "free", "skip", "pnot":
			return MIMEQuickTime
		}
	}
	return ""
}

// DescribeUnknown names a refused type for messages (from net/http's sniffer).
func DescribeUnknown(head []byte) string {
	if len(head) >= 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return "image/webp"
	}
	return http.DetectContentType(head)
}

// Info is what the bytes say.
type Info struct {
	Type
	Width, Height int     // images and videos; 0 when unknown
	Duration      float64 // seconds, videos
}

// ErrUnreadable reports content whose signature matches a type but whose structure does not.
var ErrUnreadable = errors.New("media: the file cannot be read as its type")

// Probe reads the metadata of content of the given sniffed type. r must read the whole content.
func Probe(mime string, r io.ReaderAt, size int64) (Info, error) {
	t, ok := TypeOf(mime)
	if !ok {
		return Info{}, fmt.Errorf("media: %q is not an allowed type", mime)
	}
	info := Info{Type: t}
	switch t.Kind {
	case KindImage:
		var cfg image.Config
		var err error
		sr := io.NewSectionReader(r, 0, size)
		switch t.MIME {
		case MIMEPNG:
			cfg, err = png.DecodeConfig(sr)
		case MIMEJPEG:
			cfg, err = jpeg.DecodeConfig(sr)
		case MIMEGIF:
			cfg, err = gif.DecodeConfig(sr)
		}
		if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
			return info, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		info.Width, info.Height = cfg.Width, cfg.Height
	case KindVideo:
		w, h, d, err := probeMP4(io.NewSectionReader(r, 0, size))
		if err != nil {
			return info, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		info.Width, info.Height, info.Duration = w, h, d
	case KindDocument:
		if err := probePDF(r, size); err != nil {
			return info, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
	}
	return info, nil
}

// probeMP4 reads the movie header (duration) and the first video track's header (display size).
func probeMP4(r io.ReadSeeker) (width, height int, duration float64, err error) {
	boxes, err := mp4.ExtractBoxesWithPayload(r, nil, []mp4.BoxPath{
		{mp4.BoxTypeMoov(), mp4.BoxTypeMvhd()},
		{mp4.BoxTypeMoov(), mp4.BoxTypeTrak(), mp4.BoxTypeTkhd()},
		{mp4.BoxTypeMoov(), mp4.BoxTypeTrak(), mp4.BoxTypeMdia(), mp4.BoxTypeHdlr()},
	})
	if err != nil {
		return 0, 0, 0, err
	}
	var found bool
	var tkhd *mp4.Tkhd
	for _, b := range boxes {
		switch p := b.Payload.(type) {
		case *mp4.Mvhd:
			found = true
			if p.Timescale > 0 {
				d := uint64(p.DurationV0)
				if p.GetVersion() == 1 {
					d = p.DurationV1
				}
				duration = float64(d) / float64(p.Timescale)
			}
		case *mp4.Tkhd:
			tkhd = p // the hdlr of the same trak follows it
		case *mp4.Hdlr:
			if tkhd != nil && string(p.HandlerType[:]) == "vide" && width == 0 {
				width, height = int(tkhd.Width>>16), int(tkhd.Height>>16)
			}
			tkhd = nil
		}
	}
	if !found {
		return 0, 0, 0, errors.New("no movie header (moov/mvhd)")
	}
	return width, height, duration, nil
}

// Preview sizes: the thumbnail fits in ThumbnailSide, the icon in IconSide (pixels, longest side).
const (
	ThumbnailSide = 640
	IconSide      = 128
)

// Thumbnails decodes an image and answers a thumbnail and an icon, as JPEG (transparency on white).
// Images smaller than a size are not enlarged.
func Thumbnails(mime string, r io.Reader) (thumb, icon []byte, err error) {
	img, _, err := image.Decode(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	if thumb, err = resizeJPEG(img, ThumbnailSide); err != nil {
		return nil, nil, err
	}
	if icon, err = resizeJPEG(img, IconSide); err != nil {
		return nil, nil, err
	}
	return thumb, icon, nil
}

func resizeJPEG(src image.Image, side int) ([]byte, error) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			w, h = side, max(1, h*side/b.Dx())
		} else {
			w, h = max(1, w*side/b.Dy()), side
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}); err != nil {
		return nil, fmt.Errorf("media: encode thumbnail: %w", err)
	}
	return buf.Bytes(), nil
}

// HaveFFmpeg reports whether ffmpeg is on PATH.
func HaveFFmpeg() bool {
	_, err := exec.LookPath("ffmpeg")
	return err == nil
}

// VideoThumbnail grabs a frame of the video at input (a file path or a URL ffmpeg can read) with
// ffmpeg, and answers it as a thumbnail and an icon. Without ffmpeg it answers nothing and no error.
func VideoThumbnail(ctx context.Context, input string, duration float64) (thumb, icon []byte, err error) {
	if !HaveFFmpeg() {
		return nil, nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	at := "0"
	if duration >= 2 {
		at = "1"
	}
	cmd := exec.CommandContext(ctx, "ffmpeg", "-nostdin", "-loglevel", "error", "-ss", at, "-i", input,
		"-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "pipe:1")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("media: ffmpeg: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	if out.Len() == 0 {
		return nil, nil, fmt.Errorf("media: ffmpeg produced no frame")
	}
	return Thumbnails(MIMEPNG, &out)
}
