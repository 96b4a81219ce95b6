// The shape of a schema as both dialects can report it, in one comparable form: tables, columns
// (type family, NOT NULL, has a default), primary keys, unique constraints, named indexes, foreign
// keys, triggers (by name and table) and sequences of PostgreSQL's own (SQLite has none; an
// identity column's is part of its column). Types compare by family: SQLite's INTEGER is
// PostgreSQL's integer, bigint or boolean (flags are 0/1 in SQLite), TEXT is text or citext, REAL
// double precision, BLOB bytea.
import type { Database } from "bun:sqlite";
import type { SqlDb } from "#server/db/sql";

export interface Shape {
  tables: Record<string, TableShape>;
  /** "name on table": a trigger's body differs by dialect, its existence must not. */
  triggers: string[];
  /**
   * PostgreSQL: the tables whose writes announce themselves (ANNOUNCE_TRIGGER, migrations/pg/0028),
   * which SQLite does without; kept apart from `triggers`, every table must have it.
   */
  announced: string[];
  /** "name owned by table.column" (or "name" alone): sequences other than an identity column's. */
  sequences: string[];
}
export interface TableShape {
  columns: Record<string, string>; // name → "family null|not null[ default]"
  primaryKey: string; // "a,b"
  unique: string[]; // sorted "a,b"
  indexes: Record<string, string>; // name → "[unique ]a,b[ partial]"
  foreignKeys: string[]; // sorted "a,b → t(x,y) on delete cascade"
}

const FAMILY: Record<string, string> = {
  integer: "integer",
  bigint: "integer",
  smallint: "integer",
  boolean: "integer",
  text: "text",
  citext: "text",
  real: "real",
  "double precision": "real",
  blob: "blob",
  bytea: "blob",
};
const family = (t: string) => FAMILY[t.toLowerCase()] ?? `?${t}`;
const column = (type: string, notNull: boolean, hasDefault: boolean) =>
  `${family(type)} ${notNull ? "not null" : "null"}${hasDefault ? " default" : ""}`;
/** The trigger of migrations/pg/0028 on every PostgreSQL table: each writing commit announces itself. */
export const ANNOUNCE_TRIGGER = "announce_change";

const ON_DELETE: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

export function sqliteShape(db: Database): Shape {
  const tables: Shape["tables"] = {};
  const names = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);
  for (const t of names) {
    const cols = db
      .query<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }, [string]>(
        "SELECT * FROM pragma_table_info(?)",
      )
      .all(t);
    const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const shape: TableShape = { columns: {}, primaryKey: pk.map((c) => c.name).join(","), unique: [], indexes: {}, foreignKeys: [] };
    // A primary-key column is NOT NULL in PostgreSQL and in practice in SQLite (ids are always given).
    for (const c of cols) shape.columns[c.name] = column(c.type, c.notnull === 1 || c.pk > 0, c.dflt_value !== null);
    const idx = db
      .query<{ name: string; unique: number; origin: string; partial: number }, [string]>("SELECT * FROM pragma_index_list(?)")
      .all(t);
    for (const i of idx) {
      const on = db
        .query<{ name: string; seqno: number }, [string]>("SELECT name, seqno FROM pragma_index_info(?) ORDER BY seqno")
        .all(i.name)
        .map((c) => c.name)
        .join(",");
      if (i.origin === "u") shape.unique.push(on);
      else if (i.origin === "c") shape.indexes[i.name] = `${i.unique ? "unique " : ""}${on}${i.partial ? " partial" : ""}`;
    }
    shape.unique.sort();
    const fks = db
      .query<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string }, [string]>(
        "SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq",
      )
      .all(t);
    const byId = Map.groupBy(fks, (f) => f.id);
    for (const group of byId.values()) {
      const g = group.sort((a, b) => a.seq - b.seq);
      shape.foreignKeys.push(
        `${g.map((f) => f.from).join(",")} → ${g[0]!.table}(${g.map((f) => f.to).join(",")}) on delete ${g[0]!.on_delete.toLowerCase()}`,
      );
    }
    shape.foreignKeys.sort();
    tables[t] = shape;
  }
  const triggers = db
    .query<{ t: string }, []>("SELECT name || ' on ' || tbl_name AS t FROM sqlite_master WHERE type = 'trigger' ORDER BY t")
    .all()
    .map((r) => r.t);
  return { tables, triggers, announced: [], sequences: [] };
}

