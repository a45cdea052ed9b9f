package store

import (
	"time"

	"github.com/jackc/pgx/v5"
)

// The rows a post's write reads are scanned by hand, column by column, as post_read.go's are:
// pgx's struct scanning (collect) reflected over every column of every row (issue 15).

// postDest is the destinations of a posts row's columns (SELECT * of posts, in order).
func postDest(p *Post) []any {
	return []any{&p.ID, &p.OrganizationID, &p.TeamID, &p.CreatedByID, &p.Title, &p.ReferenceKey, &p.PostDate, &p.PostedDate,
		&p.Status, &p.SocialAccountTypes, &p.Data, &p.FirstComment, &p.Error, &p.ReviewNote, &p.RetryCount, &p.CountedAt,
		&p.CreatedAt, &p.UpdatedAt, &p.DeletedAt}
}

// targetDest is the destinations of a publish_targets row's columns (SELECT * of publish_targets).
func targetDest(t *PublishTarget) []any {
	return []any{&t.ID, &t.OrganizationID, &t.Kind, &t.PostID, &t.CommentID, &t.Network, &t.SocialAccountID, &t.Status, &t.Payload,
		&t.AttemptKey, &t.Attempts, &t.AttemptStartedAt, &t.OutcomeUnknown, &t.Checkpoints, &t.Version, &t.DueAt, &t.NextAttemptAt,
		&t.ExternalID, &t.Permalink, &t.Extra, &t.Error, &t.ErrorVerbose, &t.PostedAt, &t.CreatedAt, &t.UpdatedAt}
}

// collectAccounts scans social_accounts rows (SELECT * of social_accounts, in order).
func collectAccounts(into *[]SocialAccount) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		out := make([]SocialAccount, 0, 4)
		for rows.Next() {
			var a SocialAccount
			if err := rows.Scan(&a.ID, &a.OrganizationID, &a.TeamID, &a.Type, &a.Username, &a.DisplayName, &a.Bio, &a.AvatarUrl,
				&a.ExternalID, &a.ProviderPageID, &a.UserUsername, &a.UserDisplayName, &a.UserEmail, &a.UserID, &a.Channels,
				&a.MastodonServerID, &a.InstagramConnectionMethod, &a.TwitterSubType, &a.IsTiktokBusinessAccount,
				&a.DisconnectedCheckTryAt, &a.DeleteOn, &a.MessagingStatus, &a.MessagingStatusUpdatedAt, &a.MessagingLastError,
				&a.AccessTokenEnc, &a.RefreshTokenEnc, &a.SecretsEnc, &a.TokenExpiresAt, &a.TokenScope, &a.ReconnectRequiredAt,
				&a.LastError, &a.CreatedAt, &a.UpdatedAt, &a.DeletedAt); err != nil {
				return err
			}
			out = append(out, a)
		}
		*into = out
		return rows.Err()
	}
}

// collectUploads scans uploads rows (SELECT * of uploads, in order).
func collectUploads(into *[]Upload) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var out []Upload
		for rows.Next() {
			var u Upload
			if err := rows.Scan(&u.ID, &u.OrganizationID, &u.TeamID, &u.CreatedByID, &u.Type, &u.Mime, &u.Ext, &u.Path, &u.ThumbnailPath,
				&u.IconPath, &u.ExternalLink, &u.Width, &u.Height, &u.FileSize, &u.VideoLength, &u.CreatedAt, &u.UpdatedAt, &u.DeletedAt,
				&u.PurgedAt, &u.Name); err != nil {
				return err
			}
			out = append(out, u)
		}
		*into = out
		return rows.Err()
	}
}

// collectPosts scans posts rows (SELECT * of posts, in order).
func collectPosts(into *[]Post) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var out []Post
		for rows.Next() {
			var p Post
			if err := rows.Scan(postDest(&p)...); err != nil {
				return err
			}
			out = append(out, p)
		}
		*into = out
		return rows.Err()
	}
}

// writeAccountColumns are the columns of a team's accounts a post's write reads: those a record
// shows and the rules check, without the tokens (access_token_enc, refresh_token_enc, secrets_enc,
// token_expires_at, token_scope), which neither needs; sa is social_accounts.
const writeAccountColumns = `sa.id, sa.organization_id, sa.team_id, sa.type, sa.username, sa.display_name, sa.bio, sa.avatar_url,
    sa.external_id, sa.provider_page_id, sa.user_username, sa.user_display_name, sa.user_email, sa.user_id, sa.channels,
    sa.mastodon_server_id, sa.instagram_connection_method, sa.twitter_sub_type, sa.is_tiktok_business_account,
    sa.disconnected_check_try_at, sa.delete_on, sa.messaging_status, sa.messaging_status_updated_at, sa.messaging_last_error,
    sa.reconnect_required_at, sa.last_error, sa.created_at, sa.updated_at, sa.deleted_at`

// accountScan scans writeAccountColumns, which may be the null side of an outer join: ok says
// whether the row had an account, a the account.
type accountScan struct {
	a                             SocialAccount
	id, org, team, typ, messaging *string
	created, updated              *time.Time
}

func (s *accountScan) dest() []any {
	a := &s.a
	return []any{&s.id, &s.org, &s.team, &s.typ, &a.Username, &a.DisplayName, &a.Bio, &a.AvatarUrl,
		&a.ExternalID, &a.ProviderPageID, &a.UserUsername, &a.UserDisplayName, &a.UserEmail, &a.UserID, &a.Channels,
		&a.MastodonServerID, &a.InstagramConnectionMethod, &a.TwitterSubType, &a.IsTiktokBusinessAccount,
		&a.DisconnectedCheckTryAt, &a.DeleteOn, &s.messaging, &a.MessagingStatusUpdatedAt, &a.MessagingLastError,
		&a.ReconnectRequiredAt, &a.LastError, &s.created, &s.updated, &a.DeletedAt}
}

// take answers the account scanned (ok false: none) and readies s for the next row.
func (s *accountScan) take() (SocialAccount, bool) {
	if s.id == nil {
		return SocialAccount{}, false
	}
	a := s.a
	a.ID, a.OrganizationID, a.TeamID, a.Type, a.MessagingStatus, a.CreatedAt, a.UpdatedAt = *s.id, *s.org, *s.team, *s.typ, *s.messaging, *s.created, *s.updated
	s.a = SocialAccount{}
	return a, true
}
