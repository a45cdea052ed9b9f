-- The publish worker's fast path (app/publishing publish_target.go): each statement locks the post
-- before the target, as the locked path does, so both keep one lock order.

-- name: StartPostAttempt :one
-- tx1 in one statement for a post's target: lock the post, then start the attempt only when the
-- job's version is current, the post is not deleted, the target is open, no other attempt holds
-- the lease (attempt_started_at at or before @lease_before) and its account exists; the post moves
-- to PROCESSING. An attempt a dead worker left open (attempt_started_at set, lease over) is one
-- whose outcome is unknown: outcome_unknown records it, and the worker reconciles. Answers the
-- started target with its account. No row: nothing was written, and the locked path decides
-- (stale job, lease in flight, no account, …).
WITH p AS MATERIALIZED (
    SELECT po.id FROM posts po WHERE po.id = @post_id AND po.deleted_at IS NULL FOR UPDATE
), started AS (
    UPDATE publish_targets t SET status = 'PROCESSING', attempts = t.attempts + 1, attempt_started_at = @started_at,
        outcome_unknown = t.outcome_unknown OR t.attempt_started_at IS NOT NULL, updated_at = now()
    FROM p
    WHERE t.id = @id AND t.post_id = p.id AND t.version = @version
      AND t.status IN ('SCHEDULED', 'RETRYING', 'PROCESSING')
      AND (t.attempt_started_at IS NULL OR t.attempt_started_at <= @lease_before)
      -- The account exists, live, in the target's organization: a scalar subquery, probed by primary
      -- key (as EXISTS, the planner made it a join scanning every live account of the (team, type)
      -- index while social_accounts had no statistics yet).
      AND (SELECT a.organization_id = t.organization_id AND a.deleted_at IS NULL FROM social_accounts a WHERE a.id = t.social_account_id)
    RETURNING t.*
), post_owner AS (
    UPDATE posts po SET status = 'PROCESSING', updated_at = now()
    WHERE po.id = (SELECT s.post_id FROM started s) AND po.status IN ('SCHEDULED', 'RETRYING')
)
SELECT s.*, sqlc.embed(a) FROM started s JOIN social_accounts a ON a.id = s.social_account_id;

-- name: PostTargetPosted :many
-- tx2's statement for a post's target published, once the post is locked (store.PostTargetPostedLocked's
-- first statement, of its own so that this one's snapshot is taken after the lock and sees what
-- the worker that held it committed): record the target POSTED, with the attempt's checkpoints no
-- network call followed (@keys and @vals, pairwise, as SaveCheckpoints; empty: none — in the same
-- UPDATE, as a second update of the row in this transaction would check its foreign keys again,
-- locking the organization's row among others) and answer every target of the post (the posted
-- one as written, `this`) with the post's status, deletion and organization's showVerboseErrors,
-- which settling it needs.
WITH p AS (
    SELECT po.id, po.status, po.deleted_at, o.show_verbose_errors FROM posts po JOIN organizations o ON o.id = po.organization_id
    WHERE po.id = @post_id
), posted AS (
    UPDATE publish_targets t SET status = 'POSTED', attempt_started_at = NULL, outcome_unknown = false, external_id = @external_id,
        permalink = sqlc.narg('permalink'), extra = sqlc.narg('extra'), posted_at = @posted_at, error = NULL, error_verbose = NULL,
        next_attempt_at = NULL, checkpoints = t.checkpoints || jsonb_object(@keys::text[], @vals::text[]), updated_at = now()
    WHERE t.id = @id AND t.post_id = @post_id
    RETURNING t.*
), targets AS (
    SELECT posted.*, true AS this FROM posted
    UNION ALL
    SELECT t.*, false AS this FROM publish_targets t WHERE t.post_id = @post_id AND t.id <> @id
)
SELECT targets.*, p.status AS post_status, p.deleted_at AS post_deleted_at, p.show_verbose_errors
FROM targets CROSS JOIN p
ORDER BY targets.kind, targets.network;
