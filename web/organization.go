package web

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/layout"
)

// Route names of the organization pages (the list pages use their area IDs: areaTeams, areaSettings).
const (
	routeTeamCreate          = "teams.create"
	routeTeam                = "team"
	routeTeamUpdate          = "team.update"
	routeTeamEdit            = "team.edit"
	routeTeamDeleteConfirm   = "team.delete.confirm"
	routeTeamDelete          = "team.delete"
	routeSettingsUpdate      = "settings.update"
	routeBrandingUpdate      = "settings.branding"
	routeOrganizationDelete  = "organization.delete"
	routeMembers             = "members"
	routeMemberRole          = "member.role"
	routeMemberRemoveConfirm = "member.remove.confirm"
	routeMemberRemove        = "member.remove"
	routeInvitationCreate    = "invitations.create"
	routeInvitationConfirm   = "invitation.revoke.confirm"
	routeInvitationRevoke    = "invitation.revoke"
	routeAPIKeys             = "apikeys"
	routeAPIKeyCreate        = "apikeys.create"
	routeAPIKeyRollConfirm   = "apikey.roll.confirm"
	routeAPIKeyRoll          = "apikey.roll"
	routeAPIKeyDeleteConfirm = "apikey.delete.confirm"
	routeAPIKeyDelete        = "apikey.delete"
	routeAuditLog            = "auditlog"
)

// Paths under the organization pages' constants (routes.go).
const (
	pathBranding    = pathSettings + "/branding"
	pathDeleteOrg   = pathSettings + "/delete"
	pathInvitations = pathSettings + "/invitations"
	pathTeam        = pathTeams + "/:id"
	pathMember      = pathMembers + "/:id"
	pathInvitation  = pathInvitations + "/:id"
	pathAPIKey      = pathAPIKeys + "/:id"
	suffixEdit      = "/edit"
	suffixDelete    = "/delete"
	suffixRole      = "/role"
	suffixRemove    = "/remove"
	suffixRevoke    = "/revoke"
	suffixRoll      = "/roll"
)

// htmx events the organization pages listen to (hx-trigger="<event> from:body") to reload a list
// after a change made in a dialog.
const (
	eventTeamsChanged       = "teamsChanged"
	eventMembersChanged     = "membersChanged"
	eventInvitationsChanged = "invitationsChanged"
	eventAPIKeysChanged     = "apiKeysChanged"
)

// orgShell is the frame of an organization page: the shell plus the pages' script (dialogs, copy
// buttons, the branding preview).
func (h *Handler) orgShell(c echo.Context, active, title string) layout.Shell {
	s := h.shell(c, active, title)
	s.Scripts = append(s.Scripts, assetURL("js/organization.js"))
	return s
}

// issueText says a validation issue for people: the Service speaks zod ("String must contain at
// least 3 character(s)"); the page says it plainly.
func issueText(is app.Issue) string {
	switch is.Message {
	case "String must contain at least 1 character(s)":
		return "Enter a value"
	case "Invalid url":
		return "Enter a full address starting with https://"
	case "Invalid email":
		return "Enter an email address such as name@company.com"
	}
	var n int
	if _, err := fmt.Sscanf(is.Message, "String must contain at least %d character(s)", &n); err == nil {
		return fmt.Sprintf("Use at least %d characters", n)
	}
	if _, err := fmt.Sscanf(is.Message, "String must contain at most %d character(s)", &n); err == nil {
		return fmt.Sprintf("Use at most %d characters", n)
	}
	return is.Message
}
