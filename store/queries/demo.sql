-- The development demo's reads and writes that no user operation makes (app/demo*.go).

-- name: DemoLatestMail :one
-- The demo reads its own mails (verification, invitation) as a dev mailbox would, to follow the link.
SELECT text_body FROM mail_outbox WHERE lower(to_address) = lower(@to_address) AND kind = @kind
ORDER BY created_at DESC LIMIT 1;

-- name: DemoBackdatePost :exec
-- The demo's history: a post the pipeline just published shows on an earlier day of the calendar.
UPDATE posts SET post_date = @at, posted_date = @at, created_at = LEAST(created_at, @at)
WHERE id = @id AND status = 'POSTED';

-- name: DemoCountTeamPosts :one
SELECT count(*) FROM posts WHERE team_id = @team_id AND deleted_at IS NULL;
