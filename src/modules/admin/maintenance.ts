import { nowIso } from "#server/lib/ids";
import type { LiveHub } from "#server/live/hub";
import type { Actor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import { MAINTENANCE_MESSAGE, type MaintenanceState } from "./model";
import type { AdminRepository } from "./repository";

const KEY = "maintenance";
type Stored = Omit<MaintenanceState, "message">;

/** The flag is persisted in `settings` and mirrored in memory: the gate asks on every API request. */
export function maintenanceService(deps: {
  repo: AdminRepository;
  audit: AuditService;
  live: Pick<LiveHub, "disconnect">;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let state: Stored = deps.repo.getSetting<Stored>(KEY) ?? { enabled: false, since: null, by: null };

  return {
    isOn: () => state.enabled,
    state: (): MaintenanceState => ({ ...state, message: MAINTENANCE_MESSAGE }),

    async set(actor: Actor, enabled: boolean): Promise<MaintenanceState> {
      if (enabled !== state.enabled) {
        state = enabled ? { enabled, since: nowIso(now()), by: actor.email } : { enabled, since: null, by: null };
        deps.repo.putSetting(KEY, state, nowIso(now()));
        await deps.audit.recordBy(actor, enabled ? "admin.maintenance_on" : "admin.maintenance_off");
        if (enabled) deps.live.disconnect((s) => s.role !== "admin", "Maintenance mode");
      }
      return { ...state, message: MAINTENANCE_MESSAGE };
    },
  };
}

export type MaintenanceService = ReturnType<typeof maintenanceService>;
