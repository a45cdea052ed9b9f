package store

import (
	"github.com/jackc/pgx/v5"
)

// The rows a post's write reads are scanned by hand, column by column, as post_read.go's are:
// pgx's struct scanning (collect) reflected over every column of every row (issue 15).

// post decodes a posts row's columns (SELECT * of posts, in order).
func (r *rawRow) post(p *Post) {
	r.str(&p.ID)
	r.str(&p.OrganizationID)
	r.str(&p.TeamID)
	r.strPtr(&p.CreatedByID)
	r.postContent(p)
	r.timePtr(&p.CountedAt)
	r.time(&p.CreatedAt)
	r.time(&p.UpdatedAt)
	r.timePtr(&p.DeletedAt)
}

// postContent decodes a post's columns title to retry_count, in the order of the posts table
// (both the full row and a record's projection select them so).
func (r *rawRow) postContent(p *Post) {
	r.str(&p.Title)
	r.strPtr(&p.ReferenceKey)
	r.time(&p.PostDate)
	r.timePtr(&p.PostedDate)
	r.str(&p.Status)
	r.strs(&p.SocialAccountTypes)
	r.json(&p.Data)
	r.json(&p.FirstComment)
	r.strPtr(&p.Error)
	r.strPtr(&p.ReviewNote)
	r.int32(&p.RetryCount)
}

// postColumns is how many columns post decodes.
const postColumns = 19

// target decodes a publish_targets row's columns (SELECT * of publish_targets, in order).
func (r *rawRow) target(t *PublishTarget) {
	r.str(&t.ID)
	r.str(&t.OrganizationID)
	r.str(&t.Kind)
	r.strPtr(&t.PostID)
	r.strPtr(&t.CommentID)
	r.str(&t.Network)
	r.strPtr(&t.SocialAccountID)
	r.str(&t.Status)
	r.json(&t.Payload)
	r.str(&t.AttemptKey)
	r.int32(&t.Attempts)
	r.timePtr(&t.AttemptStartedAt)
	r.boolean(&t.OutcomeUnknown)
	r.json(&t.Checkpoints)
	r.int32(&t.Version)
	r.timePtr(&t.DueAt)
	r.timePtr(&t.NextAttemptAt)
	r.strPtr(&t.ExternalID)
	r.strPtr(&t.Permalink)
	r.json(&t.Extra)
	r.strPtr(&t.Error)
	r.json(&t.ErrorVerbose)
	r.timePtr(&t.PostedAt)
	r.time(&t.CreatedAt)
	r.time(&t.UpdatedAt)
}

// targetColumns is how many columns target decodes.
const targetColumns = 25

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

// upload decodes an uploads row's columns (SELECT * of uploads, in order).
func (r *rawRow) upload(u *Upload) {
	r.str(&u.ID)
	r.str(&u.OrganizationID)
	r.strPtr(&u.TeamID)
	r.strPtr(&u.CreatedByID)
	r.str(&u.Type)
	r.uploadFile(u)
	r.timePtr(&u.DeletedAt)
	r.timePtr(&u.PurgedAt)
	r.strPtr(&u.Name)
}

// collectPosts scans posts rows (SELECT * of posts, in order).
func collectPosts(into *[]Post) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var out []Post
		r := newRawRow(rows)
		for r.next() {
			var p Post
			r.post(&p)
			out = append(out, p)
		}
		*into = out
		return r.Err()
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

// writeAccount decodes writeAccountColumns, which may be the null side of an outer join: ok says
// whether the row had an account.
func (r *rawRow) writeAccount() (a SocialAccount, ok bool) {
	if r.raw(r.col) == nil {
		r.skipN(writeAccountColumnCount)
		return SocialAccount{}, false
	}
	r.str(&a.ID)
	r.str(&a.OrganizationID)
	r.str(&a.TeamID)
	r.str(&a.Type)
	r.account(&a)
	r.timePtr(&a.DeletedAt)
	return a, true
}

// writeAccountColumnCount is how many columns writeAccountColumns names.
const writeAccountColumnCount = 4 + accountColumns + 1
