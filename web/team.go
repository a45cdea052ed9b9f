package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/teams"
)

// teamFields are the fields of the team forms.
var teamFields = []string{"name", "avatarUrl"}

// teamsList serves GET /teams: the teams with search (?q=) and paging (?page=). htmx gets the
// results alone when it searches, pages or reloads them.
func (h *Handler) teamsList(c echo.Context) error {
	d, err := h.teamsData(c, c.QueryParam("q"), pageNumber(c))
	if err != nil {
		return err
	}
	if hxTarget(c) == "teams-results" {
		parts := []templ.Component{teams.Results(d), teams.Usage(d, true)}
		if d.CanManage {
			parts = append(parts, teams.LimitNote(d, true))
		}
		return render(c, http.StatusOK, templ.Join(parts...), nil)
	}
	return h.renderTeams(c, http.StatusOK, d)
}

// teamCreate serves POST /teams. A refusal (invalid fields, the plan's team limit, a role that may
// not create teams) re-renders the form with what was typed.
func (h *Handler) teamCreate(c echo.Context) error {
	form := components.NewForm(formValues(c, teamFields...))
	p := app.TeamParams{Name: pointerTo(form.Value("name"))}
	if v := form.Value("avatarUrl"); v != "" {
		p.AvatarURL = &v
	}
	t, err := h.svc.CreateTeam(c.Request().Context(), p)
	if err != nil && !refused(&form, err, teamFields...) {
		return err
	}
	if err == nil && !isHTMX(c) {
		return flashRedirect(c, "Team “"+t.Name+"” created.", pathTeams)
	}
	if err == nil {
		form = components.NewForm(nil)
		form.Saved = "Team “" + t.Name + "” created."
		hxTrigger(c, eventTeamsChanged)
	}
	d, lerr := h.teamsData(c, "", 1)
	if lerr != nil {
		return lerr
	}
	d.Create = form
	if isHTMX(c) {
		return render(c, http.StatusOK, teams.CreateCard(d), nil)
	}
	return h.renderTeams(c, formStatus(c, form), d)
}

// teamShow serves GET /teams/:id: the team's page, or its list row for htmx (a cancelled rename).
func (h *Handler) teamShow(c echo.Context) error {
	t, err := h.svc.GetTeam(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if hxTarget(c) == "team-"+t.ID {
		return render(c, http.StatusOK, teams.TeamRow(h.teamRow(c, t)), nil)
	}
	return h.renderTeam(c, http.StatusOK, h.teamDetail(c, t, components.Form{}))
}

// teamEdit serves GET /teams/:id/edit: the row's inline rename form (htmx), else the team's page,
// which holds the same form.
func (h *Handler) teamEdit(c echo.Context) error {
	t, err := h.svc.GetTeam(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if !isHTMX(c) {
		return redirect(c, string(idURL(pathTeams, t.ID, "")))
	}
	r := h.teamRow(c, t)
	r.Editing, r.Form = true, components.NewForm(map[string]string{"name": t.Name})
	return render(c, http.StatusOK, teams.TeamRow(r), nil)
}

// teamUpdate serves POST /teams/:id: a rename from the list's row, or name and avatar from the
// team's page. Only the fields the form sent change.
func (h *Handler) teamUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	if err := c.Request().ParseForm(); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "Unreadable form").SetInternal(err)
	}
	form := components.NewForm(formValues(c, teamFields...))
	var p app.TeamParams
	if _, ok := c.Request().PostForm["name"]; ok {
		p.Name = pointerTo(form.Value("name"))
	}
	if _, ok := c.Request().PostForm["avatarUrl"]; ok {
		p.AvatarURL = pointerTo(form.Value("avatarUrl"))
	}
	updated, err := h.svc.UpdateTeam(ctx, id, p)
	if app.ErrorCode(err) == app.ENotFound {
		return pageError(err)
	}
	if err != nil && !refused(&form, err, teamFields...) {
		return err
	}
	t, gerr := h.svc.GetTeam(ctx, id)
	if gerr != nil {
		return pageError(gerr)
	}
	switch target := hxTarget(c); {
	case target == "team-"+id: // the list's inline rename
		r := h.teamRow(c, t)
		if err != nil {
			r.Editing, r.Form = true, form
			return render(c, http.StatusOK, teams.TeamRow(r), nil)
		}
		return render(c, http.StatusOK, renameDone(teams.TeamRow(r), "Team renamed to “"+updated.Name+"”."), nil)
	case target == "team-settings" && err != nil:
		return render(c, http.StatusOK, teams.SettingsCard(h.teamDetail(c, t, form)), nil)
	case err != nil:
		return h.renderTeam(c, formStatus(c, form), h.teamDetail(c, t, form))
	}
	return flashRedirect(c, "Team “"+updated.Name+"” saved.", string(idURL(pathTeams, id, "")))
}

