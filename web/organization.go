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
	routeMemberRoleConfirm   = "member.role.confirm"
	routeMemberRemoveConfirm = "member.remove.confirm"
	routeMemberRemove        = "member.remove"
	routeInvitationCreate    = "invitations.create"
	routeInvitationConfirm   = "invitation.revoke.confirm"
	routeInvitationRevoke    = "invitation.revoke"
	routeInvitationResend    = "invitation.resend"
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

// issueText says a validation issue for people, built from its fields (the Service's message speaks
// zod: "String must contain at least 3 character(s)"; the page says it plainly).
func issueText(is app.Issue) string {
	switch {
	case is.Code == app.IssueTooSmall && is.Type == "string" && !is.Exact && is.Minimum == 1:
		return "Enter a value"
	case is.Code == app.IssueTooSmall && is.Type == "string" && !is.Exact:
		return fmt.Sprintf("Use at least %d characters", int(is.Minimum))
	case is.Code == app.IssueTooBig && is.Type == "string" && !is.Exact:
		return fmt.Sprintf("Use at most %d characters", int(is.Maximum))
	case is.Code == app.IssueInvalidString && is.Validation == "url":
		return "Enter a full address starting with https://"
	case is.Code == app.IssueInvalidString && is.Validation == "email":
		return "Enter an email address such as name@company.com"
	}
	return is.Message
}
