-- The change feed (0026) serves a transition only once every transaction older than it has
-- ended, anywhere in the cluster. A support login (a member of relay_support, 0005) could
-- `BEGIN; SELECT pg_current_xact_id();` and walk away, and every follower would be served
-- nothing. Support sessions therefore end a transaction left idle after a minute, and a
-- statement after two.
-- A role's settings apply to sessions that log in as that role, not to its members: they are
-- set on relay_support and on each login that is a member of it now. A login granted
-- relay_support later needs the same two lines:
--   ALTER ROLE alice SET idle_in_transaction_session_timeout = '1min';
--   ALTER ROLE alice SET statement_timeout = '2min';
-- Roles belong to the whole cluster: a setting a role has already (from another database's
-- migrate, or an operator's own choice) is left as it is, and a concurrent migrate of another
-- database that set it first is not an error. A migrating user without CREATEROLE, or a role
-- it may not alter, gets a notice. The relay's own role and superusers are left alone.
DO $$
DECLARE
    login record;
    limit_setting record;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'relay_support') THEN
        RAISE NOTICE 'role relay_support does not exist; no support session limits were set';
        RETURN;
    END IF;
    FOR login IN
        SELECT r.oid, r.rolname FROM pg_roles r
        WHERE r.rolname = 'relay_support'
           OR (r.rolcanlogin AND NOT r.rolsuper AND r.rolname <> current_user AND pg_has_role(r.oid, 'relay_support', 'MEMBER'))
        ORDER BY r.rolname
    LOOP
        FOR limit_setting IN
            SELECT * FROM (VALUES ('idle_in_transaction_session_timeout', '1min'), ('statement_timeout', '2min')) AS l (name, value)
            WHERE NOT EXISTS (SELECT FROM pg_db_role_setting s, unnest(s.setconfig) c
                              WHERE s.setrole = login.oid AND s.setdatabase = 0 AND c LIKE l.name || '=%')
        LOOP
            BEGIN
                EXECUTE format('ALTER ROLE %I SET %I = %L', login.rolname, limit_setting.name, limit_setting.value);
            EXCEPTION
                -- Another database's migrate set it at the same time, or the login was dropped meanwhile.
                WHEN unique_violation OR internal_error OR undefined_object THEN NULL;
                WHEN insufficient_privilege THEN
                    RAISE NOTICE 'role % was not given % = % (the migrating user may not alter it): set it by hand',
                        login.rolname, limit_setting.name, limit_setting.value;
            END;
        END LOOP;
    END LOOP;
END
$$;
