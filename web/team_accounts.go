package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/teams"
)

// A team's social accounts page (/teams/:id/accounts): every network with its account or a
// Connect button, channel pickers, reconnect prompts, disconnect with a confirmation and the client
// portal link generator. Connecting leaves Crier for the network's consent page; the OAuth callback
// (api.RegisterOAuthCallback) sends the browser back here with the outcome in the query.
const (
	suffixAccounts        = "/accounts"
	suffixConnect         = "/connect"
	suffixChannel         = "/channel"
	suffixChannelUnset    = "/channel/unset"
	suffixChannelsRefresh = "/channels/refresh"
	suffixDisconnect      = "/disconnect"
	suffixCheck           = "/check"
	suffixPortalLink      = "/portal-link"
	pathTeamAccounts      = pathTeam + suffixAccounts
	pathTeamAccount       = pathTeamAccounts + "/:network"
	eventAccountsChanged  = "accountsChanged"

	routeTeamAccounts          = "team.accounts"
	routeTeamAccountConnect    = "team.accounts.connect"
	routeTeamPortalLink        = "team.accounts.portal-link"
	routeTeamAccountChannel    = "team.account.channel"
	routeTeamAccountUnset      = "team.account.channel.unset"
	routeTeamAccountRefresh    = "team.account.channels.refresh"
	routeTeamAccountDisconnect = "team.account.disconnect"
	routeTeamAccountCheck      = "team.account.check"
	routeTeamAccountDiscConf   = "team.account.disconnect.confirm"
)

// AccountsCSP is the Content-Security-Policy of the accounts page: the server's, except that its
// Connect forms may be redirected to the networks' consent pages (browsers hold a form's redirects
// to form-action).
const AccountsCSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self' https:; frame-ancestors 'none'"

// portalLifetimes are the portal form's choices (minutes); the default is a day.
var portalLifetimes = []teams.Lifetime{{Minutes: "60", Label: "1 hour"}, {Minutes: "1440", Label: "24 hours"}, {Minutes: "2880", Label: "48 hours"}}

const defaultPortalLifetime = "1440"

// accountsURL is the team's accounts page.
func accountsURL(teamID string) string { return string(idURL(pathTeams, teamID, suffixAccounts)) }

// accountURL is an action on the team's account of a network (/teams/ID/accounts/facebook/channel).
func accountURL(teamID string, n app.Network, suffix string) templ.SafeURL {
	return templ.SafeURL(accountsURL(teamID) + "/" + strings.ToLower(string(n)) + suffix)
}

