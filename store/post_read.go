package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Batcher sends several statements in one round trip (a pool, a connection or a transaction).
type Batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// PostReads is what posts' records are built from.
type PostReads struct {
	Posts             []Post // in no particular order; absent ids are not there
	ShowVerboseErrors bool
	TeamLive          bool // TeamID of the call is a live team of the organization (when asked)
	Targets           []PublishTarget
	UploadLinks       []PostUpload
	Uploads           []Upload
	Accounts          []SocialAccount
}

// ReadPosts reads the organization's posts among ids with their targets and, with links, their
// upload links, uploads and their teams' accounts — the queries of post_read.sql, pipelined in one
// batch: one round trip instead of six. teamID, when set, is checked to be a live team of the
// organization (TeamLive).
func ReadPosts(ctx context.Context, db Batcher, orgID string, ids []string, links bool, teamID string) (PostReads, error) {
	var out PostReads
	b := &pgx.Batch{}
	many := func(sql string, into func(pgx.Rows) error, args ...any) {
		b.Queue(sql, args...).Query(func(rows pgx.Rows) error { return into(rows) })
	}
	many(readPostsOfOrg, collect(&out.Posts), orgID, ids)
	b.Queue(readOrgShowVerboseErrors, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.ShowVerboseErrors) })
	if teamID != "" {
		b.Queue(readTeamLive, teamID, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.TeamLive) })
	}
	many(readPostTargets, collect(&out.Targets), orgID, ids)
	if links {
		many(readPostUploadLinks, collect(&out.UploadLinks), orgID, ids)
		many(readPostUploads, collect(&out.Uploads), orgID, ids)
		many(readPostAccounts, collect(&out.Accounts), orgID, ids)
	}
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostReads{}, fmt.Errorf("store: read posts: %w", err)
	}
	return out, nil
}

// collect scans every row into a model by column position: the queries select * of the model's
// table, whose columns sqlc's models follow in order.
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

// ReadTeam reads a team of the organization, the organization, its creator and the team's live
// accounts (team_read.sql) in one round trip.
func ReadTeam(ctx context.Context, db Batcher, orgID, teamID string) (TeamReads, error) {
	var out TeamReads
	b := &pgx.Batch{}
	b.Queue(readTeamOfOrg, teamID, orgID).Query(collect(&out.Team))
	b.Queue(readLiveOrganization, orgID).Query(collect(&out.Organization))
	b.Queue(readOrganizationCreator, orgID).Query(collect(&out.Creator))
	b.Queue(readTeamAccounts, orgID, teamID).Query(collect(&out.Accounts))
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return TeamReads{}, fmt.Errorf("store: read team: %w", err)
	}
	return out, nil
}
