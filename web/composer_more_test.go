package web_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/x"
)

// A post of an X thread carries its own media: a refusal (five images on one post) comes back
// beside that post's picker with every post and its media kept; a valid thread saves its media
// per post and the edit page shows them again.
func TestComposerThreadMediaInPlace(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, b.upload(t, pngBytes(t, 8, 8, false), "image/png").ID)
	}
	day := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	vals := url.Values{"teamId": {team.ID}, "networks": {"TWITTER"}, "text": {"1/ launch"}, "action": {"schedule"},
		"date": {day}, "time": {"10:00"},
		"TWITTER.thread": {"2/ one image", "3/ too many"}, "TWITTER.thread.key": {"4", "9"},
		"TWITTER.thread.4.uploadIds": {ids[0]}, "TWITTER.thread.9.uploadIds": ids}
	rec := b.post(t, "/composer", vals, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	requireNoInlineStyleOrScript(t, doc)
	panel := doc.Find(`[data-testid="panel-TWITTER"]`)
	require.Contains(t, panel.Find(`[data-testid="thread-media-error-1"]`).Text(), "up to 4 images")
	require.Zero(t, panel.Find(`[data-testid="thread-media-error-0"]`).Length())
	require.Equal(t, "2/ one image", panel.Find(`[data-testid="thread-text-0"]`).Text())
	require.Equal(t, "3/ too many", panel.Find(`[data-testid="thread-text-1"]`).Text())
	require.Equal(t, "", panel.Find(`[data-testid="thread-text-2"]`).Text()) // the empty post to write the next
	require.Equal(t, 5, panel.Find(`input[type="hidden"][name="TWITTER.thread.1.uploadIds"]`).Length())
	require.Equal(t, ids[0], panel.Find(`input[type="hidden"][name="TWITTER.thread.0.uploadIds"]`).AttrOr("value", ""))
	require.True(t, panel.Find(`[data-testid="thread-media-1"]`).Is("[open]"))
	require.Equal(t, "!", strings.TrimSpace(doc.Find(`[data-testid="tab-TWITTER"] .net-tab__errors`).Text()))
	grid := panel.Find(`[data-testid="thread-media-1"] [data-thread-grid]`)
	require.Equal(t, "load", grid.AttrOr("hx-trigger", ""))
	require.Contains(t, grid.AttrOr("hx-get", ""), "name=TWITTER.thread.1.uploadIds")
	// The picker under that name ticks the post's media.
	rec = b.get(t, grid.AttrOr("hx-get", ""), "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, 5, parse(t, rec).Find(`input[name="TWITTER.thread.1.uploadIds"][checked]`).Length())
	// The preview shows each post's media.
	rec = b.post(t, "/composer/preview", vals, "HX-Request", "true")
	thread := parse(t, rec).Find(`[data-testid="preview-TWITTER"] [data-testid="preview-thread"] li`)
	require.Equal(t, 2, thread.Length())
	require.Equal(t, 1, thread.Eq(0).Find(`.preview__tile`).Length())
	require.Equal(t, 4, thread.Eq(1).Find(`.preview__tile`).Length()) // four tiles, "+1" on the last
	require.Contains(t, thread.Eq(1).Text(), "+1")

	// Four images: saved, each post with its media.
	vals["TWITTER.thread.9.uploadIds"] = ids[1:]
	rec = b.post(t, "/composer", vals)
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
	postID := strings.TrimPrefix(rec.Header().Get("Location"), "/posts/")
	p, err := b.pub.GetPost(b.ctx(t), postID)
	require.NoError(t, err)
	require.Equal(t, []x.ThreadTweet{{Text: "2/ one image", UploadIDs: ids[:1]}, {Text: "3/ too many", UploadIDs: ids[1:]}}, x.Of(&p.Data).Thread)
	rec = b.get(t, "/posts/"+postID+"/edit")
	require.Equal(t, http.StatusOK, rec.Code)
	panel = parse(t, rec).Find(`[data-testid="panel-TWITTER"]`)
	require.Equal(t, 4, panel.Find(`input[type="hidden"][name="TWITTER.thread.1.uploadIds"]`).Length())
	require.Equal(t, "3/ too many", panel.Find(`[data-testid="thread-text-1"]`).Text())
}

// Instagram's slides: one per chosen medium, in order, each with its alt text and tags; they are
// asked for again as the media change, and a slide's issue shows on that slide.
func TestComposerInstagramSlidesInPlace(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	b.connect(t, team.ID, app.Instagram, "ada.gram")
	one := b.upload(t, pngBytes(t, 8, 8, false), "image/png").ID
	two := b.upload(t, pngBytes(t, 8, 8, false), "image/png").ID

	// One medium: no slides yet, a note says why.
	rec := b.post(t, "/composer/slides", url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "uploadIds": {one}}, "HX-Request", "true")
	require.Equal(t, http.StatusOK, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="ig-slides-note"]`).Text(), "two or more")
	// Two, in the order chosen, keeping the values typed for each.
	rec = b.post(t, "/composer/slides", url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "uploadIds": {two, one},
		"INSTAGRAM.slide." + one + ".altText": {"The first upload"}}, "HX-Request", "true")
	doc = parse(t, rec)
	require.Equal(t, two, doc.Find(`[data-testid="ig-slide-1"]`).AttrOr("data-upload-id", ""))
	require.Equal(t, one, doc.Find(`[data-testid="ig-slide-2"]`).AttrOr("data-upload-id", ""))
	require.Equal(t, "The first upload", doc.Find(`[data-testid="ig-slide-2"] input[name="INSTAGRAM.slide.`+one+`.altText"]`).AttrOr("value", ""))
	require.Zero(t, doc.Find(`#composer-slides`).Length()) // the list only: the wrapper stays

	// Saved: tags that cannot be read are refused beside their slide; the PNGs (Instagram takes
	// JPEG) are refused beside the network, in plain words, once for both.
	day := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	vals := url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "text": {"Carousel"}, "uploadIds": {one, two},
		"action": {"schedule"}, "date": {day}, "time": {"10:00"},
		"INSTAGRAM.slide." + one + ".altText": {"A cup"}, "INSTAGRAM.slide." + two + ".tagged": {"ada, left, top"}}
	rec = b.post(t, "/composer", vals, "HX-Request", "true")
	doc = parse(t, rec)
	panel := doc.Find(`[data-testid="panel-INSTAGRAM"]`)
	require.Contains(t, panel.Find(`[data-testid="ig-slide-tags-error-2"]`).Text(), "from 0 to 1")
	require.Equal(t, "ada, left, top", panel.Find(`[data-testid="ig-slide-tags-2"]`).Text())
	require.Equal(t, "A cup", panel.Find(`[data-testid="ig-slide-1"] input`).AttrOr("value", ""))
	vals.Set("INSTAGRAM.slide."+two+".tagged", "@grace, 0.5, 0.25")
	rec = b.post(t, "/composer", vals, "HX-Request", "true")
	doc = parse(t, rec)
	panel = doc.Find(`[data-testid="panel-INSTAGRAM"]`)
	require.Equal(t, []string{"Instagram needs a JPEG image — this one is a PNG"},
		doc.Find(`[data-testid="check-INSTAGRAM"] [data-testid="check-text"]`).Map(func(_ int, s *goquery.Selection) string { return s.Text() }))
	require.Zero(t, panel.Find(`[data-testid="ig-slide-error-1"]`).Length())
	require.Equal(t, "@grace, 0.5, 0.25", panel.Find(`[data-testid="ig-slide-tags-2"]`).Text())

	// JPEGs, as a draft (the test account has no Instagram business account chosen, which
	// scheduling needs): saved as a carousel, each slide with its values; the edit page has them.
	jpgA, jpgB := b.upload(t, jpegBytes(t), "image/jpeg").ID, b.upload(t, jpegBytes(t), "image/jpeg").ID
	vals = url.Values{"teamId": {team.ID}, "networks": {"INSTAGRAM"}, "text": {"Carousel"}, "uploadIds": {jpgA, jpgB},
		"action": {"draft"}, "date": {day}, "time": {"10:00"},
		"INSTAGRAM.slide." + jpgA + ".altText": {"A cup"}, "INSTAGRAM.slide." + jpgB + ".tagged": {"@grace, 0.5, 0.25"}}
	rec = b.post(t, "/composer", vals)
	require.Equal(t, http.StatusSeeOther, rec.Code, errorsOf(parseBody(t, rec.Body.String())))
	postID := strings.TrimPrefix(rec.Header().Get("Location"), "/posts/")
	p, err := b.pub.GetPost(b.ctx(t), postID)
	require.NoError(t, err)
	require.Equal(t, []instagram.CarouselItem{{UploadID: jpgA, AltText: "A cup"},
		{UploadID: jpgB, Tagged: []instagram.Tag{{Username: "grace", X: 0.5, Y: 0.25}}}}, instagram.Of(&p.Data).CarouselItems)
	rec = b.get(t, "/posts/"+postID+"/edit")
	panel = parse(t, rec).Find(`[data-testid="panel-INSTAGRAM"]`)
	require.Equal(t, "A cup", panel.Find(`[data-testid="ig-slide-1"] input`).AttrOr("value", ""))
	require.Equal(t, "grace, 0.5, 0.25", panel.Find(`[data-testid="ig-slide-tags-2"]`).Text())
}

// jpegBytes is a small square JPEG (Instagram's format).
func jpegBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, nil))
	return buf.Bytes()
}

// errorsOf are the messages of a refused composer, for a failing test's message.
func errorsOf(doc *goquery.Document) string {
	var out []string
	doc.Find(`.field__error, [role="alert"]`).Each(func(_ int, s *goquery.Selection) { out = append(out, strings.TrimSpace(s.Text())) })
	return strings.Join(out, " | ")
}
