package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/pinterest"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/reddit"
	"github.com/crier/crier/network/snapchat"
	"github.com/crier/crier/network/x"
	"github.com/crier/crier/network/youtube"
	"github.com/crier/crier/views/layout"
	composerview "github.com/crier/crier/views/pages/composer"
	mediaview "github.com/crier/crier/views/pages/media"
	"github.com/crier/crier/views/pages/settings"
)

// Paths and route names of the composer.
const (
	pathComposer        = "/composer"
	pathComposerPreview = pathComposer + "/preview"
	pathComposerMedia   = pathComposer + "/media"
	pathComposerSlides  = pathComposer + "/slides"

	routeComposerSave    = "composer.save"
	routeComposerPreview = "composer.preview"
	routeComposerMedia   = "composer.media"
	routeComposerSlides  = "composer.slides"
)

// registerComposer mounts the composer: the page, saving (the four actions), the live previews and
// the media grid (reloaded after an upload). Editing a post (/posts/:id/edit) reuses it (post.go).
func (h *Handler) registerComposer(e *echo.Echo, signedIn []echo.MiddlewareFunc) {
	e.GET(pathComposer, h.composerShow, signedIn...).Name = areaComposer
	e.POST(pathComposer, h.composerSave, signedIn...).Name = routeComposerSave
	e.POST(pathComposerPreview, h.composerPreview, signedIn...).Name = routeComposerPreview
	e.GET(pathComposerMedia, h.composerMedia, signedIn...).Name = routeComposerMedia
	e.POST(pathComposerSlides, h.composerSlides, signedIn...).Name = routeComposerSlides
}

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
	if in.PostDate == nil && in.Errors["date"] == "" && in.Errors["time"] == "" && status != app.PostDraft {
		in.Errors["date"] = "Choose the day to publish"
	}
	if len(in.Networks) == 0 && status != app.PostDraft {
		in.Errors["networks"] = "Choose at least one network"
	}
	var post *app.Post
	var err error
	if len(in.Errors) == 0 {
		p := app.PostParams{Title: &in.Title, Status: &status, SocialAccountTypes: in.Networks, Data: &in.Data}
		if p.SocialAccountTypes == nil {
			p.SocialAccountTypes = []app.Network{}
		}
		if in.PostDate != nil {
			s := in.PostDate.UTC().Format(time.RFC3339)
			p.PostDate = &s
		}
		if fc := firstComments(in); fc != nil || cur != nil {
			p.FirstComment, p.FirstCommentSet = fc, true
		}
		if cur == nil {
			p.TeamID = in.TeamID
			post, err = h.svc.CreatePost(ctx, p)
		} else {
			post, err = h.svc.UpdatePost(ctx, cur.ID, p)
		}
	}
	var message string
	if err != nil {
		switch app.ErrorCode(err) {
		case app.EInvalid:
			for _, is := range app.ErrorIssues(err) {
				name := in.issueName(is.Path)
				if name == "" {
					message = app.ErrorMessage(err)
					continue
				}
				text := issueText(is)
				// A network's text that comes from the shared text: the error goes under the shared text.
				if net, key, _ := strings.Cut(name, "."); key == "text" && strings.TrimSpace(in.Values.Get(name)) == "" {
					if prev := in.Errors["text"]; prev != "" {
						text = prev + " · " + app.Network(net).DisplayName() + ": " + text
					} else {
						text = app.Network(net).DisplayName() + ": " + text
					}
					in.Errors["text"] = text
					continue
				}
				if in.Errors[name] == "" {
					in.Errors[name] = text
				}
			}
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
		if message != "" {
			d.Message = message
		} else if len(d.Errors) > 0 {
			d.Message = "Some fields need your attention: they are marked below."
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

// composerPreview serves POST /composer/preview: the previews and (out of band) the counters of
// the form as it is now.
func (h *Handler) composerPreview(c echo.Context) error {
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	in := readComposer(vals, viewerLocation(c))
	team, err := h.composerTeam(c, in.TeamID)
	if err != nil || team == nil {
		return pageError(err)
	}
	d := composerview.Data{Preview: pathComposerPreview}
	d.Counters, d.Cards = h.previews(c, in, team)
	return render(c, http.StatusOK, composerview.PreviewCards(d, true), nil)
}

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
	return ok && ok2 && app.Network(n) == app.Twitter && formKey.MatchString(key)
}

// composerSlides serves POST /composer/slides: Instagram's carousel slides for the form's media
// as they are now (the media were ticked or reordered), keeping each slide's values.
func (h *Handler) composerSlides(c echo.Context) error {
	vals, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read").SetInternal(err)
	}
	in := readComposer(vals, viewerLocation(c))
	f := composerview.Field{Name: fieldName(app.Instagram, "carouselItems"), ID: "f-INSTAGRAM-carouselItems", Kind: string(kindCarousel)}
	h.fillSlides(c, &f, app.Instagram, in)
	return render(c, http.StatusOK, composerview.SlideList(f), nil)
}

// fillSlides gives a carousel field its slides: one per medium the network gets, in order, with
// the form's values and errors.
func (h *Handler) fillSlides(c echo.Context, f *composerview.Field, n app.Network, in composerInput) {
	f.SlidesURL = pathComposerSlides
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

// threadPosts are the further posts of an X thread field, keyed 0, 1… in payload order (so issue
// paths name them), and one empty post to write the next.
func threadPosts(n app.Network, in composerInput) []composerview.ThreadPost {
	list := readThread(n, in.Values)
	if len(list) < 25 {
		list = append(list, threadPost{})
	}
	out := make([]composerview.ThreadPost, 0, len(list))
	for i, p := range list {
		key := strconv.Itoa(i)
		mn := threadPostName(n, key, "uploadIds")
		tp := composerview.ThreadPost{Key: key, Number: i + 2, Text: p.Text, Media: p.Media, KeyName: threadKeysName(n), MediaName: mn,
			Error: in.Errors[threadPostName(n, key, "")], TextError: in.Errors[threadPostName(n, key, "text")], MediaError: in.Errors[mn]}
		tp.MediaURL = string(withQuery(pathComposerMedia, "name", mn))
		for _, id := range p.Media {
			tp.MediaURL += "&" + url.QueryEscape(mn) + "=" + url.QueryEscape(id)
		}
		out = append(out, tp)
	}
	return out
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

// composerData builds the composer for a form (new, refused, or a post being edited).
func (h *Handler) composerData(c echo.Context, in composerInput, cur *app.Post) (composerview.Data, error) {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	d := composerview.Data{
		Title: "Compose", Action: pathComposer, Preview: pathComposerPreview, MediaURL: pathComposerMedia,
		Self: pathComposer, Back: templ.SafeURL(pathCalendar), Library: pathMedia, Profile: pathProfile,
		PostTitle: in.Values.Get("title"), Text: in.Text, Date: in.Date, Time: in.Time,
		Zone: zoneName(loc), ZoneNote: "UTC" + time.Now().In(loc).Format("-07:00"),
		MinDate: time.Now().In(loc).Format(dateLayout), Errors: in.Errors, CanPublishNow: true,
		Upload: mediaview.Upload{Action: pathMediaUpload, Init: pathMediaMultipart + "/init", Sign: pathMediaMultipart + "/sign",
			Complete: pathMediaMultipart + "/complete", Abort: pathMediaMultipart + "/abort", Threshold: mediaDirectMax, Accept: mediaAccept},
	}
	if cur != nil {
		d.Title, d.Editing = "Edit post", true
		d.Action = idURL(pathPosts, cur.ID, suffixEdit)
		d.Back = idURL(pathPosts, cur.ID, "")
		if cur.ReviewNote != nil && cur.Status == app.PostDraft {
			d.Note = *cur.ReviewNote
		}
	}
	teams, _, err := h.svc.ListTeams(ctx, "", app.Page{Limit: app.MaxPageLimit})
	if err != nil {
		return d, err
	}
	if len(teams) == 0 {
		d.NoTeams, d.TeamURL = true, pathTeams
		return d, nil
	}
	var team *app.TeamDetail
	for i := range teams {
		d.Teams = append(d.Teams, composerview.Option{Value: teams[i].ID, Label: teams[i].Name})
		if teams[i].ID == in.TeamID {
			team = &teams[i]
		}
	}
	if team == nil {
		if in.TeamID != "" && cur == nil {
			return d, pageError(app.NotFound("Team"))
		}
		team = &teams[0]
	}
	if cur != nil {
		d.Teams = nil // a post stays in its team
	}
	d.TeamID, d.TeamURL = team.ID, idURL(pathTeams, team.ID, "")
	accounts := liveAccounts(team)
	selected := map[app.Network]bool{}
	for _, n := range in.Networks {
		selected[n] = true
	}
	g, thumbs, err := h.composerGrid(c, in.Media, 1, "uploadIds")
	if err != nil {
		return d, err
	}
	d.Media, d.Thumbs = g, thumbs
	for _, n := range app.Networks {
		a := accounts[n]
		if a == nil {
			continue
		}
		d.Accounts = append(d.Accounts, h.composerAccount(a, selected[n]))
		fill := func(f *composerview.Field) { h.fillSlides(c, f, n, in) }
		d.Tabs = append(d.Tabs, composerTab(n, a, in, selected[n], thumbs, fill))
	}
	d.Counters, d.Cards = h.previews(c, in, team)
	return d, nil
}

func (h *Handler) composerAccount(a *app.SocialAccount, checked bool) composerview.Account {
	display, handle := accountNames(a)
	out := composerview.Account{Network: string(a.Type), Name: a.Type.DisplayName(), Display: display, Handle: handle,
		Initials: settings.Initials(display), Checked: checked}
	out.Avatar = h.safeAvatar(a.AvatarURL)
	if a.ReconnectRequiredAt != nil {
		out.Warning = "Needs reconnecting"
	}
	return out
}

// accountNames are an account's display name and handle.
func accountNames(a *app.SocialAccount) (display, handle string) {
	username := ""
	if a.Username != nil {
		username = *a.Username
	}
	display = username
	if a.DisplayName != nil && *a.DisplayName != "" {
		display = *a.DisplayName
	}
	if display == "" {
		display = a.Type.DisplayName() + " account"
	}
	if username != "" {
		handle = "@" + strings.TrimPrefix(username, "@")
	}
	if a.Type == app.Reddit && username != "" {
		handle = "u/" + username
	}
	return display, handle
}

// composerTab is a network's tab: its fields, valued from the form; fill gives a carousel field its
// slides (they need the library's thumbnails).
func composerTab(n app.Network, a *app.SocialAccount, in composerInput, selected bool, thumbs []composerview.Option, fill func(*composerview.Field)) composerview.Tab {
	t := composerview.Tab{Network: string(n), Name: n.DisplayName(), Selected: selected, Message: in.Errors[string(n)],
		OwnMedia: nonEmpty(in.Values[mediaName(n)])}
	t.MediaURL = string(withQuery(pathComposerMedia, "name", mediaName(n)))
	for _, id := range t.OwnMedia {
		t.MediaURL += "&" + url.QueryEscape(mediaName(n)) + "=" + url.QueryEscape(id)
	}
	groups := map[string]int{}
	add := func(group string, f composerview.Field) {
		i, ok := groups[group]
		if !ok {
			i = len(t.Groups)
			groups[group] = i
			t.Groups = append(t.Groups, composerview.Group{Title: group})
		}
		t.Groups[i].Fields = append(t.Groups[i].Fields, f)
		if f.Error != "" {
			t.Errors++
		}
	}
	for _, nf := range networkFields[n] {
		name := fieldName(n, nf.Key)
		f := composerview.Field{Name: name, ID: "f-" + strings.ReplaceAll(name, ".", "-"), Label: nf.Label, Kind: string(nf.Kind),
			Value: in.Values.Get(name), Hint: nf.Hint, Error: in.Errors[name], Min: nf.Min, Max: nf.Max}
		if in.Values == nil || (!in.Values.Has(name) && nf.Default != "" && !in.Values.Has("networks")) {
			f.Value = nf.Default
		}
		if nf.Key == "text" {
			f.Placeholder = "Same as the shared text"
		}
		switch nf.Kind {
		case kindSelect:
			if nf.Key != "type" && nf.Key != "topicType" {
				label := defaultLabels[nf.Key]
				if label == "" {
					label = "Network default"
				}
				f.Options = append(f.Options, composerview.Option{Value: "", Label: label})
			}
			for _, o := range nf.Options {
				f.Options = append(f.Options, composerview.Option{Value: o, Label: optionLabel(o)})
			}
		case kindChecks:
			f.Values = map[string]bool{}
			for _, v := range in.Values[name] {
				f.Values[v] = true
			}
			for _, o := range nf.Options {
				f.Options = append(f.Options, composerview.Option{Value: o, Label: optionLabel(o)})
			}
		case kindUpload:
			f.Options = append(f.Options, thumbs...)
			if f.Value != "" && !hasOption(f.Options, f.Value) {
				f.Options = append(f.Options, composerview.Option{Value: f.Value, Label: "Upload " + f.Value})
			}
		case kindChannel:
			f.Options = channelOptions(n, a, f.Value)
		case kindThread:
			f.Posts, f.MediaURL = threadPosts(n, in), pathComposerMedia
			for _, p := range f.Posts {
				if p.Error != "" || p.TextError != "" || p.MediaError != "" {
					t.Errors++
				}
			}
		case kindCarousel:
			if fill != nil {
				fill(&f)
			}
			for _, s := range f.Slides {
				if s.Error != "" || s.AltError != "" || s.TagsError != "" {
					t.Errors++
				}
			}
		}
		add(nf.Group, f)
	}
	if n != app.Pinterest && n != app.Snapchat && n != app.GoogleBusiness {
		name := firstCommentName(n)
		add("First comment", composerview.Field{Name: name, ID: "f-firstComment-" + string(n), Label: "First comment", Kind: string(kindTextarea),
			Value: in.Values.Get(name), Hint: "Posted as a reply right after the post (links, hashtags).", Error: in.Errors[name]})
	}
	return t
}

func optionLabel(v string) string {
	if l, ok := optionLabels[v]; ok {
		return l
	}
	return v
}

func hasOption(list []composerview.Option, v string) bool {
	for _, o := range list {
		if o.Value == v {
			return true
		}
	}
	return false
}

// channelOptions are the account's destinations for a channel field (Discord and Slack channels,
// Pinterest boards, subreddits); nil when the account lists none (the field is typed).
func channelOptions(n app.Network, a *app.SocialAccount, current string) []composerview.Option {
	if a == nil || len(a.Channels) == 0 {
		return nil
	}
	out := []composerview.Option{{Value: "", Label: "Choose…"}}
	for _, ch := range a.Channels {
		name := ch.ID
		if ch.Name != nil && *ch.Name != "" {
			name = *ch.Name
		} else if ch.Username != nil && *ch.Username != "" {
			name = *ch.Username
		}
		value := ch.ID
		if n == app.Pinterest || n == app.Reddit {
			value = name
		}
		label := name
		if n == app.Discord || n == app.Slack {
			label = "#" + strings.TrimPrefix(name, "#")
		}
		if n == app.Reddit {
			label = "r/" + name
		}
		out = append(out, composerview.Option{Value: value, Label: label})
	}
	if current != "" && !hasOption(out, current) {
		out = append(out, composerview.Option{Value: current, Label: current})
	}
	return out
}

// previews are the counters and the preview cards of the chosen networks.
func (h *Handler) previews(c echo.Context, in composerInput, team *app.TeamDetail) ([]composerview.Counter, []composerview.Card) {
	accounts := liveAccounts(team)
	var ids []string
	for _, n := range in.Networks {
		if p := in.Data.Of(n); p != nil {
			ids = append(ids, p.Uploads()...)
		}
	}
	if tw := x.Of(&in.Data); tw != nil {
		for _, tw := range tw.Thread {
			ids = append(ids, tw.UploadIDs...)
		}
	}
	thumbs := h.thumbs(c.Request().Context(), c, nonEmpty(ids))
	when := "Now"
	if in.PostDate != nil {
		when = in.PostDate.In(viewerLocation(c)).Format("Jan 2, 15:04")
	}
	var counters []composerview.Counter
	var cards []composerview.Card
	for _, n := range in.Networks {
		a := accounts[n]
		p := in.Data.Of(n)
		if a == nil || p == nil {
			continue
		}
		text := p.Body()
		used, limit := app.TextLength(n, text, a)
		ct := composerview.Counter{Network: string(n), Name: n.DisplayName(), Used: used, Limit: limit,
			Over: limit > 0 && used > limit, Near: limit > 0 && used <= limit && used*10 >= limit*9}
		counters = append(counters, ct)
		display, handle := accountNames(a)
		card := composerview.Card{Network: string(n), Name: n.DisplayName(), Layout: previewLayout(n), Display: display, Handle: handle,
			Initials: settings.Initials(display), When: when, Counter: ct}
		card.Avatar = h.safeAvatar(a.AvatarURL)
		body := text
		switch v := p.(type) {
		case *youtube.Payload:
			card.Title, body = text, v.Description
		case *reddit.Payload:
			card.Title, body, card.Where = text, v.Description, "r/"+strings.TrimPrefix(v.SR, "r/")
		case *pinterest.Payload:
			card.Title, body = text, v.Description
			if v.BoardName != "" {
				card.Where = "Board: " + v.BoardName
			}
		case *pubutil.ChatPayload:
			if v.ChannelID != "" {
				card.Where = "#" + channelName(a, v.ChannelID)
			}
		case *snapchat.Payload:
			card.Title = v.Title
		case *x.Payload:
			for _, tw := range v.Thread {
				tc := composerview.ThreadCard{Text: tw.Text}
				for _, id := range tw.UploadIDs {
					if t, ok := thumbs[id]; ok {
						tc.Media = append(tc.Media, t)
					}
				}
				card.Thread = append(card.Thread, tc)
			}
		}
		if ct.Over && body == text {
			r := []rune(text)
			cut := len(r) - (used - limit)
			if cut >= 0 && cut < len(r) {
				card.Text, card.Overflow = string(r[:cut]), string(r[cut:])
			}
		}
		if card.Text == "" && card.Overflow == "" {
			card.Text = body
		}
		card.Empty = text == "" && body == ""
		for _, id := range p.Uploads() {
			if t, ok := thumbs[id]; ok {
				card.Media = append(card.Media, t)
			}
		}
		cards = append(cards, card)
	}
	return counters, cards
}

func channelName(a *app.SocialAccount, id string) string {
	for _, ch := range a.Channels {
		if ch.ID == id && ch.Name != nil {
			return strings.TrimPrefix(*ch.Name, "#")
		}
	}
	return id
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

func previewLayout(n app.Network) string {
	switch n {
	case app.Instagram, app.Pinterest, app.Snapchat:
		return "visual"
	case app.TikTok, app.YouTube:
		return "video"
	case app.Reddit:
		return "reddit"
	case app.Discord, app.Slack:
		return "chat"
	}
	return "feed"
}
