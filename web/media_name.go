package web

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
	mediaview "github.com/crier/crier/views/pages/media"
)

// Upload names in the library (edited in place) and what the file picker offers.

const (
	routeMediaRename = "media.rename"
	suffixName       = "/name"
)

// mediaAccept is the file input's accept: exactly the types Crier keeps (media.Allowed, the spec's
// list), so the picker never offers a file that is then refused. WebP is not among them: Instagram,
// Threads and TikTok take only JPEG (and PNG) images, so a WebP would be refused by the networks
// most people post images to; people convert it, and the hint below says which types are taken.
func mediaAccept() string { return strings.Join(media.Allowed, ",") }

// mediaAccepted says the accepted types in words, from the same list.
func mediaAccepted() string {
	var images, videos, docs []string
	seen := map[string]bool{}
	for _, m := range media.Allowed {
		l, ok := mimeLabels[m]
		if !ok || seen[l] {
			continue
		}
		seen[l] = true
		word, _, _ := strings.Cut(l, " ")
		switch {
		case strings.HasPrefix(m, "image/"):
			images = append(images, word)
		case strings.HasPrefix(m, "video/"):
			videos = append(videos, word)
		default:
			docs = append(docs, word)
		}
	}
	var parts []string
	if len(images) > 0 {
		parts = append(parts, joinOr(images)+" images")
	}
	if len(videos) > 0 {
		parts = append(parts, joinOr(videos)+" videos")
	}
	if len(docs) > 0 {
		parts = append(parts, joinOr(docs)+" documents")
	}
	return "Crier takes " + strings.Join(parts, ", ")
}

// joinOr joins words as people do: "A", "A or B", "A, B or C".
func joinOr(w []string) string {
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// mediaRename serves POST /media/:id/name (name=…): the name field again, saved or with the refusal
// beside it (htmx); without JavaScript, back to the library.
func (h *Handler) mediaRename(c echo.Context) error {
	ctx := c.Request().Context()
	name := c.FormValue("name")
	u, err := h.svc.RenameUpload(ctx, c.Param("id"), name)
	if err != nil {
		if !refusalOrLimit(err) || app.ErrorCode(err) == app.ENotFound || app.ErrorCode(err) == app.EForbidden {
			return pageError(err)
		}
		cur, gerr := h.svc.GetUpload(ctx, c.Param("id"))
		if gerr != nil {
			return pageError(gerr)
		}
		it := mediaItem(c, *cur)
		if !isHTMX(c) {
			d, lerr := h.mediaLibrary(c, mediaview.Filters{}, 1)
			if lerr != nil {
				return lerr
			}
			d.Upload.Message = "The name of " + it.Title() + " was not saved: " + refusalText(err)
			return h.renderMedia(c, refusedFormStatus(c, true), d)
		}
		return render(c, refusedFormStatus(c, true), mediaview.NameField(it, name, refusalText(err), false), nil)
	}
	if !isHTMX(c) {
		return flashRedirect(c, "Name saved.", pathMedia)
	}
	it := mediaItem(c, *u)
	return render(c, refusedFormStatus(c, false), mediaview.NameField(it, it.Name, "", true), nil)
}
