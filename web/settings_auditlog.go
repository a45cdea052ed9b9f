package web

import (
	"cmp"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/settings"
)

// auditLogShow serves GET /settings/audit-log[?actor=&kind=&page=]: the log in sentences, newest
// first, paged, filtered by who acted and the kind of action, its times in the viewer's timezone.
// htmx swaps the card alone when paging or filtering.
func (h *Handler) auditLogShow(c echo.Context) error {
	ctx := c.Request().Context()
	n := pageNumber(c)
	actor, kind := c.QueryParam("actor"), c.QueryParam("kind")
	filter := app.AuditLogFilter{ActorID: actor}
	for _, k := range auditActionKinds {
		if k.Prefix == kind {
			filter.ActionPrefix = k.Prefix
		}
	}
	if filter.ActionPrefix == "" {
		kind = ""
	}
	items, total, err := h.svc.AuditLogFiltered(ctx, filter, servicePage(n, app.DefaultAuditLogLimit))
	if app.ErrorCode(err) == app.EForbidden {
		return h.settingsForbidden(c, settings.TabAuditLog, "Audit log", err)
	}
	if err != nil {
		return err
	}
	actors, err := h.svc.AuditActors(ctx)
	if err != nil {
		return err
	}
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return err
	}
	loc := viewerLocation(c)
	d := settings.AuditLog{Frame: settingsFrame(c, org, settings.TabAuditLog), Timezone: zoneName(loc),
		Actor: actor, Kind: kind, Filtered: actor != "" || kind != ""}
	for _, a := range actors {
		label := a.Name
		if a.Type == "API_KEY" {
			label = "API key “" + a.Name + "”"
		}
		d.Actors = append(d.Actors, settings.AuditOption{Value: a.ID, Label: cmp.Or(label, "Someone")})
	}
	for _, k := range auditActionKinds {
		d.Kinds = append(d.Kinds, settings.AuditOption{Value: k.Prefix, Label: k.Label})
	}
	for _, it := range items {
		words := auditSentence(it)
		d.Rows = append(d.Rows, settings.AuditItem{
			ID:        it.ID,
			Time:      it.CreatedAt.In(loc).Format("Jan 2, 2006, 15:04:05"),
			DateTime:  it.CreatedAt.UTC().Format(time.RFC3339),
			Actor:     words.Actor,
			Did:       words.Did,
			ActorType: it.ActorType,
			Action:    it.Action,
			Metadata:  auditMetadata(it.Metadata),
		})
	}
	d.Pager = components.NewPager(n, app.DefaultAuditLogLimit, total, "entry/entries", "audit-log", func(p int) templ.SafeURL {
		return withQuery(pathAuditLog, "actor", actor, "kind", kind, "page", strconv.Itoa(p))
	})
	if hxTarget(c) == "audit-log" {
		return render(c, http.StatusOK, settings.AuditLogCard(d), nil)
	}
	return render(c, http.StatusOK, settings.AuditLogPage(h.orgShell(c, areaSettings, "Audit log"), d), settings.AuditLogContent(d))
}

// zoneName names a location for people ("UTC", "Europe/Paris").
func zoneName(loc *time.Location) string {
	if loc == time.UTC {
		return "UTC"
	}
	return loc.String()
}

// auditMetadata is an item's metadata as sorted key and value pairs, values shortened.
func auditMetadata(m map[string]any) []settings.Meta {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]settings.Meta, 0, len(keys))
	for _, k := range keys {
		v := fmt.Sprint(m[k])
		if r := []rune(v); len(r) > 60 {
			v = string(r[:59]) + "…"
		}
		out = append(out, settings.Meta{Key: k, Value: v})
	}
	return out
}
