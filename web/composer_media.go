package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	composerview "github.com/crier/crier/views/pages/composer"
	mediaview "github.com/crier/crier/views/pages/media"
)

// composerMedia serves GET /composer/media: the media grid again (after an upload, or a page of
// it), keeping the ticked uploads. ?name= is the inputs' name: uploadIds (the shared media, the
// default), NETWORK.uploadIds (a network's own media) or TWITTER.thread.KEY.uploadIds (a post of
// an X thread); the ticked uploads come under that name.
func (h *Handler) composerMedia(c echo.Context) error {
	name := c.QueryParam("name")
	if !pickerName(name) {
		name = "uploadIds"
	}
	g, _, err := h.composerGrid(c, nonEmpty(c.QueryParams()[name]), pageNumber(c), name)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, mediaview.PickerResults(g), nil)
}

// pickerName reports whether name is one the composer's media pickers use (besides uploadIds).
func pickerName(name string) bool {
	n, rest, ok := strings.Cut(name, ".")
	if !ok || !app.Network(n).Valid() {
		return false
	}
	if rest == "uploadIds" {
		return true
	}
	key, ok := strings.CutPrefix(rest, "thread.")
	key, ok2 := strings.CutSuffix(key, ".uploadIds")
	return ok && ok2 && fieldOfKind(app.Network(n), app.KindThread) == "thread" && formKey.MatchString(key)
}

// composerSlides serves POST /composer/slides: Instagram's carousel slides for the form's media
// as they are now (the media were ticked or reordered), keeping each slide's values.
func (h *Handler) composerSlides(c echo.Context) error {
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	in := readComposer(vals, viewerLocation(c))
	n, key := carouselNetwork()
	if n == "" {
		return echo.ErrNotFound
	}
	f := composerview.Field{Name: fieldName(n, key), ID: fieldID(fieldName(n, key)), Kind: string(app.KindCarousel)}
	h.fillSlides(c, &f, n, in)
	return render(c, http.StatusOK, composerview.SlideList(f), nil)
}

// fillSlides gives a carousel field its slides: one per medium the network gets, in order, with
// the form's values and errors.
func (h *Handler) fillSlides(c echo.Context, f *composerview.Field, n app.Network, in composerInput) {
	f.SlidesURL, f.OwnMedia = pathComposerSlides, composerview.OwnMediaID(string(n))
	media := nonEmpty(in.Values[mediaName(n)])
	if len(media) == 0 {
		media = in.Media
	}
	if len(media) < 2 {
		f.Note = "Choose two or more images or videos to make a carousel: each slide then gets its own alt text and tagged people. A single image uses the alt text and tagged people of the whole post."
		return
	}
	thumbs := h.thumbs(c.Request().Context(), c, media)
	for i, id := range media {
		s := composerview.Slide{ID: id, Number: i + 1, Thumb: thumbs[id],
			AltName: slideName(n, id, "altText"), Alt: in.Values.Get(slideName(n, id, "altText")), AltError: in.Errors[slideName(n, id, "altText")],
			TagsName: slideName(n, id, "tagged"), Tags: in.Values.Get(slideName(n, id, "tagged")), TagsError: in.Errors[slideName(n, id, "tagged")],
			Error: in.Errors[slideName(n, id, "")]}
		f.Slides = append(f.Slides, s)
	}
}

// composerGrid is page n of the library in select mode for the composer, with selected ticked (the
// chosen uploads not on the page come first, so paging never drops a choice), and the thumbnail
// choices (its images and videos). Paging asks /composer/media, with the ticked uploads (the
// grid's hx-include, which its pager inherits).
func (h *Handler) composerGrid(c echo.Context, selected []string, n int, name string) (mediaview.Grid, []composerview.Option, error) {
	items, next, err := h.mediaItems(c, mediaview.Filters{}, n)
	if err != nil {
		return mediaview.Grid{}, nil, err
	}
	g := mediaview.Grid{Items: items, Select: true, Name: name, Multiple: true, Page: n,
		Action: templ.SafeURL(pathMediaPicker), Selected: map[string]bool{}}
	// Chosen uploads not on the first page come first, so they stay ticked.
	have := map[string]bool{}
	for _, it := range items {
		have[it.ID] = true
	}
	var missing []string
	for _, id := range selected {
		g.Selected[id] = true
		if !have[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		list, err := h.svc.ListUploads(c.Request().Context(), app.UploadFilter{IDs: missing}, app.Page{Limit: len(missing)})
		if err != nil {
			return mediaview.Grid{}, nil, err
		}
		extra := make([]mediaview.Item, 0, len(list))
		for _, u := range list {
			extra = append(extra, mediaItem(c, u))
		}
		g.Items = append(extra, g.Items...)
	}
	// Only the shared grid pages (the media package's pager targets its one results id); a
	// network's own grid shows the first page and its choices.
	if next && name == "uploadIds" {
		g.Next = withQuery(pathComposerMedia, "page", strconv.Itoa(n+1))
	}
	if n > 1 && name == "uploadIds" {
		g.Prev = withQuery(pathComposerMedia, "page", strconv.Itoa(n-1))
	}
	thumbs := []composerview.Option{{Value: "", Label: "None"}}
	for _, it := range g.Items {
		if it.Kind == "image" || it.Kind == "video" {
			label := it.TypeLabel
			if it.Dimensions != "" {
				label += ", " + it.Dimensions
			}
			thumbs = append(thumbs, composerview.Option{Value: it.ID, Label: label + " · " + it.Created})
		}
	}
	return g, thumbs, nil
}

// thumbs are the preview images of uploads by id.
func (h *Handler) thumbs(ctx context.Context, c echo.Context, ids []string) map[string]composerview.Thumb {
	out := map[string]composerview.Thumb{}
	if len(ids) == 0 {
		return out
	}
	list, err := h.svc.ListUploads(ctx, app.UploadFilter{IDs: ids}, app.Page{Limit: min(len(ids), app.MaxPageLimit)})
	if err != nil {
		return out // a preview without images is still a preview
	}
	for _, u := range list {
		it := mediaItem(c, u)
		out[u.ID] = composerview.Thumb{URL: it.Thumb, Kind: it.Kind, Alt: it.Alt()}
	}
	return out
}
