-- name: ReplaceMastodonServerApp :one
-- A server that forgot Crier's app gets a new registration under the same row (accounts keep it).
UPDATE mastodon_servers SET client_id = @client_id, client_secret_enc = @client_secret_enc
WHERE id = @id
RETURNING *;
