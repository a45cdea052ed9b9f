-- name: GetPost :one
-- A post of the organization, deleted ones included (GET answers them with status DELETED).
SELECT * FROM posts WHERE id = @id AND organization_id = @organization_id;

-- name: GetPostForUpdate :one
SELECT * FROM posts WHERE id = @id AND organization_id = @organization_id FOR UPDATE;

-- name: GetPostByReferenceKey :one
SELECT * FROM posts WHERE organization_id = @organization_id AND reference_key = @reference_key AND deleted_at IS NULL;

-- name: UpdatePost :one
UPDATE posts SET title = @title, reference_key = sqlc.narg('reference_key'), post_date = @post_date, status = @status,
    social_account_types = @social_account_types, data = @data, first_comment = sqlc.narg('first_comment'),
    counted_at = sqlc.narg('counted_at'), review_note = sqlc.narg('review_note'), error = sqlc.narg('error'),
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetPostStatus :one
UPDATE posts SET status = @status, error = sqlc.narg('error'), posted_date = sqlc.narg('posted_date'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: DeletePost :one
UPDATE posts SET status = 'DELETED', deleted_at = now(), updated_at = now() WHERE id = @id RETURNING *;

-- name: BumpPostRetry :one
UPDATE posts SET retry_count = retry_count + 1, status = 'SCHEDULED', error = NULL, posted_date = NULL, updated_at = now()
WHERE id = @id RETURNING *;

-- name: CountPostsSince :one
SELECT count(*) FROM posts WHERE organization_id = @organization_id AND counted_at >= @since;

-- name: LockOrganizationQuota :exec
SELECT pg_advisory_xact_lock(hashtextextended('quota:' || @organization_id::text, 0));

-- name: ReleasePostUploads :exec
UPDATE post_uploads SET deleted_at = now(), updated_at = now() WHERE post_id = @post_id AND deleted_at IS NULL;

-- name: ListPostUploadLinks :many
SELECT * FROM post_uploads WHERE post_id = ANY(@post_ids::uuid[]) AND deleted_at IS NULL ORDER BY created_at, upload_id;

-- name: ScheduledPostsUsing :many
-- The scheduled (or publishing) posts that use uploads: such uploads cannot be deleted.
SELECT pu.upload_id, p.id AS post_id FROM post_uploads pu JOIN posts p ON p.id = pu.post_id
WHERE p.organization_id = @organization_id AND pu.upload_id = ANY(@upload_ids::uuid[]) AND pu.deleted_at IS NULL
  AND p.deleted_at IS NULL AND p.status IN ('SCHEDULED', 'REVIEW', 'PROCESSING', 'RETRYING')
ORDER BY pu.upload_id, p.id;

-- name: ReconnectCandidates :many
SELECT p.*, count(*) OVER () AS total FROM posts p
WHERE p.organization_id = @organization_id AND p.team_id = @team_id AND p.deleted_at IS NULL
  AND @type::text = ANY(p.social_account_types) AND p.status IN ('SCHEDULED', 'ERROR', 'RETRYING', 'REVIEW', 'DRAFT')
  AND EXISTS (SELECT 1 FROM publish_targets t WHERE t.post_id = p.id AND t.kind = 'POST' AND t.network = @type::text
      AND (t.social_account_id IS DISTINCT FROM @account_id::uuid OR t.status = 'ERROR'))
ORDER BY p.post_date, p.id
LIMIT @lim OFFSET @off;

-- name: InsertComment :one
INSERT INTO comments (organization_id, team_id, created_by_id, internal_post_id, imported_post_id, internal_parent_comment_id,
    fetched_parent_comment_id, title, post_date, status, social_account_types, data, counted_at)
VALUES (@organization_id, @team_id, sqlc.narg('created_by_id'), sqlc.narg('internal_post_id'), sqlc.narg('imported_post_id'),
    sqlc.narg('internal_parent_comment_id'), sqlc.narg('fetched_parent_comment_id'), sqlc.narg('title'), @post_date, @status,
    @social_account_types, @data, sqlc.narg('counted_at'))
RETURNING *;

-- name: GetComment :one
SELECT * FROM comments WHERE id = @id AND organization_id = @organization_id;

-- name: GetCommentForUpdate :one
SELECT * FROM comments WHERE id = @id AND organization_id = @organization_id FOR UPDATE;

-- name: GetCommentByID :one
SELECT * FROM comments WHERE id = @id;

-- name: UpdateComment :one
UPDATE comments SET title = sqlc.narg('title'), post_date = @post_date, status = @status, social_account_types = @social_account_types,
    data = @data, counted_at = sqlc.narg('counted_at'), internal_post_id = sqlc.narg('internal_post_id'),
    internal_parent_comment_id = sqlc.narg('internal_parent_comment_id'), error = sqlc.narg('error'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetCommentStatus :one
UPDATE comments SET status = @status, error = sqlc.narg('error'), posted_date = sqlc.narg('posted_date'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: DeleteComment :one
UPDATE comments SET status = 'DELETED', deleted_at = now(), updated_at = now() WHERE id = @id RETURNING *;

-- name: ListComments :many
SELECT sqlc.embed(c), count(*) OVER () AS total FROM comments c
WHERE c.organization_id = @organization_id AND c.team_id = @team_id
  AND (sqlc.narg('post_id')::uuid IS NULL OR c.internal_post_id = sqlc.narg('post_id')::uuid)
  AND (sqlc.narg('imported_post_id')::text IS NULL OR c.imported_post_id = sqlc.narg('imported_post_id')::text)
  AND (sqlc.narg('status')::text IS NULL OR c.status = sqlc.narg('status')::text)
  AND (sqlc.narg('status')::text = 'DELETED' OR c.deleted_at IS NULL)
  AND (sqlc.narg('q')::text IS NULL OR c.title ILIKE '%' || sqlc.narg('q')::text || '%' OR c.data::text ILIKE '%' || sqlc.narg('q')::text || '%')
  AND (sqlc.narg('platforms')::text[] IS NULL OR c.social_account_types && sqlc.narg('platforms')::text[])
ORDER BY
  CASE WHEN @order_by::text = 'updatedAt' AND @descending::boolean THEN c.updated_at END DESC,
  CASE WHEN @order_by::text = 'updatedAt' AND NOT @descending::boolean THEN c.updated_at END ASC,
  CASE WHEN @order_by::text = 'deletedAt' AND @descending::boolean THEN c.deleted_at END DESC,
  CASE WHEN @order_by::text = 'deletedAt' AND NOT @descending::boolean THEN c.deleted_at END ASC,
  CASE WHEN @descending::boolean THEN c.created_at END DESC,
  CASE WHEN NOT @descending::boolean THEN c.created_at END ASC,
  c.id
LIMIT @lim OFFSET @off;

-- name: CountCommentsSince :one
SELECT count(*) FROM comments WHERE organization_id = @organization_id AND counted_at >= @since;

-- name: InsertTarget :one
INSERT INTO publish_targets (organization_id, kind, post_id, comment_id, network, social_account_id, status, payload, attempt_key, due_at)
VALUES (@organization_id, @kind, sqlc.narg('post_id'), sqlc.narg('comment_id'), @network, sqlc.narg('social_account_id'), @status,
    @payload, @attempt_key, sqlc.narg('due_at'))
RETURNING *;

-- name: ListPostTargets :many
SELECT * FROM publish_targets WHERE post_id = ANY(@post_ids::uuid[]) ORDER BY post_id, kind, network;

-- name: ListCommentTargets :many
SELECT * FROM publish_targets WHERE comment_id = ANY(@comment_ids::uuid[]) ORDER BY comment_id, network;

-- name: GetTargetForUpdate :one
SELECT * FROM publish_targets WHERE id = @id FOR UPDATE;

-- name: GetTarget :one
SELECT * FROM publish_targets WHERE id = @id;

-- name: DeleteTarget :exec
DELETE FROM publish_targets WHERE id = @id;

-- name: RescheduleTarget :one
-- A new schedule (or a retry): the version changes, so jobs already queued for the target are stale.
UPDATE publish_targets SET status = @status, version = version + 1, due_at = sqlc.narg('due_at'), payload = @payload,
    social_account_id = sqlc.narg('social_account_id'), error = NULL, error_verbose = NULL, next_attempt_at = NULL, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: StartAttempt :one
-- Records an attempt and moves its owner (post or comment, locked by the caller) to PROCESSING
-- when it is SCHEDULED or RETRYING, in one statement.
WITH started AS (
    UPDATE publish_targets t SET status = 'PROCESSING', attempts = t.attempts + 1, attempt_started_at = @started_at, updated_at = now()
    WHERE t.id = @id
    RETURNING t.*
), post_owner AS (
    UPDATE posts p SET status = 'PROCESSING', updated_at = now()
    WHERE p.id = (SELECT s.post_id FROM started s) AND p.status IN ('SCHEDULED', 'RETRYING')
), comment_owner AS (
    UPDATE comments c SET status = 'PROCESSING', updated_at = now()
    WHERE c.id = (SELECT s.comment_id FROM started s) AND c.status IN ('SCHEDULED', 'RETRYING')
)
SELECT * FROM started;

-- name: TargetPosted :one
UPDATE publish_targets SET status = 'POSTED', attempt_started_at = NULL, outcome_unknown = false, external_id = @external_id,
    permalink = sqlc.narg('permalink'), extra = sqlc.narg('extra'), posted_at = @posted_at, error = NULL, error_verbose = NULL,
    next_attempt_at = NULL, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: TargetFailed :one
-- RETRYING (next_attempt_at set) or ERROR; outcome_unknown says whether the failed call may still
-- have landed (the next attempt reconciles first).
UPDATE publish_targets SET status = @status, attempt_started_at = NULL, outcome_unknown = @outcome_unknown, error = @error,
    error_verbose = @error_verbose, next_attempt_at = sqlc.narg('next_attempt_at'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: TargetWaiting :one
-- The network is still processing (app.ErrProcessing): the attempt ends without a failure and is
-- not counted; the target stays PROCESSING and runs again at next_attempt_at, resuming from its
-- checkpoints. crier.processingSince (kept from the first wait) bounds how long it may wait.
UPDATE publish_targets SET attempts = greatest(attempts - 1, 0), attempt_started_at = NULL, outcome_unknown = false,
    next_attempt_at = @next_attempt_at, checkpoints = jsonb_build_object('crier.processingSince', @since::text) || checkpoints,
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetTargetStatus :one
UPDATE publish_targets SET status = @status, version = version + 1, updated_at = now() WHERE id = @id RETURNING *;

-- name: ReleaseFirstComments :many
UPDATE publish_targets SET status = 'SCHEDULED', due_at = now(), version = version + 1, updated_at = now()
WHERE post_id = @post_id AND kind = 'FIRST_COMMENT' AND network = @network AND status = 'WAITING'
RETURNING *;

-- name: CountAccountTargetsOnDay :one
-- What an account publishes on a UTC day: targets due that day that are or will be published.
SELECT count(*) FROM publish_targets
WHERE social_account_id = @social_account_id AND kind = ANY(@kinds::text[]) AND due_at >= @day_from AND due_at < @day_to
  AND (status IN ('SCHEDULED', 'PROCESSING', 'RETRYING', 'POSTED') OR posted_at IS NOT NULL)
  AND (sqlc.narg('except_post')::uuid IS NULL OR post_id IS DISTINCT FROM sqlc.narg('except_post')::uuid)
  AND (sqlc.narg('except_comment')::uuid IS NULL OR comment_id IS DISTINCT FROM sqlc.narg('except_comment')::uuid);

-- name: SetTargetAccount :one
UPDATE publish_targets SET social_account_id = @social_account_id, updated_at = now() WHERE id = @id RETURNING *;

-- name: LockPostByID :one
-- The post, locked, with its organization's showVerboseErrors (what its event's view needs).
SELECT sqlc.embed(p), o.show_verbose_errors FROM posts p JOIN organizations o ON o.id = p.organization_id
WHERE p.id = @id FOR UPDATE OF p;

-- name: LockCommentByID :one
SELECT * FROM comments WHERE id = @id FOR UPDATE;

-- name: UploadsOf :many
-- Live uploads of the organization among ids (for validation and publishing; no lock).
SELECT * FROM uploads WHERE organization_id = @organization_id AND deleted_at IS NULL AND id::text = ANY(@ids::text[]);

-- name: AbandonAttempt :execrows
-- A worker interrupted mid-call (shutdown, cancel) closes its attempt: no worker runs it any more,
-- but the call may have reached the network, so the next attempt reconciles first.
UPDATE publish_targets SET attempt_started_at = NULL, outcome_unknown = true, status = 'RETRYING', updated_at = now()
WHERE id = @id AND attempt_started_at = @started_at;
