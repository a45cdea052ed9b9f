package web

import (
	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/crier/crier/app"
)

// Route names (echo's Route.Name, so e.Reverse(name) works) and paths. Templates never spell a
// path: handlers pass URLs built from this file.
const (
	routeHome   = "home"
	routeDocs   = "docs"
	routeStatic = "static"

	pathHome   = "/"
	pathDocs   = "/docs"
	pathStatic = "/static/"

	// Account pages (web/account*.go). Emails link to the three token pages: keep these paths in step
	// with app's mail templates.
	pathLogin            = "/login"
	pathSignup           = "/signup"
	pathLogout           = "/logout"
	pathForgotPassword   = "/forgot-password"
	pathResetPassword    = "/reset-password"
	pathVerifyEmail      = "/verify-email"
	pathAcceptInvitation = "/invitations/accept"
	pathProfile          = "/profile"
	pathNewOrganization  = "/organizations/new"
	pathSwitchOrg        = "/organizations/switch"
	pathDevMailbox       = "/dev/mailbox"

	// Organization pages (web/organization*.go, web/team*.go).
	pathTeams    = "/teams"
	pathSettings = "/settings"
	pathMembers  = "/settings/members"
	pathAPIKeys  = "/settings/api-keys"
	pathAuditLog = "/settings/audit-log"
)

// OpenAPIPath is where the api package serves the contract; the /docs page renders it.
const OpenAPIPath = "/api/v1/openapi.json"

