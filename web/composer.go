package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/layout"
	composerview "github.com/crier/crier/views/pages/composer"
)

// Paths and route names of the composer.
const (
	pathComposer        = "/composer"
	pathComposerPreview = pathComposer + "/preview"
	pathComposerMedia   = pathComposer + "/media"
	pathComposerSlides  = pathComposer + "/slides"
	pathComposerConvert = pathComposer + "/convert"

	routeComposerSave    = "composer.save"
	routeComposerPreview = "composer.preview"
	routeComposerMedia   = "composer.media"
	routeComposerSlides  = "composer.slides"
	routeComposerConvert = "composer.convert"
)

// composerShell is the frame of the composer: the shell plus the upload script and composer.js
// (tabs, the upload dialog).
func (h *Handler) composerShell(c echo.Context, title string) layout.Shell {
	s := h.shell(c, areaComposer, title)
	s.Scripts = append(s.Scripts, assetURL("js/media.js"), assetURL("js/composer.js"))
	return s
}

// composerShow serves GET /composer (?teamId= chooses the team; ?date=YYYY-MM-DD prefills the
// schedule, from the calendar).
func (h *Handler) composerShow(c echo.Context) error {
	vals := url.Values{}
	if y, m, d, ok := parseDay(c.QueryParam("date")); ok {
		vals.Set("date", time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format(dateLayout))
		vals.Set("time", "09:00")
	}
	in := readComposer(vals, viewerLocation(c))
	in.TeamID = c.QueryParam("teamId")
	d, err := h.composerData(c, in, nil)
	if err != nil {
		return err
	}
	// A team switch swaps in a new form: it starts at a revision of its own, so a preview the
	// previous form sent, answering late, is not taken for this one's.
	d.Rev = int(time.Now().UnixMilli() % 1_000_000_000)
	return h.renderComposer(c, http.StatusOK, d)
}

func (h *Handler) renderComposer(c echo.Context, status int, d composerview.Data) error {
	return render(c, status, composerview.Page(h.composerShell(c, d.Title), d), composerview.Content(d))
}

// composerSave serves POST /composer: creates the post (draft, review, scheduled, or scheduled
// for now) and goes to its page; a refusal shows the composer again with every value and the
// errors beside their fields.
func (h *Handler) composerSave(c echo.Context) error {
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	in := readComposer(vals, viewerLocation(c))
	return h.savePost(c, in, nil)
}

// savePost creates (cur nil) or updates the post of a submitted composer form.
func (h *Handler) savePost(c echo.Context, in composerInput, cur *app.Post) error {
	ctx := c.Request().Context()
	status := app.PostScheduled
	switch in.Action {
	case actionDraft:
		status = app.PostDraft
	case actionReview:
		status = app.PostReview
	case actionNow:
		now := time.Now()
		in.PostDate = &now
		delete(in.Errors, "date")
		delete(in.Errors, "time")
	}
	in.ownChecks(status)
	var post *app.Post
	var err error
	if len(in.Errors) == 0 {
		p := in.postParams(status)
		if fc := firstComments(in); fc != nil || cur != nil {
			p.FirstComment, p.FirstCommentSet = fc, true
		}
		if cur == nil {
			p.TeamID = in.TeamID
			post, err = h.pub.CreatePost(ctx, p)
		} else {
			post, err = h.pub.UpdatePost(ctx, cur.ID, p)
		}
	}
	var message string
	if err != nil {
		switch app.ErrorCode(err) {
		case app.EInvalid:
			message = in.addIssues(app.ErrorIssues(err), app.ErrorMessage(err))
		case app.EForbidden, app.EConflict, app.ENotFound, app.ERateLimited:
			message = app.ErrorMessage(err)
		default:
			return err
		}
	}
	if post == nil {
		d, derr := h.composerData(c, in, cur)
		if derr != nil {
			return derr
		}
		d.Checked, d.Rev = in.Action, in.Rev+1
		if message != "" {
			d.Message = message
		} else if len(d.Errors) > 0 || len(d.Checks) > 0 {
			d.Message, d.Attention = "Some fields need your attention: they are marked below.", true
		}
		status := http.StatusUnprocessableEntity
		if isHTMX(c) {
			status = http.StatusOK // htmx swaps 2xx answers only
		}
		return h.renderComposer(c, status, d)
	}
	flash := map[app.PostStatus]string{
		app.PostDraft:     "Draft saved.",
		app.PostReview:    "Sent for review: an admin or owner approves it before it is scheduled.",
		app.PostScheduled: "Scheduled for " + viewerMoment(c, timeOrZero(post.PostDate)) + ".",
	}[status]
	if in.Action == actionNow {
		flash = "Publishing now. This page follows each network live."
	}
	return flashRedirect(c, flash, string(idURL(pathPosts, post.ID, "")))
}

func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// firstComments reads the tabs' first comments ("firstComment.TWITTER").
func firstComments(in composerInput) map[app.Network]string {
	var out map[app.Network]string
	for _, n := range in.Networks {
		if v := strings.TrimSpace(in.Values.Get(firstCommentName(n))); v != "" {
			if out == nil {
				out = map[app.Network]string{}
			}
			out[n] = v
		}
	}
	return out
}

func firstCommentName(n app.Network) string { return "firstComment." + string(n) }

// composerTeam is the team the composer works on: id, else the organization's first team (nil
// when it has none).
func (h *Handler) composerTeam(c echo.Context, id string) (*app.TeamDetail, error) {
	ctx := c.Request().Context()
	if id != "" {
		return h.svc.GetTeam(ctx, id)
	}
	list, _, err := h.svc.ListTeams(ctx, "", app.Page{Limit: 1})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return &list[0], nil
}

// liveAccounts are a team's connected accounts by network.
func liveAccounts(t *app.TeamDetail) map[app.Network]*app.SocialAccount {
	out := map[app.Network]*app.SocialAccount{}
	for i := range t.SocialAccounts {
		a := &t.SocialAccounts[i]
		if a.DeletedAt == nil {
			out[a.Type] = a
		}
	}
	return out
}
