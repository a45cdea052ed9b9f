package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// Social accounts: a team holds at most one live account per network. Connecting goes through the
// network's OAuth consent (state sealed by oauth_state.go), the callback stores the profile and
// the encrypted tokens, and every later call to the network goes through WithToken (refresh once
// on an auth failure, then mark the account for reconnection — never a loop).

// SocialAccount is the spec's 26-field record; its JSON is the payload of social-account.* events.
type SocialAccount struct {
	ID                        string     `json:"id"`
	Type                      Network    `json:"type"`
	TeamID                    string     `json:"teamId"`
	Username                  *string    `json:"username"`
	DisplayName               *string    `json:"displayName"`
	Bio                       *string    `json:"bio"`
	AvatarURL                 *string    `json:"avatarUrl"`
	ExternalID                *string    `json:"externalId"`
	ProviderPageID            *string    `json:"providerPageId"`
	UserUsername              *string    `json:"userUsername"`
	UserDisplayName           *string    `json:"userDisplayName"`
	UserEmail                 *string    `json:"userEmail"`
	UserID                    *string    `json:"userId"`
	Channels                  []Channel  `json:"channels"`
	MastodonServerID          *string    `json:"mastodonServerId"`
	InstagramConnectionMethod *string    `json:"instagramConnectionMethod"`
	TwitterSubType            *string    `json:"twitterSubType"`
	IsTikTokBusinessAccount   *bool      `json:"isTiktokBusinessAccount"`
	DisconnectedCheckTryAt    *time.Time `json:"disconnectedCheckTryAt"`
	DeleteOn                  *time.Time `json:"deleteOn"`
	MessagingStatus           string     `json:"messagingStatus"`
	MessagingStatusUpdatedAt  *time.Time `json:"messagingStatusUpdatedAt"`
	MessagingLastError        *string    `json:"messagingLastError"`
	CreatedAt                 time.Time  `json:"createdAt"`
	UpdatedAt                 time.Time  `json:"updatedAt"`
	DeletedAt                 *time.Time `json:"deletedAt"`
	// Not in the spec's record (the dashboard and the reconnect flow use them).
	ReconnectRequiredAt *time.Time `json:"-"`
	LastError           *string    `json:"-"`
	OrganizationID      string     `json:"-"`
}

// Messaging states.
const (
	MessagingDisabled       = "DISABLED"
	MessagingEnabled        = "ENABLED"
	MessagingDisablePending = "DISABLE_PENDING"
)

// AccountByType finds the team's live account of a network (404 when none, or another tenant's team).
func (s *Service) AccountByType(ctx context.Context, q *store.Queries, orgID, teamID string, n Network) (store.SocialAccount, error) {
	if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: teamID, OrganizationID: orgID}); err != nil {
		return store.SocialAccount{}, NotFoundOr(err, "Team", "app: social account")
	}
	row, err := q.GetSocialAccountByType(ctx, store.GetSocialAccountByTypeParams{OrganizationID: orgID, TeamID: teamID, Type: string(n)})
	if err != nil {
		return row, NotFoundOr(err, "Social account", "app: social account")
	}
	return row, nil
}

// SocialAccountByType answers the team's account of a network.
func (s *Service) SocialAccountByType(ctx context.Context, teamID string, n Network) (*SocialAccount, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, err
	}
	row, err := s.AccountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	out := SocialAccountFromRow(row)
	return &out, nil
}

// SocialAccountsToDelete pages the organization's disconnected accounts waiting for their purge.
func (s *Service) SocialAccountsToDelete(ctx context.Context, page, pageSize int) ([]SocialAccount, int, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActReadOrg)
	if err != nil {
		return nil, 0, err
	}
	total, err := s.q.CountSocialAccountsToDelete(ctx, pr.OrganizationID)
	if err != nil {
		return nil, 0, fmt.Errorf("app: accounts to delete: %w", err)
	}
	rows, err := s.q.ListSocialAccountsToDelete(ctx, store.ListSocialAccountsToDeleteParams{OrganizationID: pr.OrganizationID,
		Off: int32((page - 1) * pageSize), Lim: int32(pageSize)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: accounts to delete: %w", err)
	}
	out := make([]SocialAccount, 0, len(rows))
	for _, r := range rows {
		out = append(out, SocialAccountFromRow(r))
	}
	return out, int(total), nil
}

// teamSocialAccounts answers the live accounts of teams, keyed by team id (for the team detail).
func (s *Service) teamSocialAccounts(ctx context.Context, orgID string, teamIDs []string) (map[string][]SocialAccount, error) {
	rows, err := s.q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: orgID, TeamIds: teamIDs})
	if err != nil {
		return nil, fmt.Errorf("app: team social accounts: %w", err)
	}
	out := map[string][]SocialAccount{}
	for _, r := range rows {
		out[r.TeamID] = append(out[r.TeamID], SocialAccountFromRow(r))
	}
	return out, nil
}

func SocialAccountFromRow(r store.SocialAccount) SocialAccount {
	a := SocialAccount{ID: r.ID, Type: Network(r.Type), TeamID: r.TeamID, Username: r.Username, DisplayName: r.DisplayName,
		Bio: r.Bio, AvatarURL: r.AvatarUrl, ExternalID: r.ExternalID, ProviderPageID: r.ProviderPageID,
		UserUsername: r.UserUsername, UserDisplayName: r.UserDisplayName, UserEmail: r.UserEmail, UserID: r.UserID,
		Channels: channelsOf(r.Channels), MastodonServerID: r.MastodonServerID, InstagramConnectionMethod: r.InstagramConnectionMethod,
		TwitterSubType: r.TwitterSubType, DisconnectedCheckTryAt: r.DisconnectedCheckTryAt, DeleteOn: r.DeleteOn,
		MessagingStatus: r.MessagingStatus, MessagingStatusUpdatedAt: r.MessagingStatusUpdatedAt, MessagingLastError: r.MessagingLastError,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt,
		ReconnectRequiredAt: r.ReconnectRequiredAt, LastError: r.LastError, OrganizationID: r.OrganizationID}
	if r.IsTiktokBusinessAccount.Valid {
		v := r.IsTiktokBusinessAccount.Bool
		a.IsTikTokBusinessAccount = &v
	}
	return a
}

func channelsOf(b []byte) []Channel {
	if b == nil {
		return nil
	}
	var cs []Channel
	_ = json.Unmarshal(b, &cs)
	return cs
}

func channelsJSON(cs []Channel) []byte {
	if cs == nil {
		cs = []Channel{}
	}
	b, _ := json.Marshal(cs)
	return b
}

func hasChannel(cs []Channel, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// IsUUID reports whether s looks like a UUID (ids are uuids; anything else matches nothing).
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
