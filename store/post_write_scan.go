package store

import "github.com/jackc/pgx/v5"

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
