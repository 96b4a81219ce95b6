// What other modules may use of agents: the hosts that run the agent loop (in the agents worker,
// or in-process), which the system module starts, stops and pokes, and the loop's cadence.
export { InProcessAgentHost, WorkerAgentHost, type AgentHost, type AgentHostDeps } from "./host";
export type { Cadence } from "./loop/loop";
