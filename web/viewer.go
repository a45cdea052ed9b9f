package web

import (
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// The signed-in viewer: their timezone, role and name as pages show them.

// viewerLocation is the viewer's timezone (their profile's), else UTC.
func viewerLocation(c echo.Context) *time.Location {
	if v := viewer(c); v != nil && v.User.Timezone != nil {
		if loc, err := time.LoadLocation(*v.User.Timezone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// viewerDay is a date in the viewer's timezone ("Nov 22, 2026").
func viewerDay(c echo.Context, t time.Time) string {
	return t.In(viewerLocation(c)).Format("Jan 2, 2006")
}

// viewerMoment is a date and time in the viewer's timezone ("Nov 22, 2026, 14:05").
func viewerMoment(c echo.Context, t time.Time) string {
	return t.In(viewerLocation(c)).Format("Jan 2, 2006, 15:04")
}

// callerRole is the caller's role in the current organization.
func callerRole(c echo.Context) app.Role {
	if p := principal(c); p != nil {
		return p.Role
	}
	return ""
}

// personName is a user's display name: first and last name, else the email.
func personName(first, last *string, email string) string {
	name := ""
	if first != nil {
		name = *first
	}
	if last != nil && *last != "" {
		if name != "" {
			name += " "
		}
		name += *last
	}
	if name == "" {
		return email
	}
	return name
}
