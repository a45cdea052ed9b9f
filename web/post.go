package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/posts"
)

// Paths and route names of the posts pages.
const (
	pathPosts      = "/posts"
	pathPostReview = pathPosts + "/review"
	pathPost       = pathPosts + "/:id"

	suffixRetry      = "/retry"
	suffixApprove    = "/approve"
	suffixReject     = "/reject"
	suffixReschedule = "/reschedule"

	routePostsReview     = "posts.review"
	routePost            = "post"
	routePostEdit        = "post.edit"
	routePostUpdate      = "post.update"
	routePostRetry       = "post.retry"
	routePostApprove     = "post.approve"
	routePostReject      = "post.reject"
	routePostReschedule  = "post.reschedule"
	routePostDeleteAsk   = "post.delete.confirm"
	routePostDelete      = "post.delete"
	postsPageSize        = 20
	livePollingLookahead = 5 * time.Minute // a scheduled post due this soon is followed live
)

// postsShell is the frame of the posts pages (confirmation dialogs: organization.js).
func (h *Handler) postsShell(c echo.Context, title string) layout.Shell {
	return h.orgShell(c, areaPosts, title)
}

// postsList serves GET /posts with GET /post's filters: teamId, status, q, platforms, from and to
// (local dates: postDateFrom, postDateTo), orderBy, order and page.
func (h *Handler) postsList(c echo.Context) error { return h.listPosts(c, false) }

// postsReview serves GET /posts/review: the approval queue (REVIEW posts).
func (h *Handler) postsReview(c echo.Context) error { return h.listPosts(c, true) }

func (h *Handler) listPosts(c echo.Context, review bool) error {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	base := pathPosts
	if review {
		base = pathPostReview
	}
	d := posts.List{Review: review, CanReview: app.Can(callerRole(c), app.ActReviewPosts), Action: base, AllHref: pathPosts,
		QueueHref: pathPostReview, Compose: pathComposer, Zone: zoneName(loc), TeamsHref: pathTeams}
	for _, n := range app.Networks {
		d.Networks = append(d.Networks, posts.Net{Code: string(n), Name: n.DisplayName()})
	}
	teams, _, err := h.svc.ListTeams(ctx, "", app.Page{Limit: app.MaxPageLimit})
	if err != nil {
		return err
	}
	if len(teams) == 0 {
		d.NoTeams = true
		return render(c, http.StatusOK, posts.ListPage(h.postsShell(c, "Posts"), d), posts.ListContent(d))
	}
	q := c.QueryParams()
	f := posts.Filters{Team: q.Get("teamId"), Q: strings.TrimSpace(q.Get("q")), Status: q.Get("status"), From: q.Get("from"), To: q.Get("to"),
		OrderBy: q.Get("orderBy"), Order: q.Get("order"), Platforms: map[string]bool{}}
	pf := app.PostFilter{TeamID: f.Team}
	found := false
	for _, t := range teams {
		d.Teams = append(d.Teams, posts.Option{Value: t.ID, Label: t.Name})
		found = found || t.ID == f.Team
	}
	if !found {
		f.Team, pf.TeamID = teams[0].ID, teams[0].ID
	}
	if review {
		f.Status = string(app.PostReview)
	}
	if s := app.PostStatus(f.Status); hasStatus(s) {
		pf.Status = &s
	} else {
		f.Status = ""
	}
	if f.Q != "" {
		pf.Q = &f.Q
	}
	for _, p := range q["platforms"] {
		if n := app.Network(p); n.Valid() {
			pf.Platforms = append(pf.Platforms, n)
			f.Platforms[p] = true
		}
	}
	if y, m, dd, ok := parseDay(f.From); ok {
		t := localDay(y, m, dd, loc).Start
		pf.PostDateFrom = &t
	} else {
		f.From = ""
	}
	if y, m, dd, ok := parseDay(f.To); ok {
		t := localDay(y, m, dd, loc).End.Add(-time.Millisecond)
		pf.PostDateTo = &t
	} else {
		f.To = ""
	}
	switch f.OrderBy {
	case "createdAt", "updatedAt", "postDate", "postedDate":
	default:
		f.OrderBy = "createdAt"
		if review {
			f.OrderBy = "postDate"
		}
	}
	pf.OrderBy = f.OrderBy
	if f.Order != "ASC" {
		f.Order = "DESC"
	}
	pf.Order = f.Order
	d.Filters = f
	n := pageNumber(c)
	list, total, err := h.pub.ListPosts(ctx, pf, servicePage(n, postsPageSize))
	if err != nil {
		return pageError(err)
	}
	query := func(page int) string {
		kv := []string{"teamId", f.Team, "q", f.Q, "from", f.From, "to", f.To, "orderBy", f.OrderBy, "order", f.Order, "page", strconv.Itoa(page)}
		if !review {
			kv = append(kv, "status", f.Status)
		}
		u := string(withQuery(base, kv...))
		for _, p := range pf.Platforms {
			if strings.Contains(u, "?") {
				u += "&"
			} else {
				u += "?"
			}
			u += "platforms=" + url.QueryEscape(string(p))
		}
		return u
	}
	d.Self, d.Page, d.Total = query(n), n, total
	d.Pages = max(1, (total+postsPageSize-1)/postsPageSize)
	if n > 1 {
		d.Prev = query(n - 1)
	}
	if n*postsPageSize < total {
		d.Next = query(n + 1)
	}
	for _, p := range list {
		d.Rows = append(d.Rows, h.postRow(c, p))
	}
	if queued, err := h.pub.CountPosts(ctx, f.Team, app.PostReview); err == nil {
		d.Queue = queued
	}
	if hxTarget(c) == "posts-results" {
		if c.Request().Header.Get(headerHXTriggerID) == "posts-filters" {
			c.Response().Header().Set("HX-Push-Url", d.Self)
		}
		return render(c, http.StatusOK, posts.Results(d), nil)
	}
	title := "Posts"
	if review {
		title = "Approval queue"
	}
	return render(c, http.StatusOK, posts.ListPage(h.postsShell(c, title), d), posts.ListContent(d))
}