// teamDeleteConfirm serves GET /teams/:id/delete: the confirmation (a dialog for htmx).
func (h *Handler) teamDeleteConfirm(c echo.Context) error {
	t, err := h.svc.GetTeam(c.Request().Context(), c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	return h.confirm(c, areaTeams, "Teams", teamDeleteConfirmation(t.Team))
}

// teamDelete serves POST /teams/:id/delete. From the list (htmx) the dialog closes and the list
// reloads; from the team's page, or without htmx, it goes back to the list.
func (h *Handler) teamDelete(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.svc.GetTeam(ctx, c.Param("id"))
	if err != nil {
		return pageError(err)
	}
	if _, err := h.svc.DeleteTeam(ctx, t.ID); err != nil {
		return h.confirmFailed(c, areaTeams, "Teams", teamDeleteConfirmation(t.Team), err)
	}
	msg := "Team “" + t.Name + "” deleted."
	if isHTMX(c) && !fromPage(c, string(idURL(pathTeams, t.ID, ""))) {
		return dialogDone(c, msg, eventTeamsChanged)
	}
	return flashRedirect(c, msg, pathTeams)
}

func teamDeleteConfirmation(t app.Team) components.Confirm {
	return components.Confirm{
		ID:     "confirm-delete-team",
		Title:  "Delete “" + t.Name + "”?",
		Text:   "The team disappears from Crier with its connected accounts and scheduled posts. This cannot be undone.",
		Button: "Delete team",
		Action: idURL(pathTeams, t.ID, suffixDelete),
		Cancel: idURL(pathTeams, t.ID, ""),
	}
}

// fromPage reports whether an htmx request was made from the page at path.
func fromPage(c echo.Context, path string) bool {
	u, err := url.Parse(c.Request().Header.Get(headerHXCurrentURL))
	return err == nil && u.Path == path
}

// teamsData builds the teams page for a search and a page number.
func (h *Handler) teamsData(c echo.Context, q string, n int) (teams.List, error) {
	ctx := c.Request().Context()
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return teams.List{}, err
	}
	size := app.DefaultTeamListLimit
	list, total, err := h.svc.ListTeams(ctx, q, servicePage(n, size))
	if err != nil {
		return teams.List{}, err
	}
	if len(list) == 0 && total > 0 && n > 1 { // past the end (e.g. after a deletion): the last page
		n = (total + size - 1) / size
		if list, total, err = h.svc.ListTeams(ctx, q, servicePage(n, size)); err != nil {
			return teams.List{}, err
		}
	}
	d := teams.List{
		Search:    q,
		CanManage: app.Can(callerRole(c), app.ActManageTeams),
		Create:    components.NewForm(nil),
		Plan:      string(org.Plan),
		Used:      len(org.Teams),
		Limit:     app.LimitsOf(org.Plan).Teams,
		Action:    pathTeams,
		Self:      withQuery(pathTeams, "q", q, "page", strconv.Itoa(n)),
	}
	for i := range list {
		d.Rows = append(d.Rows, h.teamRow(c, &list[i]))
	}
	d.Pager = components.NewPager(n, size, total, "team/teams", "teams-results", func(p int) templ.SafeURL {
		return withQuery(pathTeams, "q", q, "page", strconv.Itoa(p))
	})
	return d, nil
}

func (h *Handler) teamRow(c echo.Context, td *app.TeamDetail) teams.Row {
	t, by := td.Team, td.CreatedBy
	return teams.Row{
		Networks:  connectedNetworks(td.SocialAccounts),
		Accounts:  templ.SafeURL(accountsURL(t.ID)),
		ID:        t.ID,
		Name:      t.Name,
		Initials:  components.Initials(t.Name),
		CreatedBy: personName(by.FirstName, by.LastName, by.Email),
		Created:   viewerDay(c, t.CreatedAt),
		CanManage: app.Can(callerRole(c), app.ActManageTeams),
		Href:      idURL(pathTeams, t.ID, ""),
		Edit:      idURL(pathTeams, t.ID, suffixEdit),
		Update:    idURL(pathTeams, t.ID, ""),
		Delete:    idURL(pathTeams, t.ID, suffixDelete),
	}
}

// teamDetail builds a team's page; form nil-valued means a fresh form with the saved values.
func (h *Handler) teamDetail(c echo.Context, t *app.TeamDetail, form components.Form) teams.Detail {
	if form.Values == nil {
		avatar := ""
		if t.AvatarURL != nil {
			avatar = *t.AvatarURL
		}
		form = components.NewForm(map[string]string{"name": t.Name, "avatarUrl": avatar})
	}
	d := teams.Detail{
		Row:          h.teamRow(c, t),
		CreatorEmail: t.CreatedBy.Email,
		Updated:      viewerMoment(c, t.UpdatedAt),
		Form:         form,
		Back:         pathTeams,
		AccountsHref: templ.SafeURL(accountsURL(t.ID)),
	}
	byType := map[app.Network]app.SocialAccount{}
	for _, a := range t.SocialAccounts {
		byType[a.Type] = a
	}
	for _, n := range app.Networks {
		if a, ok := byType[n]; ok {
			d.Accounts = append(d.Accounts, teams.AccountSummary{Type: string(n), Network: n.DisplayName(), Name: accountName(a),
				Username: strings.TrimPrefix(valueOf(a.Username), "@"), Reconnect: a.ReconnectRequiredAt != nil})
		}
	}
	if t.AvatarURL != nil {
		d.AvatarURL = *t.AvatarURL
	}
	return d
}

func (h *Handler) renderTeams(c echo.Context, status int, d teams.List) error {
	return render(c, status, teams.ListPage(h.orgShell(c, areaTeams, "Teams"), d), teams.ListContent(d))
}

func (h *Handler) renderTeam(c echo.Context, status int, d teams.Detail) error {
	return render(c, status, teams.DetailPage(h.orgShell(c, areaTeams, d.Name), d), teams.DetailContent(d))
}

// renameDone is the renamed row with a flash beside it (out of band).
func renameDone(row templ.Component, flash string) templ.Component {
	return templ.Join(row, components.OOBFlash(components.Flash{Kind: components.FlashSuccess, Text: flash}))
}

// connectedNetworks are the networks of a team's accounts, in the networks' order.
func connectedNetworks(accounts []app.SocialAccount) []teams.NetworkMark {
	has := map[app.Network]bool{}
	for _, a := range accounts {
		has[a.Type] = true
	}
	var out []teams.NetworkMark
	for _, n := range app.Networks {
		if has[n] {
			out = append(out, teams.NetworkMark{Type: string(n), Name: n.DisplayName()})
		}
	}
	return out
}
