package web

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	composerview "github.com/crier/crier/views/pages/composer"
	mediaview "github.com/crier/crier/views/pages/media"
)

// composerData builds the composer for a form (new, refused, or a post being edited).
func (h *Handler) composerData(c echo.Context, in composerInput, cur *app.Post) (composerview.Data, error) {
	ctx := c.Request().Context()
	loc := viewerLocation(c)
	d := composerview.Data{
		Title: "Compose", Action: pathComposer, Preview: pathComposerPreview, Convert: pathComposerConvert, MediaURL: pathComposerMedia,
		Self: pathComposer, Back: templ.SafeURL(pathCalendar), Library: pathMedia, Profile: pathProfile,
		PostTitle: in.Values.Get("title"), Text: in.Text, Date: in.Date, Time: in.Time,
		Zone: zoneName(loc), ZoneNote: "UTC" + time.Now().In(loc).Format("-07:00"),
		MinDate: time.Now().In(loc).Format(dateLayout), Errors: in.Errors, CanPublishNow: true,
		Upload: mediaview.Upload{Action: pathMediaUpload, Init: pathMediaMultipart + "/init", Sign: pathMediaMultipart + "/sign",
			Complete: pathMediaMultipart + "/complete", Abort: pathMediaMultipart + "/abort", Threshold: mediaDirectMax, Accept: mediaAccept(), Accepted: mediaAccepted()},
	}
	if cur != nil {
		d.Title, d.Editing, d.PostID = "Edit post", true, cur.ID
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
	d.Checks = netChecks(in)
	d.Counters, d.Cards = h.previews(c, in, team)
	return d, nil
}

func (h *Handler) composerAccount(a *app.SocialAccount, checked bool) composerview.Account {
	display, handle := accountNames(a)
	out := composerview.Account{Network: string(a.Type), Name: a.Type.DisplayName(), Display: display, Handle: handle,
		Initials: components.Initials(display), Checked: checked}
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
		if s := app.SpecOf(a.Type); s != nil && s.Brand.HandlePrefix != "" {
			handle = s.Brand.HandlePrefix + username
		}
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
	for _, nf := range formFields(n) {
		name := fieldName(n, nf.Key)
		f := composerview.Field{Name: name, ID: fieldID(name), Label: nf.Label, Kind: string(nf.Kind),
			Value: in.Values.Get(name), Hint: nf.Hint, Error: in.Errors[name], Min: nf.Min, Max: nf.Max}
		if in.Values == nil || (!in.Values.Has(name) && nf.Default != "" && !in.Values.Has("networks")) {
			f.Value = nf.Default
		}
		if nf.Key == "text" {
			f.Placeholder = "Same as the shared text"
		}
		switch nf.Kind {
		case app.KindSelect:
			if nf.DefaultLabel != "" {
				f.Options = append(f.Options, composerview.Option{Value: "", Label: nf.DefaultLabel})
			}
			f.Options = appendOptions(f.Options, nf.Options)
		case app.KindChecks:
			f.Values = map[string]bool{}
			for _, v := range in.Values[name] {
				f.Values[v] = true
			}
			f.Options = appendOptions(f.Options, nf.Options)
		case app.KindUpload:
			f.Options = append(f.Options, thumbs...)
			if f.Value != "" && !hasOption(f.Options, f.Value) {
				f.Options = append(f.Options, composerview.Option{Value: f.Value, Label: "Upload " + f.Value})
			}
		case app.KindChannel:
			f.Options = channelOptions(nf, a, f.Value)
		case app.KindThread:
			f.Posts, f.MediaURL = threadPosts(n, in), pathComposerMedia
			for _, p := range f.Posts {
				if p.Error != "" || p.TextError != "" || p.MediaError != "" {
					t.Errors++
				}
			}
		case app.KindCarousel:
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
	if s := app.SpecOf(n); s != nil && s.Comments {
		name := firstCommentName(n)
		add("First comment", composerview.Field{Name: name, ID: "f-firstComment-" + string(n), Label: "First comment", Kind: string(app.KindTextarea),
			Value: in.Values.Get(name), Hint: "Posted as a reply right after the post (links, hashtags).", Error: in.Errors[name]})
	}
	return t
}

// fieldID is the control's id of a form name ("TWITTER.poll.options" → "f-TWITTER-poll-options").
func fieldID(name string) string { return "f-" + strings.ReplaceAll(name, ".", "-") }

// appendOptions adds a field's choices to a control's.
func appendOptions(list []composerview.Option, opts []app.FieldOption) []composerview.Option {
	for _, o := range opts {
		list = append(list, composerview.Option{Value: o.Value, Label: o.Label})
	}
	return list
}

func hasOption(list []composerview.Option, v string) bool {
	for _, o := range list {
		if o.Value == v {
			return true
		}
	}
	return false
}

// channelOptions are the account's destinations for a channel field f (Discord and Slack channels,
// Pinterest boards, subreddits); nil when the account lists none (the field is typed).
func channelOptions(f app.FormField, a *app.SocialAccount, current string) []composerview.Option {
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
		// A destination chosen by name is sent as it is named; one chosen by id shows its name
		// without a leading # (as previews do).
		value, label := name, f.ChannelPrefix+name
		if !f.ByName {
			value, label = ch.ID, f.ChannelPrefix+strings.TrimPrefix(name, "#")
		}
		out = append(out, composerview.Option{Value: value, Label: label})
	}
	if current != "" && !hasOption(out, current) {
		out = append(out, composerview.Option{Value: current, Label: current})
	}
	return out
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
