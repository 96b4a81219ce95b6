// The agents worker: its own bun:sqlite connection to the app's database file, the AgentLoop,
// and a message bridge. Stop is graceful: timers cleared, agents marked stopped, connection
// closed, then "stopped" goes back so the main thread can terminate us.
import { openDatabase, type Db } from "#server/db/connection";
import { AgentLoop } from "../loop/loop";
import { changeHistory } from "#server/modules/changes/public";
import type { AgentsEvent, AgentsRequest } from "./protocol";

declare const self: Worker;

let db: Db | null = null;
let loop: AgentLoop | null = null;

const post = (e: AgentsEvent) => self.postMessage(e);

function shutdown(): void {
  try {
    loop?.stop();
  } finally {
    loop = null;
    if (db) {
      try {
        db.close();
      } catch {
        /* already closed */
      }
      db = null;
    }
    post({ type: "stopped" });
  }
}

self.onmessage = (event: MessageEvent<AgentsRequest>) => {
  const msg = event.data;
  try {
    switch (msg.type) {
      case "start": {
        if (loop) return;
        db = openDatabase(msg.dbPath);
        loop = new AgentLoop({
          db,
          cadence: msg.cadence,
          // TrendHunter's moves across a set, read from the run history on this worker's connection.
          changes: changeHistory(db),
          emit: (message, audience) => post({ type: "live", message, audience }),
          log: (message, err) =>
            post({
              type: "log",
              message,
              error: err instanceof Error ? (err.stack ?? err.message) : err === undefined ? undefined : String(err),
            }),
        });
        loop.start();
        post({ type: "ready" });
        return;
      }
      case "poke":
        loop?.poke();
        return;
      case "stop":
        shutdown();
        return;
    }
  } catch (err) {
    post({ type: "fatal", reason: err instanceof Error ? err.message : String(err) });
  }
};
