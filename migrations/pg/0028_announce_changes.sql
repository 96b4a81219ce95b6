-- PostgreSQL twin of migrations/0028_announce_changes.sql. Every statement that writes a table
-- sends a NOTIFY on di_changes with an empty payload, delivered at commit (never on rollback); the
-- same payload on the same channel is delivered once per transaction, so a transaction of any size
-- announces itself once. Each instance LISTENs, and drops what it cached when it hears one
-- (src/db/change-stamp.ts, src/db/sql/pg-changes.ts). A table added later gets the trigger in its
-- own migration: tests/db/schema-twins.test.ts fails for a table without it.
CREATE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('di_changes', '');
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename LOOP
    EXECUTE format(
      'CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION announce_change()',
      t
    );
  END LOOP;
END
$$;
