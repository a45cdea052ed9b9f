package app

import (
	"fmt"
	"slices"
)

// Action is something a role may or may not do. The matrix below is the one place roles are
// decided (the README shows it); every service method checks it through Authorize.
type Action string

const (
	ActManageAPIKeys   Action = "manage API keys"
	ActListMembers     Action = "list the organization's members"
	ActManageMembers   Action = "change members' roles, remove members, manage invitations"
	ActManageOwners    Action = "grant or remove the OWNER role"
	ActManageSettings  Action = "change organization settings"
	ActDeleteOrg       Action = "delete the organization"
	ActManageBilling   Action = "manage billing"
	ActManageTeams     Action = "create, rename and delete teams"
	ActManageWebhooks  Action = "manage webhooks"
	ActManageAccounts  Action = "connect and disconnect social accounts"
	ActContent         Action = "work on content (posts, uploads, comments, inbox, bio)"
	ActReviewPosts     Action = "approve or send back posts awaiting review"
	ActReadOrg         Action = "read the organization, its teams and usage"
	ActReadAuditLog    Action = "read the audit log"
	ActCreateOrg       Action = "create another organization"
	ActManageOwnAccess Action = "manage their own profile and password"
)

// permissions: OWNER everything; ADMIN everything but billing, organization deletion and owner
// changes; MEMBER content work and reading (the member list included: colleagues are part of the
// organization a member works in), but not keys, members, webhooks, settings or teams. The README's
// role table lists these rows word for word (TestReadmeRoleTableIsTheMatrix).
var permissions = map[Action][]Role{
	ActManageAPIKeys:   {RoleOwner, RoleAdmin},
	ActListMembers:     {RoleOwner, RoleAdmin, RoleMember},
	ActManageMembers:   {RoleOwner, RoleAdmin},
	ActManageOwners:    {RoleOwner},
	ActManageSettings:  {RoleOwner, RoleAdmin},
	ActDeleteOrg:       {RoleOwner},
	ActManageBilling:   {RoleOwner},
	ActManageTeams:     {RoleOwner, RoleAdmin},
	ActManageWebhooks:  {RoleOwner, RoleAdmin},
	ActManageAccounts:  {RoleOwner, RoleAdmin, RoleMember},
	ActContent:         {RoleOwner, RoleAdmin, RoleMember},
	ActReviewPosts:     {RoleOwner, RoleAdmin},
	ActReadOrg:         {RoleOwner, RoleAdmin, RoleMember},
	ActReadAuditLog:    {RoleOwner, RoleAdmin},
	ActCreateOrg:       {RoleOwner, RoleAdmin, RoleMember},
	ActManageOwnAccess: {RoleOwner, RoleAdmin, RoleMember},
}

// Actions are every action of the matrix, in alphabetical order.
func Actions() []Action {
	out := make([]Action, 0, len(permissions))
	for a := range permissions {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// Can reports whether role may perform act.
func Can(role Role, act Action) bool {
	for _, r := range permissions[act] {
		if r == role {
			return true
		}
	}
	return false
}

// Authorize returns the caller, or EUnauthorized without one, or EForbidden when its role may not act.
func Authorize(p *Principal, act Action) (*Principal, error) {
	if p == nil {
		return nil, Errorf(EUnauthorized, "Authentication required")
	}
	if !Can(p.Role, act) {
		return nil, &Error{Code: EForbidden, Message: fmt.Sprintf("Your role (%s) cannot %s", p.Role, act)}
	}
	return p, nil
}
