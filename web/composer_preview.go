package web

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	composerview "github.com/crier/crier/views/pages/composer"
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
	if err := h.liveCheck(c, &in, team.ID); err != nil {
		return err
	}
	d := composerview.Data{Preview: pathComposerPreview, Convert: pathComposerConvert, Errors: in.Errors, Checks: netChecks(in), Rev: in.Rev}
	d.Counters, d.Cards = h.previews(c, in, team)
	return render(c, http.StatusOK, composerview.PreviewCards(d, true), nil)
}

// previews are the counters and the preview cards of the chosen networks.
func (h *Handler) previews(c echo.Context, in composerInput, team *app.TeamDetail) ([]composerview.Counter, []composerview.Card) {
	accounts := liveAccounts(team)
	var ids []string
	payloads := map[app.Network]map[string]any{} // as JSON, for the fields the cards show
	for _, n := range in.Networks {
		if p := in.Data.Of(n); p != nil {
			ids = append(ids, p.Uploads()...)
			payloads[n] = payloadMap(p)
			for _, post := range threadCards(n, payloads[n]) {
				ids = append(ids, post.ids...)
			}
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
			Initials: components.Initials(display), When: when, Counter: ct}
		card.Avatar = h.safeAvatar(a.AvatarURL)
		card.Actions, card.IconsOnly = previewActions(n)
		body := cardParts(&card, n, a, payloads[n], text)
		for _, post := range threadCards(n, payloads[n]) {
			tc := composerview.ThreadCard{Text: post.text}
			for _, id := range post.ids {
				if t, ok := thumbs[id]; ok {
					tc.Media = append(tc.Media, t)
				}
			}
			card.Thread = append(card.Thread, tc)
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

// cardParts fills the card's title and destination from the payload m as n's spec says
// (Compose.Card), and answers the card's body: the text, unless the text is the title.
func cardParts(card *composerview.Card, n app.Network, a *app.SocialAccount, m map[string]any, text string) (body string) {
	spec := app.SpecOf(n)
	if spec == nil {
		return text
	}
	parts, body := spec.Compose.Card, text
	switch parts.Title {
	case "":
	case "text":
		card.Title, body = text, stringAt(m, parts.Body)
	default:
		card.Title = stringAt(m, parts.Title)
	}
	if parts.Where == "" {
		return body
	}
	where := stringAt(m, parts.Where)
	if where == "" && !parts.AlwaysWhere {
		return body
	}
	for _, f := range spec.Compose.Fields {
		if f.Key == parts.Where && f.Kind == app.KindChannel {
			if f.ByName {
				where = strings.TrimPrefix(where, f.ChannelPrefix)
			} else {
				where = channelName(a, where)
			}
		}
	}
	card.Where = parts.WherePrefix + where
	return body
}

// threadCard is a further post of a thread in a payload.
type threadCard struct {
	text string
	ids  []string
}

// threadCards are the further posts of n's thread field in its payload m (X's), none when it has no
// thread.
func threadCards(n app.Network, m map[string]any) []threadCard {
	key := fieldOfKind(n, app.KindThread)
	if key == "" {
		return nil
	}
	var out []threadCard
	for _, it := range anyObjects(getPath(m, key)) {
		text, _ := it["text"].(string)
		out = append(out, threadCard{text: text, ids: anyStrings(it["uploadIds"])})
	}
	return out
}

// payloadMap is a payload as JSON values (nil when it cannot be read so).
func payloadMap(p app.Payload) map[string]any {
	var m map[string]any
	if b, err := json.Marshal(p); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// stringAt is the string at a dotted path of m ("" when absent or not a string).
func stringAt(m map[string]any, path string) string {
	if path == "" {
		return ""
	}
	s, _ := getPath(m, path).(string)
	return s
}

func channelName(a *app.SocialAccount, id string) string {
	for _, ch := range a.Channels {
		if ch.ID == id && ch.Name != nil {
			return strings.TrimPrefix(*ch.Name, "#")
		}
	}
	return id
}

// previewActions are the network's action row under a preview (its spec's Compose.Actions).
func previewActions(n app.Network) ([]composerview.Action, bool) {
	s := app.SpecOf(n)
	if s == nil {
		return nil, false
	}
	out := make([]composerview.Action, len(s.Compose.Actions))
	for i, a := range s.Compose.Actions {
		out[i] = composerview.Action{Label: a.Label, Icon: a.Icon, End: a.End}
	}
	return out, s.Compose.IconsOnly
}

// previewLayout is the network's preview layout (its spec's Compose.Preview; "feed" by default).
func previewLayout(n app.Network) string {
	if s := app.SpecOf(n); s != nil && s.Compose.Preview != "" {
		return s.Compose.Preview
	}
	return "feed"
}
