package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Batcher sends several statements in one round trip (a pool, a connection or a transaction).
type Batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// PostReads is what posts' records are built from. Its rows hold the columns a record shows (the
// queries of post_read.sql name them): a target has no payload, checkpoints or lease, an account no
// tokens, a post no created_by_id or counted_at, an upload no created_by_id or purged_at.
type PostReads struct {
	Posts             []Post // in no particular order; absent ids are not there
	ShowVerboseErrors bool
	TeamLive          bool // TeamID of the call is a live team of the organization (when asked)
	Targets           []PublishTarget
	UploadLinks       []PostUpload    // links to live uploads only, in order
	Uploads           []Upload        // those uploads
	Accounts          []SocialAccount // with links: the live accounts of the posts' teams that targets name
}

// ReadPosts reads the organization's posts among ids with their targets and, with links, their
// upload links, uploads and the live accounts of their teams that their targets name (read with
// the targets) — the queries of post_read.sql, pipelined in one batch: one round trip and three
// statements instead of six round trips. teamID, when set, is
// checked to be a live team of the organization (TeamLive). Rows are scanned by hand, column by
// column: pgx's struct scanning reflected over every row (issue 15).
func ReadPosts(ctx context.Context, db Batcher, orgID string, ids []string, links bool, teamID string) (PostReads, error) {
	var out PostReads
	// The ids go four times to PostgreSQL: encoded once as binary uuids, not parsed from text each
	// time (one that does not parse is sent as text, for PostgreSQL's own answer to it).
	var idArg any = ids
	if u, ok := uuids(ids); ok {
		idArg = u
	}
	b := &pgx.Batch{}
	// Slices are sized for what a page usually holds (a post and two targets per id), not grown.
	b.Queue(readPostsOfOrg, orgID, idArg).Query(func(rows pgx.Rows) error {
		out.Posts = make([]Post, 0, len(ids))
		for rows.Next() {
			var p Post
			if err := rows.Scan(&p.ID, &p.OrganizationID, &p.TeamID, &p.Title, &p.ReferenceKey, &p.PostDate, &p.PostedDate, &p.Status,
				&p.SocialAccountTypes, &p.Data, &p.FirstComment, &p.Error, &p.ReviewNote, &p.RetryCount, &p.CreatedAt, &p.UpdatedAt,
				&p.DeletedAt, &out.ShowVerboseErrors); err != nil {
				return err
			}
			out.Posts = append(out.Posts, p)
		}
		return rows.Err()
	})
	if len(ids) == 0 {
		b.Queue(readOrgShowVerboseErrors, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.ShowVerboseErrors) })
	}
	if teamID != "" {
		b.Queue(readTeamLive, teamID, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.TeamLive) })
	}
	b.Queue(readPostTargets, orgID, idArg).Query(func(rows pgx.Rows) error {
		out.Targets = make([]PublishTarget, 0, 2*len(ids))
		var t PublishTarget
		var a SocialAccount
		// The account's side of the outer join: its columns that are never null when it is there.
		var accountID, teamID, accountType, messaging *string
		var accountCreated, accountUpdated *time.Time
		dest := []any{&t.ID, &t.Kind, &t.PostID, &t.Network, &t.SocialAccountID, &t.Status, &t.Attempts, &t.NextAttemptAt,
			&t.ExternalID, &t.Permalink, &t.Error, &t.ErrorVerbose, &t.PostedAt, &t.CreatedAt, &t.UpdatedAt,
			&accountID, &teamID, &accountType, &a.Username, &a.DisplayName, &a.Bio, &a.AvatarUrl,
			&a.ExternalID, &a.ProviderPageID, &a.UserUsername, &a.UserDisplayName, &a.UserEmail, &a.UserID, &a.Channels,
			&a.MastodonServerID, &a.InstagramConnectionMethod, &a.TwitterSubType, &a.IsTiktokBusinessAccount,
			&a.DisconnectedCheckTryAt, &a.DeleteOn, &messaging, &a.MessagingStatusUpdatedAt, &a.MessagingLastError,
			&a.ReconnectRequiredAt, &a.LastError, &accountCreated, &accountUpdated}
		const accountAt = 15 // the account's first column
		accountDest := append([]any(nil), dest[accountAt:]...)
		seen := map[string]bool{}
		for rows.Next() {
			// Fresh values every row (a scan may reuse a []byte it finds), and an account's columns
			// decoded only the first time it comes: a page's targets name the same few (nil skips).
			t, a = PublishTarget{OrganizationID: orgID}, SocialAccount{}
			raw := rows.RawValues()[accountAt]
			fresh := links && raw != nil && !seen[string(raw)]
			for i := range accountDest {
				dest[accountAt+i] = nil
				if fresh {
					dest[accountAt+i] = accountDest[i]
				}
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			out.Targets = append(out.Targets, t)
			if fresh {
				seen[string(raw)] = true
				a.ID, a.OrganizationID, a.TeamID, a.Type, a.MessagingStatus = *accountID, orgID, *teamID, *accountType, *messaging
				a.CreatedAt, a.UpdatedAt = *accountCreated, *accountUpdated
				out.Accounts = append(out.Accounts, a)
			}
		}
		return rows.Err()
	})
	if links {
		b.Queue(readPostUploadLinks, orgID, idArg).Query(func(rows pgx.Rows) error {
			out.UploadLinks, out.Uploads = make([]PostUpload, 0, len(ids)), make([]Upload, 0, len(ids))
			for rows.Next() {
				var l PostUpload
				var u Upload
				if err := rows.Scan(&l.PostID, &l.UploadID, &l.CreatedAt, &l.UpdatedAt, &l.DeletedAt,
					&u.OrganizationID, &u.TeamID, &u.Type, &u.Name, &u.Mime, &u.Ext, &u.Path, &u.ThumbnailPath, &u.IconPath,
					&u.ExternalLink, &u.Width, &u.Height, &u.FileSize, &u.VideoLength, &u.CreatedAt, &u.UpdatedAt); err != nil {
					return err
				}
				u.ID = l.UploadID // live uploads only: DeletedAt stays nil
				out.UploadLinks, out.Uploads = append(out.UploadLinks, l), append(out.Uploads, u)
			}
			return rows.Err()
		})
	}
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostReads{}, fmt.Errorf("store: read posts: %w", err)
	}
	return out, nil
}

