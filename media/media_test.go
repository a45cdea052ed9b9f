package media_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/media"
	"github.com/crier/crier/media/mediatest"
)

func TestSniffAndProbeRealSamples(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		data          []byte
		mime, ext     string
		kind          media.Kind
		width, height int
		duration      float64
	}{
		{"png", mediatest.PNG(300, 200), media.MIMEPNG, "png", media.KindImage, 300, 200, 0},
		{"jpeg", mediatest.JPEG(640, 480), media.MIMEJPEG, "jpg", media.KindImage, 640, 480, 0},
		{"gif", mediatest.GIF(50, 70), media.MIMEGIF, "gif", media.KindImage, 50, 70, 0},
		{"mp4", mediatest.Fixture(t, "sample.mp4"), media.MIMEMP4, "mp4", media.KindVideo, 320, 240, 2.5},
		{"mov", mediatest.Fixture(t, "sample.mov"), media.MIMEQuickTime, "mov", media.KindVideo, 160, 90, 1.5},
		{"pdf", mediatest.Fixture(t, "sample.pdf"), media.MIMEPDF, "pdf", media.KindDocument, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mime := media.Sniff(tc.data[:min(len(tc.data), media.SniffLen)])
			require.Equal(t, tc.mime, mime)
			info, err := media.Probe(mime, bytes.NewReader(tc.data), int64(len(tc.data)))
			require.NoError(t, err)
			require.Equal(t, tc.ext, info.Ext)
			require.Equal(t, tc.kind, info.Kind)
			require.Equal(t, tc.width, info.Width)
			require.Equal(t, tc.height, info.Height)
			require.InDelta(t, tc.duration, info.Duration, 0.05)
		})
	}
}

func TestSniffRefusesOtherTypes(t *testing.T) {
	t.Parallel()
	for _, data := range [][]byte{[]byte("hello, world"), []byte("<html><script>alert(1)</script>"), []byte("RIFF\x00\x00\x00\x00WEBPVP8 ")} {
		require.Empty(t, media.Sniff(data), string(data))
	}
	require.Equal(t, "image/webp", media.DescribeUnknown([]byte("RIFF\x00\x00\x00\x00WEBPVP8 ")))
	// A PNG signature with garbage after it is unreadable, not a PNG.
	_, err := media.Probe(media.MIMEPNG, bytes.NewReader([]byte("\x89PNG\r\n\x1a\nnope")), 12)
	require.ErrorIs(t, err, media.ErrUnreadable)
	_, err = media.Probe(media.MIMEMP4, bytes.NewReader([]byte("\x00\x00\x00\x0cftypisom")), 12)
	require.ErrorIs(t, err, media.ErrUnreadable)
}

func TestAgrees(t *testing.T) {
	t.Parallel()
	require.True(t, media.Agrees("image/jpg", media.MIMEJPEG))
	require.True(t, media.Agrees("video/quicktime", media.MIMEMP4))
	require.False(t, media.Agrees("image/png", media.MIMEJPEG))
	require.False(t, media.Agrees("application/pdf", media.MIMEGIF))
	require.False(t, media.Agrees("text/html", media.MIMEGIF))
}

func TestThumbnails(t *testing.T) {
	t.Parallel()
	thumb, icon, err := media.Thumbnails(media.MIMEPNG, bytes.NewReader(mediatest.PNG(1600, 900)))
	require.NoError(t, err)
	tc, err := jpeg.DecodeConfig(bytes.NewReader(thumb))
	require.NoError(t, err)
	require.Equal(t, [2]int{640, 360}, [2]int{tc.Width, tc.Height})
	ic, err := jpeg.DecodeConfig(bytes.NewReader(icon))
	require.NoError(t, err)
	require.Equal(t, [2]int{128, 72}, [2]int{ic.Width, ic.Height})
	// Small images are not enlarged.
	thumb, _, err = media.Thumbnails(media.MIMEGIF, bytes.NewReader(mediatest.GIF(40, 30)))
	require.NoError(t, err)
	tc, _ = jpeg.DecodeConfig(bytes.NewReader(thumb))
	require.Equal(t, 40, tc.Width)
}

func TestVideoThumbnailWithFFmpeg(t *testing.T) {
	t.Parallel()
	if !media.HaveFFmpeg() {
		t.Skip("ffmpeg is not on PATH: videos get no thumbnail (apt-get install ffmpeg to test this)")
	}
	path := filepath.Join(t.TempDir(), "v.mp4")
	require.NoError(t, os.WriteFile(path, mediatest.Fixture(t, "sample.mp4"), 0o600))
	thumb, icon, err := media.VideoThumbnail(context.Background(), path, 2.5)
	require.NoError(t, err)
	tc, err := jpeg.DecodeConfig(bytes.NewReader(thumb))
	require.NoError(t, err)
	require.Equal(t, [2]int{320, 240}, [2]int{tc.Width, tc.Height})
	require.NotEmpty(t, icon)
}

// A PDF is checked to its skeleton: "%PDF-1.4" followed by junk is unreadable, as are a missing
// %%EOF and a startxref that points outside the file or at no cross-reference section; real PDFs
// (a table, or an xref stream) pass.
func TestProbeChecksPDFStructure(t *testing.T) {
	t.Parallel()
	sample := mediatest.Fixture(t, "sample.pdf")
	probe := func(b []byte) error {
		_, err := media.Probe(media.MIMEPDF, bytes.NewReader(b), int64(len(b)))
		return err
	}
	require.NoError(t, probe(sample))
	stream := []byte("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
	xref := len(stream)
	stream = append(stream, []byte("2 0 obj\n<< /Type /XRef /Size 3 >>\nstream\nendstream\nendobj\nstartxref\n"+strconv.Itoa(xref)+"\n%%EOF\n")...)
	require.NoError(t, probe(stream), "a cross-reference stream")

	for name, b := range map[string][]byte{
		"junk":            append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("junk "), 500)...),
		"no %%EOF":        sample[:len(sample)-6],
		"offset outside":  bytes.Replace(sample, []byte("startxref\n403"), []byte("startxref\n999999"), 1),
		"offset not xref": bytes.Replace(sample, []byte("startxref\n403"), []byte("startxref\n10"), 1),
		"header only":     []byte("%PDF-1.4"),
	} {
		err := probe(b)
		require.ErrorIs(t, err, media.ErrUnreadable, name)
	}
}
