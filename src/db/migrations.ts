// Each migration is imported as text so `bun build --compile` embeds it in the binary.
import m0001 from "../../migrations/0001_init.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [{ version: 1, name: "0001_init", sql: m0001 }];