// uuids parses ids as uuids, for binary parameters; false when one is not a uuid.
func uuids(ids []string) (pgtype.FlatArray[pgtype.UUID], bool) {
	out := make(pgtype.FlatArray[pgtype.UUID], len(ids))
	for i, id := range ids {
		if err := out[i].Scan(id); err != nil {
			return nil, false
		}
	}
	return out, true
}

// collect scans every row into a model by column position: the queries select * of the model's
// table(s), whose columns sqlc's models follow in order (embedded models are flattened).
func collect[T any](into *[]T) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[T])
		if err != nil {
			return err
		}
		*into = got
		return nil
	}
}

// TeamReads is what GET team's record is built from; a slice is empty when its row is absent.
type TeamReads struct {
	Team         []Team
	Organization []Organization
	Creator      []User
	Accounts     []SocialAccount
}

// ReadTeam reads a team of the organization, the organization while live, its creator while not
// deleted and the team's live accounts (team_read.sql) in one statement, scanned by hand.
func ReadTeam(ctx context.Context, db DBTX, orgID, teamID string) (TeamReads, error) {
	var out TeamReads
	rows, err := db.Query(ctx, readTeamRecord, teamID, orgID)
	if err != nil {
		return TeamReads{}, fmt.Errorf("store: read team: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t Team
		var o Organization
		var u User
		var a SocialAccount
		// The nullable sides of the outer joins: the creator and the account.
		var userID, email, accountID, accountType, messaging *string
		var userCreated, userUpdated, accountCreated, accountUpdated *time.Time
		if err := rows.Scan(&t.ID, &t.OrganizationID, &t.CreatedByID, &t.Name, &t.AvatarUrl, &t.CreatedAt, &t.UpdatedAt, &t.DeletedAt,
			&o.ID, &o.CreatedByID, &o.Name, &o.AvatarUrl, &o.Ref, &o.Plan, &o.ApiAccess, &o.Suspended, &o.AnalyticsDisabled,
			&o.AnalyticsPostsDisabled, &o.UploadsCompressionEnabled, &o.ShowVerboseErrors, &o.DisconnectCheckEnabled,
			&o.DeleteAccountAfter, &o.PortalBrandName, &o.PortalLogoUrl, &o.PortalAccentColor, &o.CreatedAt, &o.UpdatedAt, &o.DeletedAt,
			&userID, &email, &u.FirstName, &u.LastName, &u.AvatarUrl, &u.Timezone, &u.EmailVerifiedAt, &u.OnboardedAt,
			&userCreated, &userUpdated, &u.DeletedAt,
			&accountID, &accountType, &a.Username, &a.DisplayName, &a.Bio, &a.AvatarUrl, &a.ExternalID, &a.ProviderPageID,
			&a.UserUsername, &a.UserDisplayName, &a.UserEmail, &a.UserID, &a.Channels, &a.MastodonServerID,
			&a.InstagramConnectionMethod, &a.TwitterSubType, &a.IsTiktokBusinessAccount, &a.DisconnectedCheckTryAt, &a.DeleteOn,
			&messaging, &a.MessagingStatusUpdatedAt, &a.MessagingLastError, &a.ReconnectRequiredAt, &a.LastError,
			&accountCreated, &accountUpdated); err != nil {
			return TeamReads{}, fmt.Errorf("store: read team: %w", err)
		}
		if out.Team == nil { // the team, organization and creator repeat on every row
			out.Team = []Team{t}
			if o.DeletedAt == nil {
				out.Organization = []Organization{o}
			}
			if userID != nil {
				u.ID, u.Email, u.CreatedAt, u.UpdatedAt = *userID, *email, *userCreated, *userUpdated
				out.Creator = []User{u}
			}
		}
		if accountID != nil {
			a.ID, a.OrganizationID, a.TeamID, a.Type, a.MessagingStatus = *accountID, t.OrganizationID, t.ID, *accountType, *messaging
			a.CreatedAt, a.UpdatedAt = *accountCreated, *accountUpdated
			out.Accounts = append(out.Accounts, a)
		}
	}
	if err := rows.Err(); err != nil {
		return TeamReads{}, fmt.Errorf("store: read team: %w", err)
	}
	return out, nil
}

// ReadTeamAccounts answers, in one round trip, whether teamID is a live team of the organization
// and the team's live accounts (what creating a post checks first).
func ReadTeamAccounts(ctx context.Context, db Batcher, orgID, teamID string) (live bool, accounts []SocialAccount, err error) {
	b := &pgx.Batch{}
	b.Queue(readTeamLive, teamID, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&live) })
	b.Queue(readTeamAccounts, orgID, teamID).Query(collect(&accounts))
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return false, nil, fmt.Errorf("store: read team accounts: %w", err)
	}
	return live, accounts, nil
}

// ReadPostForUpdate locks the organization's post id (none: post is empty) and reads its team's
// live accounts, in one round trip (what editing a post reads first).
func ReadPostForUpdate(ctx context.Context, db Batcher, orgID, id string) (post []Post, accounts []SocialAccount, err error) {
	b := &pgx.Batch{}
	b.Queue(readPostForUpdate, id, orgID).Query(collect(&post))
	b.Queue(readPostTeamAccounts, orgID, id).Query(collect(&accounts))
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, fmt.Errorf("store: read post for update: %w", err)
	}
	return post, accounts, nil
}