// Register mounts every dashboard route: this table is the map of the dashboard, read top to
// bottom (method, path, handler, middleware group, route name). Handlers live in the file named
// for their area; route names are constants (e.Reverse(name) works), and areas not built yet get
// a "coming later" page. Every page works without JavaScript (forms post, confirmations are
// pages); htmx swaps the part that changed instead.
func (h *Handler) Register(e *echo.Echo) {
	// Public pages (sign-in, sign-up, tokens from emails): session, then CSRF (its token is rendered
	// into forms and hx-headers). Dashboard pages also need a signed-in user.
	public := []echo.MiddlewareFunc{echosession.Middleware(h.sessions), h.csrf}
	signedIn := append(append([]echo.MiddlewareFunc{}, public...), h.requireUser)
	// The upload POST carries a file: its own body cap (mediaFormLimit).
	upload := append(append([]echo.MiddlewareFunc{}, signedIn...), middleware.BodyLimit(mediaFormLimit))

	e.GET(pathHome, h.home, signedIn...).Name = routeHome

	// Account (account*.go): sign-up, sign-in, sign-out, password reset, email verification,
	// invitations, profile, organization creation and switching.
	e.GET(pathSignup, h.signupPage, public...).Name = routeSignup
	e.POST(pathSignup, h.signupSubmit, public...).Name = routeSignupSubmit
	e.GET(pathLogin, h.loginPage, public...).Name = routeLogin
	e.POST(pathLogin, h.loginSubmit, public...).Name = routeLoginSubmit
	e.POST(pathLogout, h.logout, public...).Name = routeLogout
	e.GET(pathForgotPassword, h.forgotPage, public...).Name = routeForgotPassword
	e.POST(pathForgotPassword, h.forgotSubmit, public...).Name = routeForgotSubmit
	e.GET(pathResetPassword, h.resetPage, public...).Name = routeResetPassword
	e.POST(pathResetPassword, h.resetSubmit, public...).Name = routeResetSubmit
	e.GET(pathVerifyEmail, h.verifyEmail, public...).Name = routeVerifyEmail
	e.POST(pathResendVerification, h.resendVerification, signedIn...).Name = routeResendVerify
	e.GET(pathAcceptInvitation, h.invitationPage, public...).Name = routeAcceptInvitation
	e.POST(pathAcceptInvitation, h.invitationSubmit, public...).Name = routeAcceptSubmit

	e.GET(pathProfile, h.profilePage, signedIn...).Name = routeProfile
	e.POST(pathProfile, h.profileSubmit, signedIn...).Name = routeProfileSubmit
	e.POST(pathProfilePassword, h.passwordSubmit, signedIn...).Name = routeProfilePassword
	e.GET(pathNewOrganization, h.newOrganizationPage, signedIn...).Name = routeNewOrganization
	e.POST(pathNewOrganization, h.createOrganization, signedIn...).Name = routeCreateOrg
	e.POST(pathSwitchOrg, h.switchOrganization, signedIn...).Name = routeSwitchOrg

	// The dev mailbox is a development tool, absent in production: signed in, each user reads only
	// their own mail (and their organization's invitations), never another user's reset link.
	if !h.production {
		e.GET(pathDevMailbox, h.devMailbox, signedIn...).Name = routeDevMailbox
		e.GET(pathDevMailbox+"/:id", h.devMail, signedIn...).Name = routeDevMail
	}

	// Teams (team.go).
	e.GET(pathTeams, h.teamsList, signedIn...).Name = areaTeams
	e.POST(pathTeams, h.teamCreate, signedIn...).Name = routeTeamCreate
	e.GET(pathTeam, h.teamShow, signedIn...).Name = routeTeam
	e.POST(pathTeam, h.teamUpdate, signedIn...).Name = routeTeamUpdate
	e.GET(pathTeam+suffixEdit, h.teamEdit, signedIn...).Name = routeTeamEdit
	e.GET(pathTeam+suffixDelete, h.teamDeleteConfirm, signedIn...).Name = routeTeamDeleteConfirm
	e.POST(pathTeam+suffixDelete, h.teamDelete, signedIn...).Name = routeTeamDelete

	// Settings (settings*.go): the organization with portal branding, members and invitations, API
	// keys, the audit log.
	e.GET(pathSettings, h.settingsShow, signedIn...).Name = areaSettings
	e.POST(pathSettings, h.settingsUpdate, signedIn...).Name = routeSettingsUpdate
	e.POST(pathBranding, h.brandingUpdate, signedIn...).Name = routeBrandingUpdate
	e.POST(pathDeleteOrg, h.organizationDelete, signedIn...).Name = routeOrganizationDelete

	e.GET(pathMembers, h.membersShow, signedIn...).Name = routeMembers
	e.GET(pathMember+suffixRole, h.memberRoleConfirm, signedIn...).Name = routeMemberRoleConfirm
	e.POST(pathMember+suffixRole, h.memberRole, signedIn...).Name = routeMemberRole
	e.GET(pathMember+suffixRemove, h.memberRemoveConfirm, signedIn...).Name = routeMemberRemoveConfirm
	e.POST(pathMember+suffixRemove, h.memberRemove, signedIn...).Name = routeMemberRemove
	e.POST(pathInvitations, h.invitationCreate, signedIn...).Name = routeInvitationCreate
	e.GET(pathInvitation+suffixRevoke, h.invitationRevokeConfirm, signedIn...).Name = routeInvitationConfirm
	e.POST(pathInvitation+suffixRevoke, h.invitationRevoke, signedIn...).Name = routeInvitationRevoke
	e.POST(pathInvitation+suffixResend, h.invitationResend, signedIn...).Name = routeInvitationResend

	e.GET(pathAPIKeys, h.apiKeysShow, signedIn...).Name = routeAPIKeys
	e.POST(pathAPIKeys, h.apiKeyCreate, signedIn...).Name = routeAPIKeyCreate
	e.GET(pathAPIKey+suffixRoll, h.apiKeyRollConfirm, signedIn...).Name = routeAPIKeyRollConfirm
	e.POST(pathAPIKey+suffixRoll, h.apiKeyRoll, signedIn...).Name = routeAPIKeyRoll
	e.GET(pathAPIKey+suffixDelete, h.apiKeyDeleteConfirm, signedIn...).Name = routeAPIKeyDeleteConfirm
	e.POST(pathAPIKey+suffixDelete, h.apiKeyDelete, signedIn...).Name = routeAPIKeyDelete

	e.GET(pathAuditLog, h.auditLogShow, signedIn...).Name = routeAuditLog

	// A team's social accounts (team_accounts.go).
	e.GET(pathTeamAccounts, h.accountsShow, signedIn...).Name = routeTeamAccounts
	e.POST(pathTeamAccounts+suffixConnect, h.accountConnect, signedIn...).Name = routeTeamAccountConnect
	e.POST(pathTeamAccounts+suffixPortalLink, h.portalLinkCreate, signedIn...).Name = routeTeamPortalLink
	e.GET(pathTeamPortalLinks, h.portalLinksShow, signedIn...).Name = routeTeamPortalLinks
	e.GET(pathTeamPortalLinkEnd, h.portalLinkEndConfirm, signedIn...).Name = routeTeamPortalLinkEndAsk
	e.POST(pathTeamPortalLinkEnd, h.portalLinkEnd, signedIn...).Name = routeTeamPortalLinkEnd
	e.POST(pathTeamAccount+suffixChannel, h.accountSetChannel, signedIn...).Name = routeTeamAccountChannel
	e.POST(pathTeamAccount+suffixChannelUnset, h.accountUnsetChannel, signedIn...).Name = routeTeamAccountUnset
	e.POST(pathTeamAccount+suffixChannelsRefresh, h.accountRefreshChannels, signedIn...).Name = routeTeamAccountRefresh
	e.POST(pathTeamAccount+suffixCheck, h.accountCheck, signedIn...).Name = routeTeamAccountCheck
	e.GET(pathTeamAccount+suffixDisconnect, h.accountDisconnectConfirm, signedIn...).Name = routeTeamAccountDiscConf
	e.POST(pathTeamAccount+suffixDisconnect, h.accountDisconnect, signedIn...).Name = routeTeamAccountDisconnect

	// The app-password sign-in of networks without OAuth (connect_password.go).
	e.GET(pathConnectPassword, h.connectPasswordPage, public...)
	e.POST(pathConnectPassword, h.connectPasswordSubmit, public...)

	// The connection portal a client opens from a link (portal.go): the token is the credential.
	e.GET(app.PortalPath+":token", h.portalPage, public...)
	e.POST(app.PortalPath+":token/connect", h.portalConnect, public...)
	e.POST(app.PortalPath+":token/disconnect", h.portalDisconnect, public...)
	// The brand's accent as a stylesheet (the CSP allows no inline styles); the colour is in the
	// path, so the token never reaches it and it caches.
	e.GET("/portal-accent/:colour", portalAccent)

	// Media library (media.go): uploads with progress, the grid, filters, deletion and the picker
	// the composer reuses; static/js/media.js sends large files in parts straight to storage.
	e.GET(pathMedia, h.mediaList, signedIn...).Name = areaMedia
	e.GET(pathMediaPicker, h.mediaPicker, signedIn...).Name = routeMediaPicker
	e.POST(pathMediaUpload, h.mediaUpload, upload...).Name = routeMediaUpload
	e.POST(pathMediaMultipart+"/init", h.mediaMultipartInit, signedIn...).Name = routeMediaMultipartInit
	e.POST(pathMediaMultipart+"/sign", h.mediaMultipartSign, signedIn...).Name = routeMediaMultipartSign
	e.POST(pathMediaMultipart+"/complete", h.mediaMultipartComplete, signedIn...).Name = routeMediaMultipartDone
	e.POST(pathMediaMultipart+"/abort", h.mediaMultipartAbort, signedIn...).Name = routeMediaMultipartAbort
	e.GET(pathMediaDelete, h.mediaDeleteConfirm, signedIn...).Name = routeMediaDeleteConfirm
	e.POST(pathMediaDelete, h.mediaDelete, signedIn...).Name = routeMediaDelete
	e.GET(pathMediaOne+suffixDelete, h.mediaOneDeleteConfirm, signedIn...).Name = routeMediaOneConfirm
	e.POST(pathMediaOne+suffixDelete, h.mediaOneDelete, signedIn...).Name = routeMediaOneDelete
	e.POST(pathMediaOne+suffixName, h.mediaRename, signedIn...).Name = routeMediaRename

	// Webhooks (webhooks.go): list, create, edit, secret, test, deliveries.
	e.GET(pathWebhooks, h.webhooksList, signedIn...).Name = areaWebhooks
	e.GET(pathWebhookNew, h.webhookNew, signedIn...).Name = routeWebhookNew
	e.POST(pathWebhooks, h.webhookCreate, signedIn...).Name = routeWebhookCreate
	e.GET(pathWebhook, h.webhookShow, signedIn...).Name = routeWebhook
	e.POST(pathWebhook, h.webhookUpdate, signedIn...).Name = routeWebhookUpdate
	e.GET(pathWebhook+suffixEdit, h.webhookEdit, signedIn...).Name = routeWebhookEdit
	e.GET(pathWebhook+suffixDelete, h.webhookDeleteConfirm, signedIn...).Name = routeWebhookDeleteConfirm
	e.POST(pathWebhook+suffixDelete, h.webhookDelete, signedIn...).Name = routeWebhookDelete
	e.GET(pathWebhook+suffixRotate, h.webhookRotateConfirm, signedIn...).Name = routeWebhookRotateConfirm
	e.POST(pathWebhook+suffixRotate, h.webhookRotate, signedIn...).Name = routeWebhookRotate
	e.POST(pathWebhook+suffixTest, h.webhookTest, signedIn...).Name = routeWebhookTest
	e.GET(pathWebhook+suffixDeliveries, h.webhookDeliveries, signedIn...).Name = routeWebhookDeliveries
	e.POST(pathWebhook+suffixDeliveries+"/:delivery"+suffixResend, h.webhookResend, signedIn...).Name = routeWebhookResend

	// Notifications (notification.go).
	e.GET(pathNotifications, h.notificationsShow, signedIn...).Name = routeNotifications
	e.POST(pathNotificationsRead, h.notificationsReadAll, signedIn...).Name = routeNotificationsRead
	e.POST(pathNotificationRead, h.notificationRead, signedIn...).Name = routeNotificationRead

	// Composer (composer*.go): the page, saving (the four actions), the live previews and the media
	// grid (reloaded after an upload). Editing a post (/posts/:id/edit) reuses it.
	e.GET(pathComposer, h.composerShow, signedIn...).Name = areaComposer
	e.POST(pathComposer, h.composerSave, signedIn...).Name = routeComposerSave
	e.POST(pathComposerPreview, h.composerPreview, signedIn...).Name = routeComposerPreview
	e.GET(pathComposerMedia, h.composerMedia, signedIn...).Name = routeComposerMedia
	e.POST(pathComposerSlides, h.composerSlides, signedIn...).Name = routeComposerSlides
	e.POST(pathComposerConvert, h.composerConvert, signedIn...).Name = routeComposerConvert

	// Calendar (calendar*.go) and the drop that reschedules a post.
	e.GET(pathCalendar, h.calendarShow, signedIn...).Name = areaCalendar
	e.POST(pathCalendarMove, h.calendarMove, signedIn...).Name = routeCalendarMove

	// Posts (post.go): the list, the approval queue and a post's page with its actions.
	e.GET(pathPosts, h.postsList, signedIn...).Name = areaPosts
	e.GET(pathPostReview, h.postsReview, signedIn...).Name = routePostsReview
	e.GET(pathPost, h.postShow, signedIn...).Name = routePost
	e.GET(pathPost+suffixEdit, h.postEdit, signedIn...).Name = routePostEdit
	e.POST(pathPost+suffixEdit, h.postUpdate, signedIn...).Name = routePostUpdate
	e.POST(pathPost+suffixRetry, h.postRetry, signedIn...).Name = routePostRetry
	e.POST(pathPost+suffixApprove, h.postApprove, signedIn...).Name = routePostApprove
	e.POST(pathPost+suffixReject, h.postReject, signedIn...).Name = routePostReject
	e.POST(pathPost+suffixReschedule, h.postReschedule, signedIn...).Name = routePostReschedule
	e.GET(pathPost+suffixDelete, h.postDeleteConfirm, signedIn...).Name = routePostDeleteAsk
	e.POST(pathPost+suffixDelete, h.postDelete, signedIn...).Name = routePostDelete

	// The sandbox inspector (sandbox_inspector.go), only when the server runs with SANDBOX=1.
	if h.sandbox != nil {
		e.GET(pathSandbox, h.sandboxIndex, signedIn...).Name = areaSandbox
		e.GET(pathSandboxNetwork, h.sandboxShow, signedIn...).Name = routeSandboxNetwork
		e.GET(pathSandboxNetwork+suffixLive, h.sandboxLive, signedIn...).Name = routeSandboxLive
		e.POST(pathSandboxNetwork+suffixFail, h.sandboxFail, signedIn...).Name = routeSandboxFail
		e.POST(pathSandboxNetwork+suffixClearFail, h.sandboxAction(sandboxClearFailures), signedIn...).Name = routeSandboxClear
		e.POST(pathSandboxNetwork+suffixKnobs, h.sandboxKnobs, signedIn...).Name = routeSandboxKnobs
		e.POST(pathSandboxNetwork+suffixExpireTokens, h.sandboxAction(sandboxExpire), signedIn...).Name = routeSandboxExpire
		e.POST(pathSandboxNetwork+suffixRevokeTokens, h.sandboxAction(sandboxRevoke), signedIn...).Name = routeSandboxRevoke
		e.POST(pathSandboxNetwork+suffixReset, h.sandboxAction(sandboxReset), signedIn...).Name = routeSandboxReset
	}

	// Areas not built yet: a page saying what they will do (nav.go).
	for _, a := range areas {
		if !a.Built {
			e.GET(a.Path, h.showArea(a), signedIn...).Name = a.ID
		}
	}

	// The API reference and the assets are public and stateless: no session, no CSRF cookie.
	e.GET(pathDocs, h.docs).Name = routeDocs
	e.GET(pathStatic+"*", serveStatic).Name = routeStatic
	// Browsers ask for /favicon.ico on pages without an icon link (the portal, the networks'
	// consent pages of the sandbox): answer Crier's icon rather than a 404.
	e.GET("/favicon.ico", func(c echo.Context) error {
		c.SetParamNames("*")
		c.SetParamValues("img/favicon.svg")
		return serveStatic(c)
	})
}
