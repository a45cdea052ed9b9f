package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/home"
)

// home serves GET /: the dashboard home with the networks' status from the Service.
func (h *Handler) home(c echo.Context) error {
	ctx := c.Request().Context()
	health, err := h.svc.Health(ctx)
	if err != nil {
		return fmt.Errorf("web: home: %w", err)
	}
	ov, err := h.svc.Overview(ctx)
	if err != nil {
		return fmt.Errorf("web: home: %w", err)
	}
	d := homeData(health, ov)
	d.Upcoming, d.Failing = homePosts(c, ov.Upcoming), homePosts(c, ov.Failing)
	return render(c, http.StatusOK, home.Page(h.shell(c, areaHome, "Home"), d), home.Content(d))
}

// homeData turns the Service's records into the home page's values: the checklist's steps are done
// when the organization has taken them.
func homeData(health *app.Health, ov *app.Overview) home.Data {
	d := home.Data{
		Steps: []home.Step{
			{ID: "connect", Title: "Connect an account", Text: "Link a social account to a team, on any of the 15 networks.", Href: areaURL(areaTeams), Icon: "plug", Done: ov.HasAccount},
			{ID: "upload", Title: "Upload media", Text: "Add the images and videos you are going to post.", Href: areaURL(areaMedia), Icon: "upload", Done: ov.HasUpload},
			{ID: "compose", Title: "Compose your first post", Text: "Write it once, tailor it per network, publish or schedule it.", Href: areaURL(areaComposer), Icon: "composer", Done: ov.HasPost},
			{ID: "api-key", Title: "Create an API key", Text: "Drive Crier from your own code through the JSON API.", Href: areaURL(areaSettings), Icon: "key", Done: ov.HasAPIKey},
		},
		Health: home.Health{
			Label:     statusLabel(health.Status),
			Tone:      statusTone(health.Status),
			Note:      health.Note,
			CheckedAt: health.CreatedAt,
		},
		Stats:      home.Stats{Scheduled: ov.Scheduled, Published: ov.Published, Failed: ov.Failed},
		ComposeURL: areaURL(areaComposer),
		DocsURL:    templ.SafeURL(pathDocs),
	}
	for _, n := range app.Networks {
		p, ok := health.Platforms[n]
		if !ok {
			p = app.PlatformStatus{Status: "unknown", Note: "No status reported"}
		}
		row := home.Network{
			Code: string(n), Name: n.DisplayName(), Status: p.Status,
			Label: statusLabel(p.Status), Tone: statusTone(p.Status), Note: p.Note,
		}
		if p.Until != nil {
			row.Until = *p.Until
		}
		d.Networks = append(d.Networks, row)
	}
	return d
}

// homePosts turns the overview's posts into list items, times in the viewer's zone.
func homePosts(c echo.Context, posts []app.OverviewPost) []home.PostItem {
	items := make([]home.PostItem, 0, len(posts))
	for _, p := range posts {
		it := home.PostItem{
			ID: p.ID, Title: defaultTitle(p.Title), When: viewerMoment(c, p.PostDate),
			DateTime: p.PostDate.UTC().Format(time.RFC3339), Href: templ.SafeURL("/posts/" + p.ID),
		}
		for _, n := range p.Networks {
			it.Networks = append(it.Networks, string(n))
		}
		if p.Error != nil {
			it.Error = *p.Error
		}
		items = append(items, it)
	}
	return items
}

func areaURL(id string) templ.SafeURL { return templ.SafeURL(areaByID(id).Path) }

// statusTone colors a Health status (Crier's or a network's).
func statusTone(status string) components.Tone {
	switch status {
	case app.StatusOperational:
		return components.ToneSuccess
	case app.StatusDegraded:
		return components.ToneWarning
	case app.StatusOutage:
		return components.ToneDanger
	case app.StatusMaintenance:
		return components.ToneInfo
	}
	return components.ToneNeutral
}

// statusLabel says a Health status in words ("Operational").
func statusLabel(status string) string {
	if status == "" {
		return "Unknown"
	}
	return strings.ToUpper(status[:1]) + status[1:]
}
