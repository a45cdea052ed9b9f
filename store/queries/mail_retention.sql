-- name: ListOutboxMailOf :many
-- The dev mailbox of one user: mail for them (by id, or to their address once it is verified), and
-- the invitations their organization sent when they may manage invitations.
SELECT * FROM mail_outbox
WHERE user_id = @user_id
   OR (@email_verified::boolean AND lower(to_address) = lower(@email::text))
   OR (@see_invitations::boolean AND organization_id = @organization_id AND kind = 'invitation')
ORDER BY created_at DESC, id DESC LIMIT @lim;

-- name: PurgeOutboxMailBodies :execrows
-- Clears the bodies of mail past its retention (its link has expired).
UPDATE mail_outbox SET text_body = '', html_body = ''
WHERE purge_at <= @now AND (text_body <> '' OR html_body <> '');
