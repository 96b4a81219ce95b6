// What other modules use of workspaces besides its routes and model (docs/decisions/0008).
export { workspaceRoutesGuard, type WorkspaceRouteResolvers } from "./guard";
