import { nowIso } from "#server/lib/ids";
import type { LiveHub } from "#server/live/hub";
import type { Actor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import { MAINTENANCE_MESSAGE, type MaintenanceState } from "./model";
import type { AdminRepository } from "./repository";

const KEY = "maintenance";
type Stored = Omit<MaintenanceState, "message">;

/**
 * The flag is persisted in `settings` and mirrored in memory: the gate asks on every API request,
 * synchronously. The stored flag is read once, when the service is built; `loaded` says when.
 */
export function maintenanceService(deps: {
  repo: AdminRepository;
  audit: AuditService;
  live: Pick<LiveHub, "disconnect">;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}) {
  const now = deps.now ?? Date.now;
  let state: Stored = { enabled: false, since: null, by: null };
  // Never rejects: a flag that cannot be read leaves the app open (off), as a fresh database does.
  const loaded: Promise<void> = deps.repo.getSetting<Stored>(KEY).then(
    (stored) => {
      if (stored) state = stored;
    },
    (e) => deps.log?.("maintenance: the stored flag could not be read", e),
  );

  return {
    /** Resolves once the stored flag is read (the server waits for it before it serves). */
    loaded,
    isOn: () => state.enabled,
    /**
     * Reads the stored flag again: with several instances on one database, one switched through
     * another instance (src/boot reads it every few seconds there). A failed read keeps the mirror.
     */
    async reload(): Promise<void> {
      await loaded;
      const stored = await deps.repo.getSetting<Stored>(KEY);
      state = stored ?? { enabled: false, since: null, by: null };
    },
    state: (): MaintenanceState => ({ ...state, message: MAINTENANCE_MESSAGE }),

    async set(actor: Actor, enabled: boolean): Promise<MaintenanceState> {
      // A switch made before the stored flag was read must not be overwritten by it.
      await loaded;
      if (enabled !== state.enabled) {
        state = enabled ? { enabled, since: nowIso(now()), by: actor.email } : { enabled, since: null, by: null };
        await deps.repo.putSetting(KEY, state, nowIso(now()));
        await deps.audit.recordBy(actor, enabled ? "admin.maintenance_on" : "admin.maintenance_off");
        if (enabled) deps.live.disconnect({ nonAdmins: true }, "Maintenance mode");
      }
      return { ...state, message: MAINTENANCE_MESSAGE };
    },
  };
}

export type MaintenanceService = ReturnType<typeof maintenanceService>;
