-- Upload names (issue 16): the name the user's file had (the dashboard's and POST /upload's file
-- part, /upload/init's fileName) or the last segment of a from-url address; people rename them in
-- the library. Not part of the API's Upload record (the spec has no such field). Rows from before
-- have none: the library shows their type instead. 255 characters, a file system's usual bound.
ALTER TABLE uploads ADD COLUMN name text CHECK (char_length(name) BETWEEN 1 AND 255);
-- A signed-URL upload's fileName, kept until finalize or complete records the upload.
ALTER TABLE upload_sessions ADD COLUMN file_name text CHECK (char_length(file_name) BETWEEN 1 AND 255);

-- A post that publishes after a failure resolves its failed-publish notifications: found by post.
CREATE INDEX notifications_post_failed_idx ON notifications (organization_id, (data ->> 'postId'))
    WHERE type = 'POST_FAILED';

---- create above / drop below ----

DROP INDEX notifications_post_failed_idx;
ALTER TABLE upload_sessions DROP COLUMN file_name;
ALTER TABLE uploads DROP COLUMN name;
