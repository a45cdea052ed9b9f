package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	composerview "github.com/crier/crier/views/pages/composer"
	"github.com/crier/crier/views/pages/settings"
)

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

// previews are the counters and the preview cards of the chosen networks.
func (h *Handler) previews(c echo.Context, in composerInput, team *app.TeamDetail) ([]composerview.Counter, []composerview.Card) {
	accounts := liveAccounts(team)
	var ids []string
	for _, n := range in.Networks {
		if p := in.Data.Of(n); p != nil {
			ids = append(ids, p.Uploads()...)
		}
	}
	if in.Data.Twitter != nil {
		for _, tw := range in.Data.Twitter.Thread {
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
		case *app.YouTubePayload:
			card.Title, body = text, v.Description
		case *app.RedditPayload:
			card.Title, body, card.Where = text, v.Description, "r/"+strings.TrimPrefix(v.SR, "r/")
		case *app.PinterestPayload:
			card.Title, body = text, v.Description
			if v.BoardName != "" {
				card.Where = "Board: " + v.BoardName
			}
		case *app.ChatPayload:
			if v.ChannelID != "" {
				card.Where = "#" + channelName(a, v.ChannelID)
			}
		case *app.SnapchatPayload:
			card.Title = v.Title
		case *app.TwitterPayload:
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

// previewLayout is the network's preview layout (its spec's Compose.Preview; "feed" by default).
func previewLayout(n app.Network) string {
	if s := app.SpecOf(n); s != nil && s.Compose.Preview != "" {
		return s.Compose.Preview
	}
	return "feed"
}
