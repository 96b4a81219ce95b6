// What other modules may use of agents: the engine the system module starts, stops and pokes.
export { AgentEngine, type Cadence } from "./engine/engine";
