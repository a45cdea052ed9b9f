-- An edit's optimistic check (store.ErrPostChanged): post_unchanged(ok) raises SQLSTATE CR409 when
-- what the edit read has changed since, which undoes the write batch the check begins.
CREATE FUNCTION post_unchanged(ok boolean) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'the post changed since the edit read it' USING ERRCODE = 'CR409';
    END IF;
    RETURN true;
END $$;

---- create above / drop below ----

DROP FUNCTION post_unchanged(boolean);
