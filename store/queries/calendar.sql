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

-- name: ListCalendarDays :many
-- The month view: per local day (in the viewer's zone, tz), the first per_day posts and how many
-- the day holds, so a busy month reads three entries a day, not every post. A post stands at its
-- posting time once POSTED, else at its date (as the calendar places it).
SELECT r.id, r.title, r.status, r.post_date, r.posted_date, r.day_total::bigint AS day_total,
       coalesce((SELECT array_agg(t.network ORDER BY t.network) FROM publish_targets t
                 WHERE t.post_id = r.id AND t.kind = 'POST'), r.social_account_types)::text[] AS networks
FROM (
  SELECT p.id, p.title, p.status, p.post_date, p.posted_date, p.social_account_types, p.at,
         row_number() OVER (PARTITION BY (p.at AT TIME ZONE @tz::text)::date ORDER BY p.at, p.id) AS rn,
         count(*) OVER (PARTITION BY (p.at AT TIME ZONE @tz::text)::date) AS day_total
  FROM (
    SELECT c.id, c.title, c.status, c.post_date, c.posted_date, c.social_account_types,
           CASE WHEN c.status = 'POSTED' AND c.posted_date IS NOT NULL THEN c.posted_date ELSE c.post_date END AS at
    FROM posts c
    WHERE c.organization_id = @organization_id AND c.team_id = @team_id AND c.deleted_at IS NULL
      AND c.status <> 'DELETED' AND c.post_date >= @post_date_from AND c.post_date < @post_date_to
  ) p
) r
WHERE r.rn <= @per_day::bigint
ORDER BY r.at, r.id;
