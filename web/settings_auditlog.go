package web

import (
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

// auditLogShow serves GET /settings/audit-log: the log, newest first, paged, its times in the
// viewer's timezone. htmx swaps the card alone when paging.
func (h *Handler) auditLogShow(c echo.Context) error {
	ctx := c.Request().Context()
	n := pageNumber(c)
	items, total, err := h.svc.AuditLog(ctx, servicePage(n, app.DefaultAuditLogLimit))
	if app.ErrorCode(err) == app.EForbidden {
		return h.settingsForbidden(c, settings.TabAuditLog, "Audit log", err)
	}
	if err != nil {
		return err
	}
	org, err := h.svc.GetOrganization(ctx)
	if err != nil {
		return err
	}
	loc := viewerLocation(c)
	d := settings.AuditLog{Frame: settingsFrame(c, org, settings.TabAuditLog), Timezone: zoneName(loc)}
	for _, it := range items {
		d.Rows = append(d.Rows, settings.AuditItem{
			ID:        it.ID,
			Time:      it.CreatedAt.In(loc).Format("Jan 2, 2006, 15:04:05"),
			DateTime:  it.CreatedAt.UTC().Format(time.RFC3339),
			Actor:     valueOf(it.ActorName),
			ActorType: it.ActorType,
			Action:    it.Action,
			Target:    auditTarget(it),
			Metadata:  auditMetadata(it.Metadata),
		})
		if d.Rows[len(d.Rows)-1].Actor == "" {
			d.Rows[len(d.Rows)-1].Actor = "Crier"
		}
	}
	d.Pager = components.NewPager(n, app.DefaultAuditLogLimit, total, "entry/entries", "audit-log", func(p int) templ.SafeURL {
		return withQuery(pathAuditLog, "page", strconv.Itoa(p))
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

// auditTarget is "team 1a2b3c4d": the target's kind and the start of its id.
func auditTarget(it app.AuditLogItem) string {
	kind, id := valueOf(it.TargetType), valueOf(it.TargetID)
	if len(id) > 8 {
		id = id[:8]
	}
	switch {
	case kind == "":
		return "—"
	case id == "":
		return kind
	}
	return kind + " " + id
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