func hasStatus(s app.PostStatus) bool {
	for _, x := range app.PostStatuses {
		if x == s {
			return true
		}
	}
	return false
}

// hasDate reports whether a post has a real date (a draft saved without one has none).
func hasDate(t *time.Time) bool { return t != nil && t.Year() > 1 }

// postWhen is how a post's date reads: the label and the local moment.
func postWhen(c echo.Context, p app.Post) (label, when string) {
	switch {
	case p.Status == app.PostPosted && p.PostedDate != nil:
		return "Posted", viewerMoment(c, *p.PostedDate)
	case !hasDate(p.PostDate):
		return "No date yet ·", "created " + viewerMoment(c, p.CreatedAt)
	case p.Status == app.PostDraft:
		return "Draft for", viewerMoment(c, *p.PostDate)
	case p.Status == app.PostReview:
		return "Proposed for", viewerMoment(c, *p.PostDate)
	case p.Status == app.PostScheduled:
		return "Scheduled for", viewerMoment(c, *p.PostDate)
	}
	if p.Status == app.PostError || p.Status == app.PostDeleted {
		return "Was due", viewerMoment(c, *p.PostDate)
	}
	return "Publishing since", viewerMoment(c, *p.PostDate)
}

// postText is a post's main text (its first network's).
func postText(p app.Post) string {
	for _, n := range p.Data.Networks() {
		if b := p.Data.Of(n).Body(); b != "" {
			return b
		}
	}
	return ""
}

// postTargets are a post's networks with their own status (the POST targets; a post without
// targets shows its networks with its own status).
func postTargets(p app.Post) []posts.TargetChip {
	var out []posts.TargetChip
	for _, t := range p.Targets {
		if t.Kind == "POST" {
			out = append(out, posts.TargetChip{Code: string(t.Network), Name: t.Network.DisplayName(), Status: string(t.Status)})
		}
	}
	if len(out) == 0 {
		for _, n := range p.SocialAccountTypes {
			out = append(out, posts.TargetChip{Code: string(n), Name: n.DisplayName(), Status: string(p.Status)})
		}
	}
	return out
}

func (h *Handler) postRow(c echo.Context, p app.Post) posts.Row {
	label, when := postWhen(c, p)
	text := postText(p)
	r := posts.Row{ID: p.ID, Title: p.Title, Excerpt: excerpt(text, 140), Status: string(p.Status), Partly: partlyPublished(p.Status, p.PostedDate, p.Targets), When: when, WhenLabel: label,
		Networks: postTargets(p), Media: len(p.Uploads), Href: string(idURL(pathPosts, p.ID, "")),
		Approve: string(idURL(pathPosts, p.ID, suffixApprove)), Reject: string(idURL(pathPosts, p.ID, suffixReject))}
	if p.Status.Editable() {
		r.Edit = string(idURL(pathPosts, p.ID, suffixEdit))
	}
	if p.ReviewNote != nil && p.Status == app.PostDraft {
		r.Note = *p.ReviewNote
	}
	for _, u := range p.Uploads {
		if u.Upload.ThumbnailURL != nil {
			r.Thumb = *u.Upload.ThumbnailURL
			break
		}
		if u.Upload.Type == "image" && u.Upload.URL != nil {
			r.Thumb = *u.Upload.URL
			break
		}
	}
	return r
}

