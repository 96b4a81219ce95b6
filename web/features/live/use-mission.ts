// Pages render their loader data first (that's what the server rendered), then the store once
// the data is in it; from then on the live feed keeps it current.
import { useEffect } from "react";
import { hydrateMission } from "./connection";
import type { MissionData } from "./reducer";
import { useLive, type LiveState } from "./store";

export function useMission(loaded: Partial<MissionData> & { systemActive?: boolean | null }, userId: string | null): LiveState {
  const live = useLive();
  useEffect(() => {
    hydrateMission(loaded, userId);
  }, [loaded, userId]);
  if (live.hydrated && live.hydratedFor === userId) return live;
  return { ...live, ...Object.fromEntries(Object.entries(loaded).filter(([, v]) => v !== undefined && v !== null)) } as LiveState;
}
