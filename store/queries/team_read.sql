-- The reads behind GET team, sent together in one round trip by store.ReadTeam.

-- name: ReadTeamOfOrg :many
SELECT * FROM teams WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL;

-- name: ReadLiveOrganization :many
SELECT * FROM organizations WHERE id = @id AND deleted_at IS NULL;

-- name: ReadOrganizationCreator :many
-- The organization's creator while not deleted (the record shows a deleted one by id only).
SELECT u.* FROM users u JOIN organizations o ON o.created_by_id = u.id WHERE o.id = @id AND u.deleted_at IS NULL;

-- name: ReadTeamAccounts :many
SELECT * FROM social_accounts WHERE organization_id = @organization_id AND team_id = @team_id AND deleted_at IS NULL
ORDER BY created_at, id;
