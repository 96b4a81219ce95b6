// The agents worker: its own connection to the app's database file, the AgentLoop, and a message
// bridge. Stop is graceful: timers cleared, the agent in progress finished, agents marked
// stopped, connection closed, then "stopped" goes back so the main thread can terminate us.
import { openDatabase, type Db } from "#server/db/connection";
import { sqliteSql } from "#server/db/sql";
import { AgentLoop } from "../loop/loop";
import { changeHistory } from "#server/modules/changes/public";
import type { AgentsEvent, AgentsRequest } from "./protocol";

declare const self: Worker;

let connection: Db | null = null;
let loop: AgentLoop | null = null;
/** The message being handled: messages are handled one at a time, in order (a stop waits for a start). */
let handling: Promise<void> = Promise.resolve();

const post = (e: AgentsEvent) => self.postMessage(e);

async function shutdown(): Promise<void> {
  try {
    await loop?.stop();
  } finally {
    loop = null;
    if (connection) {
      try {
        connection.close();
      } catch {
        /* already closed */
      }
      connection = null;
    }
    post({ type: "stopped" });
  }
}

async function handle(msg: AgentsRequest): Promise<void> {
  switch (msg.type) {
    case "start": {
      if (loop) return;
      connection = openDatabase(msg.dbPath);
      const sql = sqliteSql(connection);
      loop = new AgentLoop({
        db: sql,
        cadence: msg.cadence,
        // TrendHunter's moves across a set, read from the run history on this worker's connection.
        changes: changeHistory(sql),
        emit: (message, audience) => post({ type: "live", message, audience }),
        log: (message, err) =>
          post({
            type: "log",
            message,
            error: err instanceof Error ? (err.stack ?? err.message) : err === undefined ? undefined : String(err),
          }),
      });
      await loop.start();
      post({ type: "ready" });
      return;
    }
    case "poke":
      loop?.poke();
      return;
    case "stop":
      await shutdown();
      return;
  }
}

self.onmessage = (event: MessageEvent<AgentsRequest>) => {
  const msg = event.data;
  handling = handling.then(() =>
    handle(msg).catch((err: unknown) => post({ type: "fatal", reason: err instanceof Error ? err.message : String(err) })),
  );
};