export async function postgresShape(db: SqlDb): Promise<Shape> {
  const tables: Shape["tables"] = {};
  const cols = await db.all<{
    table_name: string;
    column_name: string;
    udt_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  for (const c of cols) {
    const t = (tables[c.table_name] ??= { columns: {}, primaryKey: "", unique: [], indexes: {}, foreignKeys: [] });
    const type = c.data_type === "USER-DEFINED" ? c.udt_name : c.data_type;
    t.columns[c.column_name] = column(type, c.is_nullable === "NO", c.column_default !== null);
  }
  // Constraints and indexes, each with its columns in key order.
  const keys = await db.all<{ tbl: string; contype: string; cols: string; ftbl: string | null; fcols: string | null; deltype: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.contype,
            (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS cols,
            c.confrelid::regclass::text AS ftbl,
            (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS fcols,
            c.confdeltype AS deltype
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f')`,
  );
  for (const k of keys) {
    const t = tables[k.tbl];
    if (!t) continue;
    if (k.contype === "p") t.primaryKey = k.cols;
    else if (k.contype === "u") t.unique.push(k.cols);
    else t.foreignKeys.push(`${k.cols} → ${k.ftbl}(${k.fcols}) on delete ${ON_DELETE[k.deltype]}`);
  }
  const idx = await db.all<{ tbl: string; name: string; uniq: number; partial: number; cols: string }>(
    `SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS uniq, (x.indpred IS NOT NULL) AS partial,
            (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(x.indkey) WITH ORDINALITY k(n, i)
               JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n) AS cols
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  for (const i of idx) {
    const t = tables[i.tbl];
    if (t) t.indexes[i.name] = `${i.uniq ? "unique " : ""}${i.cols}${i.partial ? " partial" : ""}`;
  }
  for (const t of Object.values(tables)) {
    t.unique.sort();
    t.foreignKeys.sort();
  }
  const allTriggers = await db.all<{ name: string; tbl: string }>(
    `SELECT g.tgname AS name, c.relname AS tbl FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT g.tgisinternal
      ORDER BY g.tgname || ' on ' || c.relname`,
  );
  const triggers = allTriggers.filter((g) => g.name !== ANNOUNCE_TRIGGER).map((g) => `${g.name} on ${g.tbl}`);
  const announced = allTriggers
    .filter((g) => g.name === ANNOUNCE_TRIGGER)
    .map((g) => g.tbl)
    .sort();
  // An identity column's sequence depends on it internally ('i'); one OWNED BY a column, automatically ('a').
  const sequences = (
    await db.all<{ s: string }>(
      `SELECT s.relname || COALESCE(' owned by ' || t.relname || '.' || a.attname, '') AS s
         FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
         LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.refobjsubid > 0
         LEFT JOIN pg_class t ON t.oid = d.refobjid
         LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
        WHERE s.relkind = 'S' AND n.nspname = 'public' AND d.deptype IS DISTINCT FROM 'i' ORDER BY s`,
    )
  ).map((r) => r.s);
  return { tables, triggers, announced, sequences };
}

/** Every difference between two shapes, one line each ("" when they match). */
export function differences(a: Shape, b: Shape, names = ["sqlite", "postgres"] as const): string[] {
  const out: string[] = [];
  const [an, bn] = names;
  const allTables = [...new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])].sort();
  for (const name of allTables) {
    const ta = a.tables[name];
    const tb = b.tables[name];
    if (!ta || !tb) {
      out.push(`table ${name}: only in ${ta ? an : bn}`);
      continue;
    }
    const cols = [...new Set([...Object.keys(ta.columns), ...Object.keys(tb.columns)])].sort();
    for (const c of cols) {
      const ca = ta.columns[c];
      const cb = tb.columns[c];
      if (ca === undefined || cb === undefined) out.push(`${name}.${c}: only in ${ca !== undefined ? an : bn}`);
      else if (ca !== cb) out.push(`${name}.${c}: ${an} ${ca}, ${bn} ${cb}`);
    }
    if (ta.primaryKey !== tb.primaryKey) out.push(`${name} primary key: ${an} (${ta.primaryKey}), ${bn} (${tb.primaryKey})`);
    if (ta.unique.join(" | ") !== tb.unique.join(" | "))
      out.push(`${name} unique: ${an} [${ta.unique.join(" | ")}], ${bn} [${tb.unique.join(" | ")}]`);
    const idx = [...new Set([...Object.keys(ta.indexes), ...Object.keys(tb.indexes)])].sort();
    for (const i of idx) {
      if (ta.indexes[i] !== tb.indexes[i])
        out.push(`index ${i} on ${name}: ${an} ${ta.indexes[i] ?? "missing"}, ${bn} ${tb.indexes[i] ?? "missing"}`);
    }
    const fa = new Set(ta.foreignKeys);
    const fb = new Set(tb.foreignKeys);
    for (const f of fa) if (!fb.has(f)) out.push(`${name} foreign key ${f}: only in ${an}`);
    for (const f of fb) if (!fa.has(f)) out.push(`${name} foreign key ${f}: only in ${bn}`);
  }
  const ta = new Set(a.triggers);
  const tb = new Set(b.triggers);
  for (const t of ta) if (!tb.has(t)) out.push(`trigger ${t}: only in ${an}`);
  for (const t of tb) if (!ta.has(t)) out.push(`trigger ${t}: only in ${bn}`);
  const sa = new Set(a.sequences);
  const sb = new Set(b.sequences);
  for (const q of sa) if (!sb.has(q)) out.push(`sequence ${q}: only in ${an}`);
  for (const q of sb) if (!sa.has(q)) out.push(`sequence ${q}: only in ${bn}`);
  return out;
}
