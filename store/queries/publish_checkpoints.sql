-- name: SaveCheckpoints :execrows
-- An attempt's pending checkpoints in one statement (keys and values pairwise, a later key wins),
-- before the adapter's next network call or with the attempt's outcome.
UPDATE publish_targets SET checkpoints = checkpoints || jsonb_object(@keys::text[], @vals::text[]), updated_at = now()
WHERE id = @id;