// accountsShow serves GET /teams/:id/accounts. The query of a connect's return (success, type,
// message) becomes the outcome at the top; htmx reloads the accounts alone after a disconnect.
func (h *Handler) accountsShow(c echo.Context) error {
	t, err := h.svc.GetTeam(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	d, err := h.accountsData(c, t)
	if err != nil {
		return err
	}
	if hxTarget(c) == "accounts-body" {
		return render(c, http.StatusOK, teams.AccountsBody(d), nil)
	}
	d.Outcome = connectOutcome(c.QueryParams(), d)
	return h.renderAccounts(c, http.StatusOK, d)
}

// connectOutcome reads the outcome the OAuth callback put in the query.
func connectOutcome(q url.Values, d teams.Accounts) *teams.Outcome {
	n := app.Network(q.Get("type"))
	if !n.Valid() {
		return nil
	}
	switch q.Get("success") {
	case "true":
		text := n.DisplayName() + " connected."
		for _, r := range d.Connected {
			if r.Type == string(n) && r.Account != nil {
				text = n.DisplayName() + " connected as " + r.Account.DisplayName + "."
				if r.Account.ChannelMode == "select" && r.Account.Selected == "" {
					text += " Choose the " + r.Account.ChannelNoun() + " it publishes to below."
				}
			}
		}
		return &teams.Outcome{Success: true, Text: text, Network: string(n)}
	case "false":
		return &teams.Outcome{Text: "Connecting " + n.DisplayName() + " failed: " + callbackMessage(q), Network: string(n)}
	}
	return nil
}

// callbackMessage is the reason a failed connect's callback put in the query, cut short: the
// query is anyone's to write.
func callbackMessage(q url.Values) string {
	msg := strings.TrimSpace(q.Get("message"))
	if msg == "" {
		msg = "the network did not say why"
	}
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}

// accountConnect serves POST /teams/:id/accounts/connect (type, serverUrl): to the network's
// consent page (or Crier's app-password page), which comes back to the accounts page; htmx gets
// the URL in HX-Redirect. A refusal (a Mastodon server that is not one) shows in the network's
// tile with what was typed (the tile alone for htmx).
func (h *Handler) accountConnect(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	n := app.Network(c.FormValue("type"))
	if !n.Valid() {
		return echo.NewHTTPError(http.StatusBadRequest, "Unknown network")
	}
	form := components.NewForm(formValues(c, "serverUrl", "instagramConnectionMethod"))
	p := app.ConnectParams{Type: n, TeamID: t.ID, RedirectURL: h.svc.AbsoluteURL(accountsURL(t.ID)), ServerURL: strings.TrimSpace(form.Value("serverUrl"))}
	// A sign-in method other than the network's default (Instagram Login) travels in the options.
	if methods, m := app.SpecOf(n).ConnectMethods, form.Value("instagramConnectionMethod"); len(methods) > 1 && m != methods[0] && slices.Contains(methods, m) {
		p.Options.InstagramConnectionMethod = m
	}
	u, err := h.svc.ConnectSocialAccount(ctx, p)
	if err != nil {
		if app.ErrorCode(err) == app.ENetwork { // the server could not be reached (Mastodon's app registration)
			form.Message = app.ErrorMessage(err)
		} else if !refused(&form, err, "serverUrl") {
			return err
		}
		d, err := h.accountsData(c, t)
		if err != nil {
			return err
		}
		for i := range d.Available {
			if d.Available[i].Type == string(n) {
				d.Available[i].Form = form
				if isHTMX(c) {
					return render(c, http.StatusOK, teams.NetworkTile(d.Available[i], d.CanManage), nil)
				}
			}
		}
		for _, r := range d.Connected {
			if r.Type == string(n) {
				d.Outcome = &teams.Outcome{Text: "Connecting " + n.DisplayName() + " failed: " + app.ErrorMessage(err), Network: string(n)}
			}
		}
		return h.renderAccounts(c, http.StatusUnprocessableEntity, d)
	}
	c.Response().Header().Set("Content-Security-Policy", AccountsCSP)
	return redirect(c, u) // htmx leaves the page itself (HX-Redirect)
}

// accountNetwork reads :network ("facebook", "google_business").
func accountNetwork(c echo.Context) (app.Network, error) {
	n, ok := app.NetworkFromPath(c.Param("network"))
	if !ok {
		return "", echo.NewHTTPError(http.StatusNotFound, "Unknown network")
	}
	return n, nil
}

// accountSetChannel serves POST /teams/:id/accounts/:network/channel (channelId).
func (h *Handler) accountSetChannel(c echo.Context) error {
	return h.channelChange(c, func(teamID string, n app.Network) (string, error) {
		id := c.FormValue("channelId")
		if id == "" {
			return "", app.Invalid("Choose one in the list", app.Issue{Code: app.IssueTooSmall, Message: "Choose one in the list", Path: []any{"channelId"}})
		}
		a, err := h.svc.SetChannel(c.Request().Context(), teamID, n, id)
		if err != nil {
			return "", err
		}
		return n.DisplayName() + " now publishes to " + valueOf(a.DisplayName) + ".", nil
	})
}

// accountUnsetChannel serves POST /teams/:id/accounts/:network/channel/unset.
func (h *Handler) accountUnsetChannel(c echo.Context) error {
	return h.channelChange(c, func(teamID string, n app.Network) (string, error) {
		if _, err := h.svc.UnsetChannel(c.Request().Context(), teamID, n); err != nil {
			return "", err
		}
		return "The " + channelNoun(n) + " is no longer chosen.", nil
	})
}

// accountRefreshChannels serves POST /teams/:id/accounts/:network/channels/refresh.
func (h *Handler) accountRefreshChannels(c echo.Context) error {
	return h.channelChange(c, func(teamID string, n app.Network) (string, error) {
		a, err := h.svc.RefreshChannels(c.Request().Context(), teamID, n)
		if err != nil {
			return "", err
		}
		return "List refreshed: " + plural(len(a.Channels), channelNoun(n)) + ".", nil
	})
}

// accountCheck serves POST /teams/:id/accounts/:network/check: Crier asks the network whether the
// credentials still work. A refusal marks the account for reconnection, which its row then shows.
func (h *Handler) accountCheck(c echo.Context) error {
	return h.accountChange(c, func(teamID string, n app.Network) (string, error) {
		r, err := h.svc.ConnectionCheck(c.Request().Context(), teamID, n)
		if err != nil {
			return "", err
		}
		if !r.Success {
			return "", app.Errorf(app.EForbidden, "%s refused the connection: %s", n.DisplayName(), r.Message)
		}
		return "The connection works.", nil
	})
}

// accountChange runs a change of one account. htmx gets the account's row again, with the
// confirmation or the refusal in it; without htmx the browser goes back to the page with a flash.
func (h *Handler) accountChange(c echo.Context, change func(teamID string, n app.Network) (string, error)) error {
	return h.changeAccount(c, false, change)
}

// channelChange is accountChange for the channel picker: a refusal shows beside the picker.
func (h *Handler) channelChange(c echo.Context, change func(teamID string, n app.Network) (string, error)) error {
	return h.changeAccount(c, true, change)
}

func (h *Handler) changeAccount(c echo.Context, channel bool, change func(teamID string, n app.Network) (string, error)) error {
	ctx := c.Request().Context()
	n, err := accountNetwork(c)
	if err != nil {
		return err
	}
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	msg, err := change(t.ID, n)
	var problem string
	switch app.ErrorCode(err) {
	case "":
	case app.ENotFound:
		return pageError(err)
	case app.EInvalid, app.EForbidden, app.ENetwork, app.ERateLimited, app.EConflict:
		problem = app.ErrorMessage(err)
		if is := app.ErrorIssues(err); len(is) > 0 {
			problem = issueText(is[0]) // the issue says it plainly, without "Validation failed: …"
		}
	default:
		return err
	}
	if !isHTMX(c) {
		if problem != "" {
			if err := addFlash(c, components.FlashError, problem); err != nil {
				return err
			}
			return redirect(c, accountsURL(t.ID))
		}
		return flashRedirect(c, msg, accountsURL(t.ID))
	}
	t, err = h.svc.GetTeam(ctx, t.ID) // the change is in the account now
	if err != nil {
		return pageError(err)
	}
	d, err := h.accountsData(c, t)
	if err != nil {
		return err
	}
	for _, r := range d.Connected {
		if r.Type == string(n) {
			switch {
			case problem != "" && channel && r.Account.ChannelMode != "":
				r.Account.ChannelError = problem
			case problem != "":
				r.Problem = problem
			default:
				r.Flash = msg
			}
			return render(c, http.StatusOK, teams.AccountRow(r, d.CanManage), nil)
		}
	}
	return pageError(app.NotFound("Social account"))
}

// accountDisconnectConfirm serves GET /teams/:id/accounts/:network/disconnect.
func (h *Handler) accountDisconnectConfirm(c echo.Context) error {
	n, err := accountNetwork(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	a, err := h.svc.SocialAccountByType(ctx, t.ID, n)
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaTeams, t.Name, h.disconnectConfirmation(c, t.Team, *a))
}

func (h *Handler) disconnectConfirmation(c echo.Context, t app.Team, a app.SocialAccount) components.Confirm {
	who := accountName(a)
	days := ""
	if org, err := h.svc.GetOrganization(c.Request().Context()); err == nil {
		days = " It is deleted for good after " + hoursText(org.DeleteAccountAfter) + "; connecting it again before then restores it."
	}
	return components.Confirm{
		ID:     "confirm-disconnect-" + strings.ToLower(string(a.Type)),
		Title:  "Disconnect " + a.Type.DisplayName() + " from “" + t.Name + "”?",
		Text:   who + " stops receiving this team’s posts, and its scheduled posts to " + a.Type.DisplayName() + " will not be sent." + days,
		Button: "Disconnect",
		Action: accountURL(t.ID, a.Type, suffixDisconnect),
		Cancel: templ.SafeURL(accountsURL(t.ID)),
		Icon:   "plug",
	}
}

// accountDisconnect serves POST /teams/:id/accounts/:network/disconnect.
func (h *Handler) accountDisconnect(c echo.Context) error {
	n, err := accountNetwork(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	a, err := h.svc.SocialAccountByType(ctx, t.ID, n)
	if err != nil {
		return pageError(err)
	}
	if _, err := h.svc.DisconnectSocialAccount(ctx, t.ID, n); err != nil {
		return h.confirmFailed(c, areaTeams, t.Name, h.disconnectConfirmation(c, t.Team, *a), err)
	}
	msg := n.DisplayName() + " account " + accountName(*a) + " disconnected."
	if isHTMX(c) {
		return dialogDone(c, msg, eventAccountsChanged)
	}
	return flashRedirect(c, msg, accountsURL(t.ID))
}

// portalLinkCreate serves POST /teams/:id/accounts/portal-link: the card again with the new link
// and a copy button (htmx), or the page with it. A refusal keeps the choices.
func (h *Handler) portalLinkCreate(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	form := components.NewForm(formValues(c, "redirectUrl", "expiresIn"))
	vals, _ := c.FormParams()
	chosen := map[string]bool{}
	var types []app.Network
	for _, v := range vals["socialAccountTypes"] {
		if n := app.Network(v); n.Valid() && !chosen[v] {
			chosen[v] = true
			types = append(types, n)
		}
	}
	p := app.PortalLinkParams{TeamID: t.ID, Types: types, RedirectURL: strings.TrimSpace(form.Value("redirectUrl"))}
	minutes, cerr := strconv.Atoi(form.Value("expiresIn"))
	if cerr != nil {
		minutes, _ = strconv.Atoi(defaultPortalLifetime)
		form.Values["expiresIn"] = defaultPortalLifetime
	}
	p.ExpiresIn = &minutes
	u, createErr := h.svc.CreatePortalLink(ctx, p)
	if createErr != nil && !refused(&form, createErr, "redirectUrl", "expiresIn", "socialAccountTypes") {
		return createErr
	}
	if form.Errors["socialAccountTypes"] != "" {
		form.Errors["socialAccountTypes"] = "Choose at least one network"
	}
	d, err := h.accountsData(c, t)
	if err != nil {
		return err
	}
	links := d.Portal.Links
	d.Portal = portalForm(t.ID, form, chosen)
	d.Portal.Links = links
	if createErr == nil {
		c.Response().Header().Set("Cache-Control", "no-store") // the page holds the link
		d.Portal.URL = u
		d.Portal.Expires = viewerMoment(c, time.Now().Add(time.Duration(minutes)*time.Minute))
	}
	if isHTMX(c) {
		return render(c, http.StatusOK, teams.PortalCard(d.Portal), nil)
	}
	return h.renderAccounts(c, formStatus(c, form), d)
}

// accountsData builds the page from the team and its accounts.
func (h *Handler) accountsData(c echo.Context, t *app.TeamDetail) (teams.Accounts, error) {
	d := teams.Accounts{
		TeamID:    t.ID,
		TeamName:  t.Name,
		CanManage: app.Can(callerRole(c), app.ActManageAccounts),
		Back:      idURL(pathTeams, t.ID, ""),
		Self:      templ.SafeURL(accountsURL(t.ID)),
		Portal:    portalForm(t.ID, components.NewForm(map[string]string{"expiresIn": defaultPortalLifetime}), nil),
	}
	byType := map[app.Network]app.SocialAccount{}
	for _, a := range t.SocialAccounts {
		byType[a.Type] = a
	}
	for _, n := range app.Networks {
		info := h.svc.Network(n)
		r := teams.NetworkRow{Type: string(n), Name: n.DisplayName(), Available: info.Available, NeedsServer: info.NeedsServer,
			Password: info.Password, ChooseLogin: len(app.SpecOf(n).ConnectMethods) > 1, Connect: templ.SafeURL(accountsURL(t.ID) + suffixConnect), Form: components.NewForm(nil)}
		a, ok := byType[n]
		if !ok {
			d.Available = append(d.Available, r)
			continue
		}
		r.Account = h.accountView(c, t.ID, a, info)
		d.Connected = append(d.Connected, r)
	}
	if d.CanManage {
		var err error
		if d.Portal.Links, err = h.portalLinks(c, t.ID); err != nil {
			return d, err
		}
	}
	return d, nil
}

func (h *Handler) accountView(c echo.Context, teamID string, a app.SocialAccount, info app.NetworkInfo) *teams.AccountView {
	name := accountName(a)
	v := &teams.AccountView{
		ID:              a.ID,
		DisplayName:     name,
		Username:        strings.TrimPrefix(valueOf(a.Username), "@"),
		Initials:        components.Initials(name),
		AvatarURL:       h.safeAvatar(a.AvatarURL),
		Connected:       viewerDay(c, a.CreatedAt),
		Reconnect:       a.ReconnectRequiredAt != nil,
		LastError:       valueOf(a.LastError),
		Noun:            channelNoun(a.Type),
		SetChannel:      accountURL(teamID, a.Type, suffixChannel),
		UnsetChannel:    accountURL(teamID, a.Type, suffixChannelUnset),
		RefreshChannels: accountURL(teamID, a.Type, suffixChannelsRefresh),
		Disconnect:      accountURL(teamID, a.Type, suffixDisconnect),
		Check:           accountURL(teamID, a.Type, suffixCheck),
	}
	switch {
	case info.Channels == app.ChannelsSelect && app.SpecOf(a.Type).ChannelNeeded != nil && app.SpecOf(a.Type).ChannelNeeded(&a) == "":
		// The account is its own destination (Instagram Login): nothing to choose.
	case info.Channels == app.ChannelsSelect:
		v.ChannelMode = "select"
		v.Selected = valueOf(a.ProviderPageID)
	case info.Channels == app.ChannelsList:
		v.ChannelMode = "list"
	}
	for _, ch := range a.Channels {
		o := teams.ChannelOption{ID: ch.ID, Label: valueOf(ch.Name)}
		if o.Label == "" {
			o.Label = ch.ID
		}
		if ch.Username != nil && *ch.Username != "" {
			o.Sub = "@" + strings.TrimPrefix(*ch.Username, "@")
		} else if ch.Address != nil {
			o.Sub = *ch.Address
		}
		v.Channels = append(v.Channels, o)
	}
	return v
}

// safeAvatar is an avatar URL the page may show: same-origin or data: (the CSP refuses other
// images, so those accounts show their initials instead).
func (h *Handler) safeAvatar(u *string) string {
	if u == nil {
		return ""
	}
	s := *u
	base := h.svc.AbsoluteURL("/")
	switch {
	case strings.HasPrefix(s, "data:image/"):
		return s
	case strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//"):
		return s
	case strings.HasPrefix(s, base):
		return s
	}
	return ""
}

// accountName is how the page names an account: its display name, else its username, else the network.
func accountName(a app.SocialAccount) string {
	if n := strings.TrimSpace(valueOf(a.DisplayName)); n != "" {
		return n
	}
	if u := strings.TrimSpace(valueOf(a.Username)); u != "" {
		return "@" + strings.TrimPrefix(u, "@")
	}
	return a.Type.DisplayName() + " account"
}

func portalForm(teamID string, form components.Form, chosen map[string]bool) teams.PortalForm {
	p := teams.PortalForm{Form: form, Action: templ.SafeURL(accountsURL(teamID) + suffixPortalLink), Lifetimes: portalLifetimes}
	for _, n := range app.Networks {
		p.Networks = append(p.Networks, teams.PortalNetwork{Type: string(n), Name: n.DisplayName(), Checked: chosen == nil || chosen[string(n)]})
	}
	return p
}

func channelNoun(n app.Network) string {
	if s := app.SpecOf(n).ChannelNoun; s != "" {
		return s
	}
	return "channel"
}

// hoursText says a delay in hours plainly ("48 hours", "3 days").
func hoursText(h int) string {
	switch {
	case h <= 0:
		return "a moment"
	case h%24 == 0 && h >= 48:
		return strconv.Itoa(h/24) + " days"
	case h == 1:
		return "1 hour"
	}
	return strconv.Itoa(h) + " hours"
}

func (h *Handler) renderAccounts(c echo.Context, status int, d teams.Accounts) error {
	c.Response().Header().Set("Content-Security-Policy", AccountsCSP)
	shell := h.orgShell(c, areaTeams, "Accounts · "+d.TeamName)
	shell.Scripts = append(shell.Scripts, assetURL("js/accounts.js"))
	return render(c, status, teams.AccountsPage(shell, d), teams.AccountsContent(d))
}
