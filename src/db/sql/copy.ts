// Copies an embedded install's SQLite database, every table and row, into a new PostgreSQL
// database migrated to the same version (`design-intel migrate-to`). One PostgreSQL transaction:
// the target ends up with all of it or none of it. Tables go parents first; the few references
// that form a loop (a user's last workspace, a workspace's personal user) are written NULL, then
// set once every row is in. Triggers that make rows on insert (a user's personal workspace, a
// site's home page) are off during the copy, since those rows are copied too.
import type { SqlDb } from "./handle";

export interface TableCopy {
  table: string;
  rows: number;
}

interface PgColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_identity: string;
  is_nullable: string;
}

interface ForeignKey {
  table: string;
  from: string;
}

const NAME = /^[a-z_][a-z0-9_]*$/;
const q = (name: string) => {
  if (!NAME.test(name)) throw new Error(`migrate-to: unexpected table or column name "${name}"`);
  return name;
};

/** PostgreSQL takes at most 65 535 parameters a statement. */
const MAX_PARAMS = 30_000;

export async function copySqliteToPostgres(
  from: SqlDb,
  to: SqlDb,
  opts: { onTable?: (copy: TableCopy) => void } = {},
): Promise<TableCopy[]> {
  if (from.dialect.name !== "sqlite" || to.dialect.name !== "postgres") throw new Error("migrate-to copies SQLite into PostgreSQL");
  const version = async (db: SqlDb) => (await db.one<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_migrations"))?.v ?? 0;
  const [vFrom, vTo] = [await version(from), await version(to)];
  if (vFrom !== vTo) throw new Error(`the two databases are at different schema versions (${vFrom} and ${vTo})`);

  const tables = (
    await from.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name",
    )
  ).map((t) => q(t.name));
  const pgColumns = await to.all<PgColumn>(
    "SELECT table_name, column_name, data_type, is_identity, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()",
  );
  const columnsOf = (table: string) => pgColumns.filter((c) => c.table_name === table);
  // Columns that own a sequence: identities, and the jobs claim's counter (migrations/pg/0026).
  const numbered = new Set(
    (
      await to.all<{ t: string; c: string }>(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns
          WHERE table_schema = current_schema() AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
      )
    ).map((r) => `${r.t}.${r.c}`),
  );
  for (const t of tables) if (!columnsOf(t).length) throw new Error(`the PostgreSQL database has no table ${t}`);

  const accounts = await to.one<{ n: number }>("SELECT COUNT(*) AS n FROM users");
  if ((accounts?.n ?? 0) > 0) throw new Error("the PostgreSQL database already has accounts; migrate into a new, empty database");

  // References between tables, and the order that puts parents first.
  const refs = new Map<string, ForeignKey[]>();
  for (const t of tables) {
    const list = await from.all<{ table: string; from: string }>(`PRAGMA foreign_key_list(${t})`);
    refs.set(
      t,
      list.map((r) => ({ table: r.table, from: r.from })),
    );
  }
  const { order, deferred } = parentsFirst(tables, refs, (t, c) => columnsOf(t).find((x) => x.column_name === c)?.is_nullable === "YES");

  return to.tx(async (tx) => {
    // Rows copied in whole: nothing is to be made on insert, and the migrations' own rows give way.
    await tx.exec(`TRUNCATE ${tables.join(", ")} CASCADE`);
    for (const t of tables) await tx.exec(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
    const copies: TableCopy[] = [];
    const later: { table: string; column: string; keys: string[]; rows: Record<string, unknown>[] }[] = [];
    for (const table of order) {
      const cols = columnsOf(table);
      const names = cols.map((c) => q(c.column_name));
      const isBool = new Set(cols.filter((c) => c.data_type === "boolean").map((c) => c.column_name));
      const hold = new Set(deferred.filter((d) => d.table === table).map((d) => d.from));
      const rows = await from.all<Record<string, unknown>>(`SELECT ${names.join(", ")} FROM ${table}`);
      const value = (row: Record<string, unknown>, c: string) => {
        const v = row[c] ?? null;
        if (hold.has(c)) return null;
        return v !== null && isBool.has(c) ? Boolean(v) : v;
      };
      const identity = cols.some((c) => c.is_identity === "YES") ? " OVERRIDING SYSTEM VALUE" : "";
      const per = Math.max(1, Math.floor(MAX_PARAMS / names.length));
      for (let i = 0; i < rows.length; i += per) {
        const batch = rows.slice(i, i + per);
        const params: unknown[] = [];
        const tuples = batch.map((row) => `(${names.map((c) => (params.push(value(row, c)), `$${params.length}`)).join(", ")})`);
        await tx.run(`INSERT INTO ${table} (${names.join(", ")})${identity} VALUES ${tuples.join(", ")}`, params);
      }
      // Each sequence continues past the largest value copied.
      for (const c of cols.filter((x) => numbered.has(`${table}.${x.column_name}`)))
        await tx.exec(
          `SELECT setval(pg_get_serial_sequence('${table}', '${q(c.column_name)}'), COALESCE((SELECT MAX(${q(c.column_name)}) FROM ${table}), 1), (SELECT MAX(${q(c.column_name)}) FROM ${table}) IS NOT NULL)`,
        );
      if (hold.size) {
        const keys = (await from.all<{ name: string; pk: number }>(`PRAGMA table_info(${table})`))
          .filter((k) => k.pk > 0)
          .map((k) => q(k.name));
        for (const column of hold) later.push({ table, column, keys, rows });
      }
      const copy = { table, rows: rows.length };
      copies.push(copy);
      opts.onTable?.(copy);
    }
    for (const { table, column, keys, rows } of later) {
      const where = keys.map((k, i) => `${k} = $${i + 2}`).join(" AND ");
      for (const row of rows)
        if (row[column] !== null && row[column] !== undefined)
          await tx.run(`UPDATE ${table} SET ${column} = $1 WHERE ${where}`, [row[column], ...keys.map((k) => row[k])]);
    }
    for (const t of tables) await tx.exec(`ALTER TABLE ${t} ENABLE TRIGGER USER`);
    // Read back: every table holds exactly what was copied into it.
    for (const c of copies) {
      const n = (await tx.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${c.table}`))?.n ?? 0;
      if (n !== c.rows) throw new Error(`${c.table}: ${c.rows} rows copied but ${n} found`);
    }
    return copies;
  });
}

/**
 * Tables ordered so each comes after the tables it references. A loop of references is broken at
 * a column that may be NULL (written later); a reference of a table to itself is always written later.
 */
export function parentsFirst(
  tables: readonly string[],
  refs: ReadonlyMap<string, readonly ForeignKey[]>,
  nullable: (table: string, column: string) => boolean,
): { order: string[]; deferred: { table: string; from: string }[] } {
  const deferred: { table: string; from: string }[] = [];
  const pending = new Map(
    tables.map((t) => [
      t,
      (refs.get(t) ?? []).filter((r) => {
        if (r.table !== t) return tables.includes(r.table);
        deferred.push({ table: t, from: r.from });
        return false;
      }),
    ]),
  );
  const order: string[] = [];
  while (pending.size) {
    const ready = [...pending].find(([, rs]) => rs.every((r) => !pending.has(r.table)));
    if (ready) {
      order.push(ready[0]);
      pending.delete(ready[0]);
      continue;
    }
    // A loop: write one of its nullable references later.
    const cut = [...pending].flatMap(([t, rs]) => rs.filter((r) => pending.has(r.table) && nullable(t, r.from)).map((r) => ({ t, r })))[0];
    if (!cut) throw new Error(`the tables ${[...pending.keys()].join(", ")} reference each other through columns that cannot be empty`);
    deferred.push({ table: cut.t, from: cut.r.from });
    pending.set(
      cut.t,
      pending.get(cut.t)!.filter((r) => r !== cut.r),
    );
  }
  return { order, deferred };
}
