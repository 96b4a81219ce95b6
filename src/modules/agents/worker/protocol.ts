// The typed messages between the main thread (agents/host.ts) and the agents worker: a request
// union (main -> worker) and an event union (worker -> main); nothing else crosses the boundary.
// The worker opens its own connection to the same SQLite file (WAL) and runs the four agents;
// the main thread only relays what it publishes to the LiveHub. See docs/decisions/0003-agents-worker.md.

import type { Audience, LiveMessage } from "#server/live/hub";
import type { Cadence } from "../loop/loop";

export type AgentsRequest = { type: "start"; dbPath: string; cadence?: Partial<Cadence> } | { type: "poke" } | { type: "stop" };

export type AgentsEvent =
  | { type: "ready" }
  | { type: "live"; message: LiveMessage; audience: Audience }
  | { type: "log"; message: string; error?: string }
  | { type: "stopped" }
  | { type: "fatal"; reason: string };
