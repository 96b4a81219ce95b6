// The /ws live feed: authenticates at the upgrade (an access token offered as the
// "bearer.<token>" subprotocol, else the refresh cookie), refuses foreign origins, registers each
// socket with the LiveHub and polices what clients send (only {"type":"ping"} is understood).
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { jsonError } from "#server/http/errors";
import { readCookie } from "#server/http/cookies";
import { type HostPolicy, hostProblem } from "#server/http/host-guard";
import type { PublicUser } from "#server/modules/auth/model";
import type { LiveHub, LiveSocket } from "./hub";

export const WS_PATH = "/ws";
/** The subprotocol the server speaks; a client that offers subprotocols must offer this one too. */
export const WS_SUBPROTOCOL = "design-intel.v1";
export const WS_TOKEN_PREFIX = "bearer.";
/** Clients only ever send pings; anything bigger is abuse and closes that socket (1009). */
export const MAX_CLIENT_FRAME_BYTES = 1024;

export interface LiveSocketData {
  user: PublicUser;
  sessionId: string | null;
  /** The workspace of the API key that opened the socket; null for a sign-in session. */
  keyWorkspaceId: string | null;
  socket: LiveSocket | null;
}

export interface LiveSocketDeps {
  hub: LiveHub;
  userForAccessToken(token: string): PublicUser | null | Promise<PublicUser | null>;
  /** As userForAccessToken, with an API key's workspace: such a socket hears that workspace only. */
  principalForAccessToken?(token: string): Promise<{ user: PublicUser; keyWorkspaceId: string | null } | null>;
  userForRefreshToken(token: string | undefined): Promise<PublicUser | null>;
  refreshCookie: string;
  /** The sign-in session behind the credential (see AuthService.sessionOf); its logout closes the socket. */
  sessionOf?(credential: { accessToken?: string; refreshToken?: string }): Promise<string | null>;
  /** A reason to turn this user away (maintenance mode), or null. */
  refuse?: (user: PublicUser) => string | null;
  /** Extra origins allowed besides the page's own host. */
  allowedOrigins?: string[];
  /** PUBLIC_URL and TRUST_PROXY: the same Host and Origin rules as every HTTP request (http/host-guard.ts). */
  hosts?: HostPolicy;
}

function sameOrigin(req: Request, origin: string, extra: string[]): boolean {
  if (extra.includes(origin)) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === (req.headers.get("host") ?? new URL(req.url).host);
}

const principalOfUser = (user: PublicUser | null) => (user ? { user, keyWorkspaceId: null } : null);

export function liveSockets(deps: LiveSocketDeps) {
  const principalOf = async (token: string) =>
    deps.principalForAccessToken ? deps.principalForAccessToken(token) : principalOfUser(await deps.userForAccessToken(token));

  async function upgrade(req: Request, server: Server<LiveSocketData>): Promise<Response | undefined> {
    const hostRefusal = hostProblem(req, deps.hosts ?? { trustProxy: false });
    if (hostRefusal) return jsonError(hostRefusal.status, hostRefusal.message);
    if (req.method !== "GET" || req.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return jsonError(426, "This endpoint speaks WebSocket only", {}, { upgrade: "websocket" });
    // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
    const origin = req.headers.get("origin");
    if (origin && !sameOrigin(req, origin, deps.allowedOrigins ?? [])) return jsonError(403, "Origin not allowed");

    const offered = (req.headers.get("sec-websocket-protocol") ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    if (offered.length && !offered.includes(WS_SUBPROTOCOL)) return jsonError(400, `Unsupported subprotocol; offer ${WS_SUBPROTOCOL}`);
    const bearer = offered.find((p) => p.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length);
    const cookie = bearer ? undefined : readCookie(req.headers.get("cookie"), deps.refreshCookie);
    const who = bearer ? await principalOf(bearer) : principalOfUser(await deps.userForRefreshToken(cookie));
    if (!who) return jsonError(401, "Authentication required");
    const { user, keyWorkspaceId } = who;
    const sessionId = (await deps.sessionOf?.(bearer ? { accessToken: bearer } : { refreshToken: cookie })) ?? null;
    const refused = deps.refuse?.(user);
    if (refused) return jsonError(503, refused);

    const ok = server.upgrade(req, {
      data: { user, sessionId, keyWorkspaceId, socket: null },
      headers: offered.length ? { "sec-websocket-protocol": WS_SUBPROTOCOL } : undefined,
    });
    return ok ? undefined : jsonError(400, "WebSocket upgrade failed");
  }

  const websocket: WebSocketHandler<LiveSocketData> = {
    maxPayloadLength: MAX_CLIENT_FRAME_BYTES,
    // Bun pings idle peers and drops the ones that stop answering.
    idleTimeout: 60,
    sendPings: true,
    // A client that can't keep up is dropped rather than buffered without bound.
    backpressureLimit: 1024 * 1024,
    closeOnBackpressureLimit: true,
    perMessageDeflate: false,
    open(ws: ServerWebSocket<LiveSocketData>) {
      const s: LiveSocket = {
        userId: ws.data.user.id,
        role: ws.data.user.role,
        sessionId: ws.data.sessionId,
        workspaceId: ws.data.keyWorkspaceId,
        send: (data) => {
          ws.send(data);
        },
        close: (code, reason) => ws.close(code, reason),
      };
      ws.data.socket = s;
      deps.hub.add(s);
    },
    message(ws, raw) {
      if (typeof raw !== "string") return ws.close(1003, "Text frames only");
      let msg: unknown;
      try {
        msg = JSON.parse(raw);
      } catch {
        return ws.close(1007, "Malformed JSON");
      }
      if (msg && typeof msg === "object" && (msg as { type?: unknown }).type === "ping") {
        ws.send(JSON.stringify({ type: "pong", payload: { at: Date.now() } }));
        return;
      }
      ws.close(1008, "Unsupported message");
    },
    close(ws) {
      if (ws.data.socket) deps.hub.remove(ws.data.socket);
      ws.data.socket = null;
    },
  };

  /**
   * For Bun.serve's `routes`: Bun's own router sends only /ws here, so no other request pays for
   * a path check in JavaScript.
   */
  const routes = { [WS_PATH]: upgrade };

  return { upgrade, websocket, routes };
}