func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}

// postShow serves GET /posts/:id; htmx polling gets the live part alone.
func (h *Handler) postShow(c echo.Context) error {
	p, err := h.pub.GetPost(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.renderPost(c, http.StatusOK, p, "")
}

func (h *Handler) renderPost(c echo.Context, status int, p *app.Post, message string) error {
	d := h.postDetail(c, p)
	d.Message = message
	c.Response().Header().Set("Cache-Control", "no-store")
	if hxTarget(c) == "post-live" {
		return render(c, status, posts.LiveSection(d), nil)
	}
	return render(c, status, posts.DetailPage(h.postsShell(c, p.Title), d), posts.DetailContent(d))
}

// postLive reports whether a post's page should follow it: a network publishing or retrying, a
// first comment waiting for its post, or a schedule due within livePollingLookahead.
func postLive(p *app.Post, now time.Time) bool {
	for _, t := range p.Targets {
		switch t.Status {
		case app.PostProcessing, app.PostRetrying, "WAITING":
			return true
		case app.PostScheduled:
			if hasDate(p.PostDate) && p.PostDate.Before(now.Add(livePollingLookahead)) {
				return true
			}
		}
	}
	switch p.Status {
	case app.PostProcessing, app.PostRetrying:
		return true
	}
	return false
}

func (h *Handler) postDetail(c echo.Context, p *app.Post) posts.Detail {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	label, when := postWhen(c, *p)
	d := posts.Detail{ID: p.ID, Title: p.Title, Status: string(p.Status), Partly: partlyPublished(p.Status, p.PostedDate, p.Targets), Chips: postTargets(*p), When: when, WhenLabel: label, Zone: zoneName(loc),
		Created: viewerMoment(c, p.CreatedAt), Updated: viewerMoment(c, p.UpdatedAt), Text: postText(*p),
		Live: postLive(p, time.Now()), Self: string(idURL(pathPosts, p.ID, "")), Back: pathPosts,
		Verbose: p.ErrorsVerbose != nil, Settings: pathSettings, CanReview: app.Can(callerRole(c), app.ActReviewPosts)}
	if t, err := h.svc.GetTeam(ctx, p.TeamID); err == nil {
		d.Team = t.Name
	}
	if p.PostedDate != nil {
		d.Posted = viewerMoment(c, *p.PostedDate)
	}
	if p.Error != nil {
		d.Error = *p.Error
	}
	if p.ReviewNote != nil && p.Status == app.PostDraft {
		d.ReviewNote = *p.ReviewNote
	}
	for _, u := range p.Uploads {
		if u.Upload.ThumbnailURL != nil {
			d.Thumbs = append(d.Thumbs, *u.Upload.ThumbnailURL)
		} else if u.Upload.Type == "image" && u.Upload.URL != nil {
			d.Thumbs = append(d.Thumbs, *u.Upload.URL)
		}
	}
	if p.Status.Editable() {
		d.Edit = string(idURL(pathPosts, p.ID, suffixEdit))
		d.Reschedule = string(idURL(pathPosts, p.ID, suffixReschedule))
		if hasDate(p.PostDate) {
			lt := p.PostDate.In(loc)
			d.Date, d.Time = lt.Format(dateLayout), lt.Format("15:04")
		}
	}
	if p.Status != app.PostDeleted {
		d.Delete = string(idURL(pathPosts, p.ID, suffixDelete))
	}
	if p.Status == app.PostReview && d.CanReview {
		d.Approve = string(idURL(pathPosts, p.ID, suffixApprove))
		d.Reject = string(idURL(pathPosts, p.ID, suffixReject))
	}
	accounts := map[string]string{}
	for _, l := range p.SocialAccounts {
		display, handle := accountNames(&l.SocialAccount)
		accounts[l.SocialAccountID] = strings.TrimSpace(display + " " + handle)
	}
	failed := false
	for _, t := range p.Targets {
		if t.Kind == "COMMENT" {
			continue
		}
		x := posts.Target{Network: string(t.Network), Name: t.Network.DisplayName(), Kind: t.Kind, Status: string(t.Status), Attempts: t.Attempts}
		if t.SocialAccountID != nil {
			x.Account = accounts[*t.SocialAccountID]
		}
		if t.Permalink != nil {
			x.Permalink, x.PermalinkText = *t.Permalink, "View on "+x.Name
		}
		if t.ExternalID != nil {
			x.ExternalID = *t.ExternalID
		}
		if h.sandbox != nil && x.Permalink != "" {
			// The sandbox's posts exist only in the sandbox: its inspector shows them, not x.com.
			x.Permalink = string(sandboxURL(t.Network, "")) + "#held-" + x.ExternalID
			x.PermalinkText = "View in the sandbox’s " + x.Name
		}
		if t.PostedAt != nil {
			x.Posted = viewerMoment(c, *t.PostedAt)
		}
		if t.NextAttemptAt != nil && t.Status == app.PostRetrying {
			x.NextAttempt = viewerMoment(c, *t.NextAttemptAt)
		}
		if t.Error != nil {
			x.Error = *t.Error
		}
		if t.Status == app.PostError {
			failed = true
		}
		if ev := p.ErrorsVerbose[t.Network]; ev != nil && t.Kind == "POST" && t.Error != nil {
			x.Verbose = verboseView(ev)
		}
		d.Targets = append(d.Targets, x)
	}
	if failed {
		d.Retry = string(idURL(pathPosts, p.ID, suffixRetry))
	}
	return d
}

func verboseView(ev *app.ErrorVerbose) *posts.Verbose {
	v := &posts.Verbose{Code: deref(ev.Code), Message: deref(ev.ErrorMessage), Retryability: deref(ev.Retryability), UserMessage: deref(ev.UserFacingMessage)}
	if ev.HTTPStatus != nil {
		v.HTTPStatus = strconv.Itoa(*ev.HTTPStatus)
	}
	if ev.IsTransient != nil {
		v.Transient = map[bool]string{true: "yes", false: "no"}[*ev.IsTransient]
	}
	if ev.Meta != nil {
		if b, err := json.MarshalIndent(ev.Meta, "", "  "); err == nil && string(b) != "null" {
			v.Meta = string(b)
		}
	}
	return v
}

// postAction answers an action on a post's page: the live part again (htmx) or the page (See
// Other) with a flash; a refusal is said on the page.
func (h *Handler) postAction(c echo.Context, p *app.Post, err error, flash string) error {
	if err != nil {
		if app.ErrorCode(err) == app.ENotFound {
			return pageError(err) // the post itself is gone
		}
		if !refusalOrLimit(err) {
			return err
		}
		cur, gerr := h.pub.GetPost(c.Request().Context(), c.Param("id"))
		if gerr != nil {
			return pageError(gerr)
		}
		status := http.StatusUnprocessableEntity
		if isHTMX(c) {
			status = http.StatusOK
		}
		return h.renderPost(c, status, cur, app.ErrorMessage(err))
	}
	if isHTMX(c) && hxTarget(c) == "post-live" {
		d := h.postDetail(c, p)
		d.Flash = flash
		return render(c, http.StatusOK, posts.LiveSection(d), nil)
	}
	return flashRedirect(c, flash, string(idURL(pathPosts, p.ID, "")))
}

// postRetry serves POST /posts/:id/retry: failed networks only publish again.
func (h *Handler) postRetry(c echo.Context) error {
	p, err := h.pub.RetryPost(c.Request().Context(), c.Param("id"))
	return h.postAction(c, p, err, "Retrying the networks that failed.")
}

// postApprove serves POST /posts/:id/approve (REVIEW → SCHEDULED). From the queue, htmx gets the row.
func (h *Handler) postApprove(c echo.Context) error {
	p, err := h.pub.ApprovePost(c.Request().Context(), c.Param("id"))
	if isHTMX(c) && hxTarget(c) != "post-live" {
		return h.reviewDone(c, p, err, "Approved: scheduled for ")
	}
	if err == nil {
		_, when := postWhen(c, *p)
		return h.postAction(c, p, nil, "Approved and scheduled for "+when+".")
	}
	return h.postAction(c, p, err, "")
}

// postReject serves POST /posts/:id/reject (REVIEW → DRAFT with the note).
func (h *Handler) postReject(c echo.Context) error {
	p, err := h.pub.RejectPost(c.Request().Context(), c.Param("id"), strings.TrimSpace(c.FormValue("note")))
	if isHTMX(c) && hxTarget(c) != "post-live" {
		return h.reviewDone(c, p, err, "Sent back to draft.")
	}
	return h.postAction(c, p, err, "Sent back to draft with your note.")
}

// reviewDone is a queue row after a decision.
func (h *Handler) reviewDone(c echo.Context, p *app.Post, err error, text string) error {
	if err != nil {
		if !refusal(err) {
			return err
		}
		cur, gerr := h.pub.GetPost(c.Request().Context(), c.Param("id"))
		if gerr != nil {
			return pageError(gerr)
		}
		return render(c, http.StatusOK, posts.ReviewDone(h.postRow(c, *cur), app.ErrorMessage(err), false), nil)
	}
	if p.Status == app.PostScheduled {
		_, when := postWhen(c, *p)
		text += when + "."
	}
	return render(c, http.StatusOK, posts.ReviewDone(h.postRow(c, *p), text, true), nil)
}

// postReschedule serves POST /posts/:id/reschedule: date and time (local) move the post.
func (h *Handler) postReschedule(c echo.Context) error {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	t, ok := localMoment(c.FormValue("date"), c.FormValue("time"), loc)
	if !ok {
		cur, err := h.pub.GetPost(ctx, c.Param("id"))
		if err != nil {
			return pageError(err)
		}
		return h.renderPost(c, http.StatusUnprocessableEntity, cur, "Choose a date and a time that exist in "+zoneName(loc)+".")
	}
	p, err := h.reschedule(c, c.Param("id"), t)
	if err != nil {
		return h.postAction(c, nil, err, "")
	}
	return h.postAction(c, p, nil, "Moved to "+viewerMoment(c, t)+".")
}

// reschedule moves a post to t (the calendar's drag and the post's page).
func (h *Handler) reschedule(c echo.Context, id string, t time.Time) (*app.Post, error) {
	s := t.UTC().Format(time.RFC3339)
	return h.pub.UpdatePost(c.Request().Context(), id, app.PostParams{PostDate: &s})
}

// postEdit serves GET /posts/:id/edit: the composer, filled with the post.
func (h *Handler) postEdit(c echo.Context) error {
	p, err := h.pub.GetPost(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if !p.Status.Editable() {
		return flashRedirect(c, "A "+strings.ToLower(posts.StatusLabel(string(p.Status)))+" post cannot be edited.", string(idURL(pathPosts, p.ID, "")))
	}
	loc := viewerLocation(c)
	var date *time.Time
	if hasDate(p.PostDate) {
		date = p.PostDate
	}
	vals := composerValues(p.Title, &p.Data, date, loc)
	for n, text := range p.FirstComment {
		vals.Set(firstCommentName(n), text)
	}
	in := readComposer(vals, loc)
	in.TeamID = p.TeamID
	d, err := h.composerData(c, in, p)
	if err != nil {
		return err
	}
	return h.renderComposer(c, http.StatusOK, d)
}

// postUpdate serves POST /posts/:id/edit.
func (h *Handler) postUpdate(c echo.Context) error {
	p, err := h.pub.GetPost(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	in := readComposer(vals, viewerLocation(c))
	in.TeamID = p.TeamID
	return h.savePost(c, in, p)
}

func postDeleteConfirmation(p app.Post) components.Confirm {
	text := "The post is removed from Crier’s schedule."
	for _, t := range p.Targets {
		if t.Status == app.PostPosted {
			text += " Where it is already published, Crier deletes it from the networks that allow it."
			break
		}
	}
	return components.Confirm{ID: "confirm-delete-post", Title: "Delete “" + p.Title + "”?", Text: text, Button: "Delete post",
		Action: idURL(pathPosts, p.ID, suffixDelete), Cancel: idURL(pathPosts, p.ID, "")}
}

// postDeleteConfirm serves GET /posts/:id/delete.
func (h *Handler) postDeleteConfirm(c echo.Context) error {
	p, err := h.pub.GetPost(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaPosts, "Posts", postDeleteConfirmation(*p))
}

// postDelete serves POST /posts/:id/delete: to the list with a flash.
func (h *Handler) postDelete(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := h.pub.GetPost(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if _, err := h.pub.DeletePost(ctx, p.ID); err != nil {
		return h.confirmFailed(c, areaPosts, "Posts", postDeleteConfirmation(*p), err)
	}
	msg := "Post “" + p.Title + "” deleted."
	if isHTMX(c) {
		if err := addFlash(c, components.FlashSuccess, msg); err != nil {
			return err
		}
		c.Response().Header().Set("HX-Redirect", pathPosts)
		return c.NoContent(http.StatusOK)
	}
	return flashRedirect(c, msg, pathPosts)
}
