-- API keys are answered from a short-lived in-memory cache (app/keycache.go). These triggers tell
-- every instance (LISTEN crier_auth) when what a key resolves to may have changed — a key rolled,
-- revoked or renamed, a member's role changed or removed, an organization deleted, suspended or cut
-- off the API, a user deleted — so each drops its entries at once. The payload is the organization
-- id, or '*' (a user: any organization). Notifications are sent at commit and deduplicated per
-- transaction, so revoking all of an organization's keys sends one.
CREATE FUNCTION crier_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('crier_auth', '*');
    ELSIF TG_TABLE_NAME = 'organizations' THEN
        PERFORM pg_notify('crier_auth', r.id::text);
    ELSE
        PERFORM pg_notify('crier_auth', r.organization_id::text);
    END IF;
    RETURN NULL;
END $$;

-- Only the columns a key's principal depends on: the minute-granular lastUsedAt writes stay silent.
CREATE TRIGGER api_keys_auth_notify AFTER UPDATE OF prefix, secret_hash, revoked_at, name, membership_id, organization_id OR DELETE
    ON api_keys FOR EACH ROW EXECUTE FUNCTION crier_auth_notify();
CREATE TRIGGER memberships_auth_notify AFTER UPDATE OF role, user_id, organization_id OR DELETE
    ON memberships FOR EACH ROW EXECUTE FUNCTION crier_auth_notify();
CREATE TRIGGER organizations_auth_notify AFTER UPDATE OF deleted_at, suspended, api_access OR DELETE
    ON organizations FOR EACH ROW EXECUTE FUNCTION crier_auth_notify();
CREATE TRIGGER users_auth_notify AFTER UPDATE OF deleted_at OR DELETE
    ON users FOR EACH ROW EXECUTE FUNCTION crier_auth_notify();

---- create above / drop below ----

DROP TRIGGER users_auth_notify ON users;
DROP TRIGGER organizations_auth_notify ON organizations;
DROP TRIGGER memberships_auth_notify ON memberships;
DROP TRIGGER api_keys_auth_notify ON api_keys;
DROP FUNCTION crier_auth_notify();
