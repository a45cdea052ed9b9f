-- The outbox keeps a mail's bodies (which carry live verify/reset/invite links) only while they may
-- be needed: purge_at is when they are cleared (at the latest when the mail's token expires; a sent
-- mail is cleared at once). user_id and organization_id say whose mail it is, so the dev mailbox
-- shows a user only their own mail and their organization's invitations.
ALTER TABLE mail_outbox
    ADD COLUMN user_id         uuid REFERENCES users (id) ON DELETE SET NULL,
    ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL,
    ADD COLUMN purge_at        timestamptz;
-- Rows from before: the longest token (an invitation) lives 7 days.
UPDATE mail_outbox SET purge_at = created_at + interval '7 days';
UPDATE mail_outbox SET text_body = '', html_body = '' WHERE sent_at IS NOT NULL OR purge_at <= now();
ALTER TABLE mail_outbox ALTER COLUMN purge_at SET NOT NULL;
CREATE INDEX mail_outbox_purge_idx ON mail_outbox (purge_at) WHERE text_body <> '' OR html_body <> '';

---- create above / drop below ----

DROP INDEX mail_outbox_purge_idx;
ALTER TABLE mail_outbox DROP COLUMN purge_at, DROP COLUMN organization_id, DROP COLUMN user_id;
