-- name: ListCalendarPosts :many
-- A team's live posts dated in [from, to), in time order, at most lim: what an entry shows (title,
-- time, status) and its networks (its POST targets', by name, else the networks it was written for).
SELECT p.id, p.title, p.status, p.post_date, p.posted_date,
       coalesce((SELECT array_agg(t.network ORDER BY t.network) FROM publish_targets t
                 WHERE t.post_id = p.id AND t.kind = 'POST'), p.social_account_types)::text[] AS networks
FROM posts p
WHERE p.organization_id = @organization_id AND p.team_id = @team_id AND p.deleted_at IS NULL
  AND p.status <> 'DELETED' AND p.post_date >= @post_date_from AND p.post_date < @post_date_to
ORDER BY p.post_date, p.id
LIMIT @lim;
