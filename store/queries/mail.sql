-- name: InsertOutboxMail :one
INSERT INTO mail_outbox (to_address, subject, text_body, html_body, kind, user_id, organization_id, purge_at)
VALUES (@to_address, @subject, @text_body, @html_body, @kind, sqlc.narg(user_id), sqlc.narg(organization_id), @purge_at)
RETURNING id;

-- name: GetOutboxMail :one
SELECT * FROM mail_outbox WHERE id = @id;

-- name: ListOutboxMail :many
SELECT * FROM mail_outbox ORDER BY created_at DESC, id DESC LIMIT @lim;

-- name: MarkOutboxMailSent :exec
-- A sent mail's bodies (live links) are no longer kept: the recipient has them.
UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL, text_body = '', html_body = '' WHERE id = @id;

-- name: MarkOutboxMailFailed :exec
UPDATE mail_outbox SET attempts = attempts + 1, last_error = @last_error WHERE id = @id;

-- name: InsertUserToken :exec
INSERT INTO user_tokens (user_id, purpose, email, token_hash, created_at, expires_at)
VALUES (@user_id, @purpose, @email, @token_hash, @created_at, @expires_at);

-- name: GetUserTokenForUpdate :one
SELECT * FROM user_tokens WHERE token_hash = @token_hash AND purpose = @purpose FOR UPDATE;

-- name: LastUserTokenAt :one
-- When the user was last sent a token of this purpose (throttling); the epoch if never.
SELECT coalesce(max(created_at), 'epoch'::timestamptz)::timestamptz AS last_at FROM user_tokens WHERE user_id = @user_id AND purpose = @purpose;

-- name: UseUserTokens :exec
-- Marks every open token of the user and purpose used: one success ends the other links too.
UPDATE user_tokens SET used_at = @used_at WHERE user_id = @user_id AND purpose = @purpose AND used_at IS NULL;

-- name: LockUser :one
SELECT id FROM users WHERE id = @id AND deleted_at IS NULL FOR UPDATE;

-- name: SetEmailVerified :execrows
-- Only while the address is still the one the token was mailed to.
UPDATE users SET email_verified_at = coalesce(email_verified_at, @verified_at), updated_at = now()
WHERE id = @id AND lower(email) = lower(@email) AND deleted_at IS NULL;

-- name: CreateVerifiedUser :one
INSERT INTO users (email, password_hash, first_name, last_name, email_verified_at)
VALUES (@email, @password_hash, @first_name, sqlc.narg('last_name'), @email_verified_at)
RETURNING *;
